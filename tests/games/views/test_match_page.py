"""The match page: the board, moving checker by checker, the buttons, watching."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import MatchEvent
from tests.games.factories import make_user, reload, script_dice, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(monkeypatch, players):
    # Opening roll 3 (alice) v 1 (bob): alice moves 3-1 first.
    script_dice(monkeypatch, 3, 1)
    return start_match(*players)


def page(client, match, query=""):
    response = client.get(f"/matches/{match.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def links(html, attribute="hx-get"):
    return [href.replace("&amp;", "&") for href in re.findall(rf'{attribute}="([^"]+)"', html)]


def test_anyone_can_watch_but_only_the_player_to_act_can_act(client, match, players):
    alice, bob = players
    html = page(client, match)
    assert 'data-match-status="active"' in html and f'data-match-seq="{match.seq}"' in html
    assert "data-movable" not in html and "data-action" not in html
    assert "Flip the board" in html
    client.force_login(bob)
    html = page(client, match)
    assert "data-movable" not in html and 'data-action="roll"' not in html
    client.force_login(alice)
    html = page(client, match)
    assert html.count("data-movable") == 4  # 24, 13, 8 and 6 can move with 3-1
    assert "Position ID" in html and "4HPwATDgc/ABMA" in html


def test_the_board_is_drawn_from_the_viewers_side(client, match, players):
    alice, bob = players
    client.force_login(bob)
    html = page(client, match)
    # Bob's 24 point holds his two back checkers: dark ones (player 1).
    point_24 = html.split('data-point="24"')[1].split("</g>")[0]
    assert point_24.count("player-1") == 2
    client.logout()
    flipped = page(client, match, "?side=1")
    assert flipped.split('data-point="24"')[1].split("</g>")[0].count("player-1") == 2


def test_moving_checker_by_checker_then_done(client, match, players):
    alice, _ = players
    client.force_login(alice)
    html = page(client, match)
    select_8 = next(url for url in links(html) if url.endswith("select=8"))
    html = page(client, match, select_8[select_8.index("?") :])
    assert "data-selected" in html
    assert html.count("data-destination") == 2  # 8/5 and 8/7
    to_5 = next(url for url in links(html) if "steps=8-3" in url)
    html = page(client, match, to_5[to_5.index("?") :])
    assert "So far: <strong>8/5</strong>" in html
    assert 'data-action="undo"' in html and 'data-action="done"' not in html
    select_6 = next(url for url in links(html) if url.endswith("select=6"))
    html = page(client, match, select_6[select_6.index("?") :])
    to_5_again = next(url for url in links(html) if "steps=8-3%2C6-1" in url or "6-1" in url)
    html = page(client, match, to_5_again[to_5_again.index("?") :])
    assert 'data-action="done"' in html
    assert MatchEvent.objects.filter(match=match).count() == match.seq  # nothing sent yet
    play = re.search(r'name="play" value="([^"]+)"', html).group(1)
    assert play == "8/5 6/5"
    response = client.post(
        f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "move", "play": play}
    )
    assert response.status_code == 302
    match = reload(match)
    assert state_of(match).last_play.player == 0
    assert MatchEvent.objects.filter(match=match, kind="move").last().payload["play"] == "8/5 6/5"


def test_clicking_a_chosen_checker_again_moves_it_by_the_higher_die(client, match, players):
    client.force_login(players[0])
    html = page(client, match, "?select=13")
    quick = next(url for url in links(html) if "steps=13-3" in url)
    assert "select" not in quick


def test_steps_that_no_longer_fit_start_again(client, match, players):
    client.force_login(players[0])
    html = page(client, match, "?steps=20-6,x")
    assert "start the play again" in html
    assert html.count("data-movable") == 4


def test_the_list_of_legal_plays_works_without_javascript(client, match, players):
    client.force_login(players[0])
    html = page(client, match)
    options = re.findall(r'<option value="([^"]+)"', html)
    assert "8/5 6/5" in options and len(options) == len(state_of(match).legal_plays())
    response = client.post(
        f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "move", "play": "24/21 24/23"}
    )
    assert response.status_code == 302
    assert state_of(reload(match)).last_play.player == 0


def test_errors_are_shown_in_words_and_change_nothing(client, match, players):
    alice, bob = players
    seq = match.seq
    client.force_login(alice)
    response = client.post(
        f"/matches/{match.pk}/act/", {"seq": seq, "action": "move", "play": "24/1"}
    )
    assert response.status_code == 400
    assert "is not a legal play" in response.content.decode()
    response = client.post(
        f"/matches/{match.pk}/act/", {"seq": seq - 1, "action": "move", "play": "8/5 6/5"}
    )
    assert response.status_code == 409 and "moved on" in response.content.decode()
    client.force_login(bob)
    response = client.post(f"/matches/{match.pk}/act/", {"seq": seq, "action": "roll"})
    assert response.status_code == 400 and "You cannot roll now" in response.content.decode()
    client.force_login(make_user("carol"))
    response = client.post(f"/matches/{match.pk}/act/", {"seq": seq, "action": "roll"})
    assert response.status_code == 403 and "Only the two players" in response.content.decode()
    assert reload(match).seq == seq


def test_acting_needs_a_signed_in_player(client, match):
    response = client.post(f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "roll"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_polling_answers_nothing_until_the_match_moves(client, match, players):
    response = client.get(f"/matches/{match.pk}/poll/?seq={match.seq}")
    assert response.status_code == 204
    response = client.get(f"/matches/{match.pk}/poll/?seq={match.seq - 1}")
    assert response["HX-Redirect"] == f"/matches/{match.pk}/"


def test_an_htmx_request_gets_only_the_play_area(client, match, players):
    """With the tab's title before it, which htmx takes for the tab."""
    client.force_login(players[0])
    response = client.get(f"/matches/{match.pk}/?select=8", headers={"HX-Request": "true"})
    title, play_area = response.content.decode().split("</title>", 1)
    assert title.startswith("<title>") and "<" not in title.removeprefix("<title>")
    assert play_area.lstrip().startswith('<section id="play-area"') and "<html" not in play_area


