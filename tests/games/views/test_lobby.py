"""The lobby: matches awaiting the player, challenges, the challenge form and the next match."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Challenge, Match
from tests.games.factories import act, make_moderator, make_user, start_match

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode()


def bob_to_act(dice, alice, bob) -> Match:
    """Alice opened with 3-1 and played it; Bob is on roll (and may double)."""
    dice.add(3, 1)
    match = start_match(alice, bob)
    return act(match, alice, "move", play="8/5 6/5")


def alice_to_act(dice, alice, opponent) -> Match:
    """Alice is to play her opening 3-1."""
    dice.add(3, 1)
    return start_match(alice, opponent)


def challenge_form(**values) -> dict[str, str]:
    form = {"opponent": "", "match_length": "5", "rated": "on", "clock": "1+8"}
    form.update(values)
    return {name: value for name, value in form.items() if value is not None}


# --- The page ---


def test_anonymous_visitors_get_a_welcome_and_matches_to_watch(client, dice, alice, bob):
    match = bob_to_act(dice, alice, bob)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    text = page(response)
    assert "Sign up" in text and reverse("account_signup") in text
    assert reverse("account_login") in text
    assert f'href="/matches/{match.pk}/"' in text
    assert "alice v bob" in text and "bob to roll or double" in text
    assert "Challenge a player" not in text


def test_the_base_layout_has_the_navigation_styles_and_htmx(client, alice):
    text = page(client.get(reverse("home")))
    assert 'href="/static/games/site.css"' in text
    assert 'src="/static/games/htmx-2.0.11.min.js"' in text
    assert 'name="htmx-config"' in text
    for name in ("home", "watch", "account_login", "account_signup"):
        assert f'href="{reverse(name)}"' in text
    assert "API tokens" not in text

    client.force_login(alice)
    text = page(client.get(reverse("home")))
    assert f'href="{reverse("profile", args=["alice"])}"' in text
    assert f'href="{reverse("settings")}"' in text
    assert f'action="{reverse("account_logout")}"' in text


def test_your_matches_come_awaiting_you_first(signed_in, dice, alice, bob, carol):
    awaiting_bob = bob_to_act(dice, alice, bob)
    awaiting_alice = alice_to_act(dice, alice, carol)
    # The match awaiting Bob is the newer one, yet Alice's turn comes first.
    Match.objects.filter(pk=awaiting_bob.pk).update(updated_at=awaiting_alice.updated_at)
    text = page(signed_in(alice).get(reverse("home")))
    mine = text.split('id="your-matches"')[1].split("</section>")[0]
    rows = re.findall(r'data-match="(\d+)"', mine)
    assert rows == [str(awaiting_alice.pk), str(awaiting_bob.pk)]
    assert "Your turn to play 3-1" in mine
    assert "bob to roll or double" in mine
    assert f'href="{reverse("match", args=[awaiting_alice.pk])}"' in mine
    assert ">carol<" in mine and ">bob<" in mine
    assert "Next match (1 waiting)" in text


def test_finished_matches_are_not_in_your_matches(signed_in, dice, alice, bob):
    match = bob_to_act(dice, alice, bob)
    services.match_abort(match_id=match.pk, moderator=make_moderator("mod"), reason="test")
    text = page(signed_in(alice).get(reverse("home")))
    assert "You have no match under way" in text


def test_the_lobby_fragment_for_a_push_has_no_layout(signed_in, dice, alice, bob, carol):
    bob_to_act(dice, alice, bob)
    Challenge.objects.create(
        challenger=carol,
        opponent=alice,
        time_control={"kind": "correspondence", "days_per_move": 3, "reserve_days": 10},
    )
    text = page(signed_in(alice).get(reverse("home") + "?part=lobby"))
    assert text.lstrip().startswith('<div id="lobby-live"')
    assert "<html" not in text and "bob to roll" in text
    incoming = text.split('id="challenges-to-you"')[1].split("</section>")[0]
    assert ">carol<" in incoming


def test_the_lobby_fragment_leaves_flash_messages_for_the_next_page(signed_in, alice, bob):
    client = signed_in(alice)
    client.post(reverse("challenge-create"), {"opponent": "bob", "match_length": 3, "clock": "1+8"})
    assert "Your challenge is sent to bob" not in page(client.get(reverse("home") + "?part=lobby"))
    assert "Your challenge is sent to bob" in page(client.get(reverse("home")))


def test_the_fragment_for_a_signed_out_player_is_empty(client):
    assert client.get(reverse("home") + "?part=lobby").status_code == 204


def test_the_lobby_lists_challenges_each_with_its_buttons(signed_in, alice, bob, carol):
    to_alice = Challenge.objects.create(
        challenger=bob,
        opponent=alice,
        time_control={"kind": "correspondence", "days_per_move": 3, "reserve_days": 10},
    )
    from_alice = Challenge.objects.create(
        challenger=alice,
        opponent=carol,
        time_control={"kind": "live", "minutes": 8, "increment_seconds": 10},
    )
    open_one = Challenge.objects.create(
        challenger=carol,
        opponent=None,
        match_length=7,
        time_control={"kind": "correspondence", "days_per_move": 7, "reserve_days": 0},
    )
    text = page(signed_in(alice).get(reverse("home")))
    assert "3 days a move + 10 days reserve" in text
    assert "Live: 8 minutes + 10 seconds a move" in text
    assert "7 days a move" in text
    assert f'action="{reverse("challenge-accept", args=[to_alice.pk])}"' in text
    assert f'action="{reverse("challenge-decline", args=[to_alice.pk])}"' in text
    assert f'action="{reverse("challenge-cancel", args=[from_alice.pk])}"' in text
    assert f'action="{reverse("challenge-accept", args=[open_one.pk])}"' in text
    assert f'action="{reverse("challenge-decline", args=[open_one.pk])}"' not in text
    assert f'action="{reverse("challenge-accept", args=[from_alice.pk])}"' not in text
    assert text.count("csrfmiddlewaretoken") >= 5


def test_the_challenge_form_has_its_defaults(signed_in, alice):
    text = page(signed_in(alice).get(reverse("home")))
    start = text.index('<form class="challenge-form"')
    text = text[start : text.index("</form>", start)]
    assert re.search(r'<option value="5" selected>', text)
    assert re.search(r'name="rated"[^>]*checked', text)
    assert re.search(r'value="1\+8"[^>]*checked', text)
    assert 'name="minutes" value="8"' in text and 'name="increment_seconds" value="10"' in text
    lengths = re.findall(r'<option value="(\d+)"', text)
    assert lengths == ["1", "3", "5", "7", "9", "11", "13", "15", "17", "21", "25"]


def test_a_profile_link_fills_in_the_opponent(signed_in, alice):
    text = page(signed_in(alice).get(reverse("home") + "?opponent=bob"))
    assert 'name="opponent" value="bob"' in text


# --- Creating challenges ---


def test_challenging_a_player_by_name(signed_in, alice, bob):
    browser = signed_in(alice)
    response = browser.post(
        reverse("challenge-create"), challenge_form(opponent="bob", match_length="7")
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.opponent) == (alice, bob)
    assert challenge.match_length == 7 and challenge.rated is True
    assert challenge.time_control == {
        "kind": "correspondence",
        "days_per_move": 1,
        "reserve_days": 8,
    }
    text = page(browser.get(reverse("home")))
    assert "Your challenge is sent to bob." in text
    assert f'action="{reverse("challenge-cancel", args=[challenge.pk])}"' in text


def test_an_open_challenge_a_live_clock_and_unrated(signed_in, alice):
    form = challenge_form(clock="live", minutes="5", increment_seconds="12", rated=None)
    response = signed_in(alice).post(reverse("challenge-create"), form, follow=True)
    assert "Your open challenge is posted" in page(response)
    challenge = Challenge.objects.get()
    assert challenge.opponent is None and challenge.rated is False
    assert challenge.time_control == {"kind": "live", "minutes": 5, "increment_seconds": 12}


def test_a_correspondence_clock_of_ones_own(signed_in, alice, bob):
    form = challenge_form(opponent="Bob", clock="days", days_per_move="0.5", reserve_days="2")
    signed_in(alice).post(reverse("challenge-create"), form)
    challenge = Challenge.objects.get()
    assert challenge.opponent == bob  # the name is found whatever its case
    assert challenge.time_control == {
        "kind": "correspondence",
        "days_per_move": 0.5,
        "reserve_days": 2,
    }


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"opponent": "nobody"}, "There is no player called &#x27;nobody&#x27;."),
        ({"opponent": "alice"}, "You cannot challenge yourself."),
        ({"match_length": "4"}, "A match is played to 1, 3, 5, 7, 9, 11, 13, 15, 17, 21 or 25"),
        ({"match_length": "many"}, "A match is played to 1, 3, 5"),
        ({"clock": "live", "minutes": "500"}, "minutes must be between 1 and 120."),
        ({"clock": "live", "minutes": ""}, "Give the minutes."),
        ({"clock": "days", "days_per_move": "lots"}, "Enter a number."),
        ({"clock": "hourglass"}, "Choose a time control from the list."),
    ],
)
def test_a_refused_challenge_says_why_and_keeps_the_form(signed_in, alice, bob, values, message):
    form = challenge_form(**{"opponent": "bob", "match_length": "9", **values})
    response = signed_in(alice).post(reverse("challenge-create"), form)
    assert response.status_code == 400
    text = page(response)
    assert message in text
    assert 'role="alert"' in text
    assert Challenge.objects.count() == 0
    # What was typed stays in the form.
    assert f'name="opponent" value="{form["opponent"]}"' in text
    if form["match_length"] == "9":
        assert '<option value="9" selected>' in text


def test_challenging_needs_a_signed_in_player(client, bob):
    response = client.post(reverse("challenge-create"), challenge_form(opponent="bob"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert Challenge.objects.count() == 0


def test_getting_the_challenge_address_goes_back_to_the_lobby(signed_in, alice):
    response = signed_in(alice).get(reverse("challenge-create"))
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_posts_need_the_csrf_token(alice, bob):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post(reverse("challenge-create"), challenge_form(opponent="bob"))
    assert response.status_code == 403
    assert Challenge.objects.count() == 0


# --- Accepting, declining, cancelling ---


@pytest.fixture
def to_bob(alice, bob) -> Challenge:
    return Challenge.objects.create(
        challenger=alice,
        opponent=bob,
        match_length=3,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 8},
    )


def test_the_challenged_player_accepts_and_lands_on_the_match(signed_in, dice, bob, to_bob):
    dice.add(5, 2)
    response = signed_in(bob).post(reverse("challenge-accept", args=[to_bob.pk]))
    to_bob.refresh_from_db()
    assert to_bob.status == "accepted" and to_bob.match is not None
    assert response.status_code == 302
    assert response["Location"] == reverse("match", args=[to_bob.match.pk])
    assert to_bob.match.match_length == 3


def test_only_the_challenged_player_may_accept(signed_in, carol, to_bob):
    response = signed_in(carol).post(reverse("challenge-accept", args=[to_bob.pk]), follow=True)
    assert "This challenge is for another player." in page(response)
    to_bob.refresh_from_db()
    assert to_bob.status == "open"


def test_the_challenger_cannot_accept_their_own(signed_in, alice, to_bob):
    response = signed_in(alice).post(reverse("challenge-accept", args=[to_bob.pk]), follow=True)
    assert "You cannot accept your own challenge." in page(response)


def test_the_challenged_player_declines(signed_in, bob, to_bob):
    response = signed_in(bob).post(reverse("challenge-decline", args=[to_bob.pk]), follow=True)
    assert "You declined the challenge." in page(response)
    to_bob.refresh_from_db()
    assert to_bob.status == "declined"


@pytest.mark.parametrize("who", ["alice", "carol"])
def test_only_the_challenged_player_may_decline(signed_in, who, carol, to_bob):
    user = to_bob.challenger if who == "alice" else carol
    response = signed_in(user).post(reverse("challenge-decline", args=[to_bob.pk]), follow=True)
    assert "Only the challenged player can decline a challenge." in page(response)
    to_bob.refresh_from_db()
    assert to_bob.status == "open"


def test_the_challenger_cancels(signed_in, alice, to_bob):
    response = signed_in(alice).post(reverse("challenge-cancel", args=[to_bob.pk]), follow=True)
    assert "Your challenge is cancelled." in page(response)
    to_bob.refresh_from_db()
    assert to_bob.status == "cancelled"


def test_only_the_challenger_may_cancel(signed_in, bob, to_bob):
    response = signed_in(bob).post(reverse("challenge-cancel", args=[to_bob.pk]), follow=True)
    assert "Only the challenger can cancel a challenge." in page(response)
    to_bob.refresh_from_db()
    assert to_bob.status == "open"


def test_a_closed_challenge_says_so(signed_in, bob, to_bob):
    browser = signed_in(bob)
    browser.post(reverse("challenge-decline", args=[to_bob.pk]))
    response = browser.post(reverse("challenge-accept", args=[to_bob.pk]), follow=True)
    assert "This challenge is declined." in page(response)


def test_a_missing_challenge_says_so(signed_in, bob):
    response = signed_in(bob).post(reverse("challenge-accept", args=[999]), follow=True)
    assert "There is no challenge 999." in page(response)


def test_anyone_else_may_accept_an_open_challenge(signed_in, dice, alice, carol):
    challenge = Challenge.objects.create(
        challenger=alice, opponent=None, time_control={"kind": "live", "minutes": 8}
    )
    dice.add(6, 1)
    response = signed_in(carol).post(reverse("challenge-accept", args=[challenge.pk]))
    challenge.refresh_from_db()
    assert challenge.status == "accepted" and challenge.opponent == carol
    assert response["Location"] == reverse("match", args=[challenge.match_id])


def test_challenge_actions_need_a_signed_in_player_and_a_post(client, signed_in, bob, to_bob):
    for name in ("challenge-accept", "challenge-decline", "challenge-cancel"):
        url = reverse(name, args=[to_bob.pk])
        response = client.post(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))
        response = signed_in(bob).get(url)
        assert response.status_code == 302 and response["Location"] == reverse("home")
    to_bob.refresh_from_db()
    assert to_bob.status == "open"


# --- Next match ---


def test_next_match_goes_to_the_one_that_has_waited_longest(signed_in, dice, alice, bob, carol):
    older = alice_to_act(dice, alice, bob)
    newer = alice_to_act(dice, alice, carol)
    bob_to_act(dice, alice, make_user("dave"))  # not awaiting Alice
    Match.objects.filter(pk=newer.pk).update(updated_at=older.updated_at.replace(year=2030))
    response = signed_in(alice).get(reverse("next-match"))
    assert response.status_code == 302
    assert response["Location"] == reverse("match", args=[older.pk])


def test_next_match_with_nothing_waiting_says_so(signed_in, dice, alice, bob):
    bob_to_act(dice, alice, bob)
    response = signed_in(alice).get(reverse("next-match"))
    assert response["Location"] == reverse("home")
    text = page(signed_in(alice).get(reverse("next-match"), follow=True))
    assert "No match is waiting for you" in text


def test_next_match_needs_a_signed_in_player(client):
    response = client.get(reverse("next-match"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


# --- Queries ---


def _queries(browser, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert browser.get(url).status_code == 200
    return len(queries)


def test_the_lobby_costs_the_same_with_ten_matches_as_with_one(
    signed_in, client, django_assert_max_num_queries, alice
):
    browser = signed_in(alice)
    others = [make_user(f"player{i}") for i in range(10)]

    def add(opponent):
        start_match(alice, opponent)
        Challenge.objects.create(challenger=opponent, opponent=alice, time_control={})
        Challenge.objects.create(challenger=alice, opponent=opponent, time_control={})
        Challenge.objects.create(challenger=opponent, opponent=None, time_control={})

    add(others[0])
    signed_in_one = _queries(browser, reverse("home"))
    anonymous_one = _queries(client, reverse("home"))
    for opponent in others[1:]:
        add(opponent)
    with django_assert_max_num_queries(signed_in_one):
        text = page(browser.get(reverse("home")))
    assert text.count("data-match=") == 10 and text.count("data-challenge=") == 30
    with django_assert_max_num_queries(anonymous_one):
        assert page(client.get(reverse("home"))).count("data-match=") == 10


def test_a_dropper_is_told_why_their_open_challenge_is_refused(signed_in, dropper):
    response = signed_in(dropper).post(reverse("challenge-create"), challenge_form())
    assert response.status_code == 400
    text = page(response)
    assert "You lost 2 of your 5 matches of the last 90 days on time (40%)." in text
    assert "This lifts on" in text
    assert not Challenge.objects.exists()
