"""A player's profile: record, matches under way and recent matches (the rating section is
tested in tests/ratings/test_pages.py)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services
from tests.games.factories import act, lose_on_time, make_moderator, start_match

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return response.content.decode()


def record(text: str) -> dict[str, int]:
    return {name: int(value) for name, value in re.findall(r"data-([a-z-]+)>(\d+)<", text)}


@pytest.fixture
def history(dice, alice, bob, carol):
    """Alice was awarded a match against Bob, and Carol one against her; a match in which Bob
    dropped Alice's double (a game to her) was then aborted; one with Carol is under way."""
    moderator = make_moderator("mod")
    dice.add(3, 1)
    won = start_match(alice, bob)
    services.match_award(match_id=won.pk, moderator=moderator, winner=alice, reason="bob left")

    dice.add(3, 1)
    lost = start_match(alice, carol, length=1)
    services.match_award(match_id=lost.pk, moderator=moderator, winner=carol, reason="test")

    dice.add(3, 1)
    dropped = start_match(bob, alice, length=3)
    dropped = act(dropped, bob, "move", play="8/5 6/5")
    dropped = act(dropped, alice, "double")
    dice.add(6, 1)  # game 2's opening roll
    dropped = act(dropped, bob, "drop")
    services.match_abort(match_id=dropped.pk, moderator=moderator, reason="test")

    dice.add(1, 2)
    active = start_match(carol, alice)
    return {"won": won, "lost": lost, "aborted": dropped, "active": active}


def test_anyone_sees_a_players_record_and_matches(client, history):
    response = client.get(reverse("profile", args=["alice"]))
    assert response.status_code == 200
    text = page(response)
    assert record(text) == {
        "matches-won": 1,
        "matches-lost": 1,
        "matches-aborted": 1,
        "matches-active": 1,
        "games-won": 1,
        "games-lost": 0,
    }
    active = text.split('id="active-heading"')[1].split("</section>")[0]
    recent = text.split('id="recent-heading"')[1].split("</section>")[0]
    assert f'href="{reverse("match", args=[history["active"].pk])}"' in active
    assert "Your turn" not in active  # Alice's turn, but a visitor is not Alice
    for name in ("won", "lost", "aborted"):
        assert f'href="{reverse("match", args=[history[name].pk])}"' in recent
        assert f'href="{reverse("match-replay", args=[history[name].pk])}"' in recent
    assert ">Won<" in recent and ">Lost<" in recent and ">No winner<" in recent


def test_the_record_counts_games_for_each_side(client, history):
    text = page(client.get(reverse("profile", args=["bob"])))
    assert record(text)["games-lost"] == 1 and record(text)["matches-lost"] == 1


def test_unrated_matches_leave_the_starting_rating_provisional(client, history):
    text = page(client.get(reverse("profile", args=["alice"])))
    rating = text.split('id="rating-heading"')[1].split("</section>")[0]
    assert 'data-rating="1500" data-provisional' in rating
    assert "no rated match yet" in rating
    assert "data-rating-chart" not in rating


def test_a_players_own_profile_and_challenging_from_anothers(signed_in, alice, bob):
    text = page(signed_in(alice).get(reverse("profile", args=["alice"])))
    assert "(you)" in text and "Challenge alice" not in text
    text = page(signed_in(alice).get(reverse("profile", args=["bob"])))
    assert f'href="{reverse("home")}?opponent=bob#new-challenge"' in text


def test_a_new_player_has_an_empty_record(client, alice):
    text = page(client.get(reverse("profile", args=["alice"])))
    assert set(record(text).values()) == {0}
    assert "alice has no match under way." in text
    assert "alice has not finished a match yet." in text


def test_an_unknown_player_is_not_found(client, db):
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_only_the_twenty_most_recent_finished_matches_are_listed(client, alice, bob):
    moderator = make_moderator("mod")
    for _ in range(21):
        match = start_match(alice, bob)
        services.match_abort(match_id=match.pk, moderator=moderator, reason="test")
    text = page(client.get(reverse("profile", args=["alice"])))
    recent = text.split('id="recent-heading"')[1].split("</section>")[0]
    assert recent.count("data-match=") == 20
    assert record(text)["matches-aborted"] == 21


def test_the_profile_shows_the_record_of_timeouts(client, dice, alice, bob):
    lose_on_time(dice, alice, bob)
    text = page(client.get(reverse("profile", args=["alice"])))
    assert "Timed out: 1 of 1 match (100%) in the last 90 days." in text
    assert 'data-timed-out="1"' in text
    assert "cannot enter tournaments" not in text