def test_unknown_match_is_404(client):
    assert client.get("/matches/999999/").status_code == 404


def test_the_page_costs_the_same_queries_however_long_the_log(client, match, players, monkeypatch):
    client.force_login(players[0])
    with CaptureQueriesContext(connection) as short:
        page(client, match)
    script_dice(monkeypatch, *([6, 5] * 40))
    alice, bob = players
    for _ in range(10):
        state = state_of(match)
        user = alice if state.player_to_act() == 0 else bob
        if state.phase == "moving":
            play = str(state.legal_plays()[0])
            client.force_login(user)
            client.post(
                f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "move", "play": play}
            )
        else:
            client.force_login(user)
            client.post(f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "roll"})
        match = reload(match)
    assert match.seq > 10
    client.force_login(players[0])
    with CaptureQueriesContext(connection) as long:
        page(client, match)
    assert len(long.captured_queries) == len(short.captured_queries) <= 12


def test_pip_counts_follow_the_play_being_entered(client, match, players):
    alice, bob = players
    client.force_login(alice)

    def pips(html):
        return re.search(r"<dd data-pip-counts>(.*?)</dd>", html).group(1)

    assert pips(page(client, match)) == "alice 167 · bob 167"
    assert pips(page(client, match, "?steps=8-3")) == "alice 164 · bob 167"
    assert pips(page(client, match, "?steps=8-3,6-1")) == "alice 163 · bob 167"
    client.force_login(bob)
    assert pips(page(client, match)) == "alice 167 · bob 167"


def test_a_touch_anywhere_on_a_point_picks_up_its_checker(client, match, players):
    client.force_login(players[0])
    html = page(client, match)
    picks = re.findall(r'class="target-area pick-area"[^>]*hx-get="([^"]+)"', html)
    checkers = re.findall(r'data-movable\s+hx-get="([^"]+)"', html)
    assert picks and sorted(picks) == sorted(checkers)


def test_a_one_point_match_draws_no_cube_and_a_longer_one_does(client, players):
    alice, bob = players
    one_point = start_match(alice, bob, length=1)
    three_points = start_match(alice, bob, length=3)
    assert 'class="cube' not in page(client, one_point)
    assert 'data-cube-value="64"' in page(client, three_points)
