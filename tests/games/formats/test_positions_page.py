"""The set-up page: a position from its Position ID (and Match ID) or XGID, its IDs, and the
legal plays of a roll ranked by bgsage. Bad IDs give a clear error, never a crash."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.computer import sage
from games.engine import Dice, Position, legal_plays

pytestmark = pytest.mark.django_db

START = "4HPwATDgc/ABMA"


def show(client, **query):
    return client.get(reverse("positions"), query)


def text_of(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(response.content.decode())).split())


def plays_listed(response) -> list[str]:
    return re.findall(r'<tr data-play="([^"]+)">', html.unescape(response.content.decode()))


def test_with_nothing_asked_it_shows_the_starting_position(client):
    response = show(client)
    assert response.status_code == 200
    text = text_of(response)
    assert f"Position ID {START}" in text
    assert "XGID XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10" in text
    assert "on roll 167, opponent 167" in text
    assert '<svg class="board"' in response.content.decode()


def test_a_position_id_and_a_roll_list_every_legal_play_ranked_best_first(client):
    response = show(client, position_id=START, dice="31")
    assert response.status_code == 200
    listed = plays_listed(response)
    assert listed[0] == "8/5 6/5"
    assert len(listed) == len(legal_plays(Position.starting(), Dice(3, 1)))
    text = text_of(response)
    assert "The plays of 3-1" in text and "1 8/5 6/5" in text and "best" in text
    differences = re.findall(r'class="difference">(-\d\.\d{3})<', response.content.decode())
    assert len(differences) == len(listed) - 1
    assert all(float(value) <= 0 for value in differences)
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10" in text  # the roll is in the IDs


def test_an_xgid_sets_up_the_same_position_with_its_dice_and_match(client):
    response = show(client, xgid="XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10")
    assert response.status_code == 200
    text = text_of(response)
    assert f"Position ID {START}" in text
    assert "Match ID 8IluACAACAAE" in text
    assert "3-point match" in text and "the Crawford game" in text
    assert "The plays of 5-3" in text
    assert plays_listed(response)[0] == "8/3 6/3"


def test_a_position_and_match_id_give_the_xgid(client):
    text = text_of(show(client, position_id=START, match_id="8IhuACAACAAE"))
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10" in text


def test_a_roll_that_cannot_be_played_says_so(client):
    closed_out = Position.from_checkers({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5})
    response = show(client, position_id=closed_out.position_id(), dice="6-6")
    assert response.status_code == 200
    assert "No legal play: the 6-6 cannot be played" in text_of(response)


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"position_id": "garbage"}, "not a Position ID"),
        ({"position_id": "4HPwATDgc/ABM"}, "has 13 characters"),
        ({"position_id": "4HPwATDgc/ABMÄ"}, "Position ID"),
        ({"position_id": "//////////////"}, "Position ID"),
        ({"position_id": START, "match_id": "zzzz"}, "not a Match ID"),
        ({"position_id": START, "match_id": "✓✓✓✓✓✓✓✓✓✓✓✓"}, "Match ID"),
        ({"xgid": "XGID=nonsense"}, "not an XGID"),
        ({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5"}, "not an XGID"),
        ({"xgid": "XGID=-b", "position_id": START}, "not both"),
        ({"position_id": START, "dice": "77"}, "a die shows 1 to 6"),
        ({"position_id": START, "dice": "3"}, "cannot read"),
        ({"position_id": START, "dice": "ab"}, "cannot read"),
        ({"position_id": START * 5}, "at most 40 characters"),
        ({"position_id": "\x00\x01"}, "Null characters are not allowed"),
    ],
)
def test_bad_input_is_a_clear_error_on_the_page(client, query, says):
    response = show(client, **query)
    assert response.status_code == 400
    text = text_of(response)
    assert says.lower() in text.lower(), text[:600]
    assert 'role="alert"' in response.content.decode()


@pytest.mark.parametrize(
    "value",
    ["٣١", "３１", "null", "-1", "0", "99999999999999999999", "<script>", "'; DROP", "\u202e"],
)
def test_odd_text_in_any_field_never_crashes_the_page(client, value):
    for field in ("position_id", "match_id", "xgid", "dice"):
        response = show(client, **{field: value})
        assert response.status_code in (200, 400)
        assert "<script>" not in response.content.decode().split("<main")[1]


def test_if_bgsage_fails_the_board_still_shows(client, monkeypatch):
    def broken(position, dice, context=None, *, plies=1):
        raise RuntimeError("no weights")

    monkeypatch.setattr(sage, "rank_plays", broken)
    response = show(client, position_id=START, dice="31")
    assert response.status_code == 200
    assert "could not rank the plays" in text_of(response)


def test_the_nav_links_to_the_set_up_page(client):
    assert f'href="{reverse("positions")}"' in client.get(reverse("home")).content.decode()


def test_rank_plays_ranks_every_legal_play_best_first():
    ranked = sage.rank_plays(Position.starting(), Dice(6, 5))
    assert ranked[0].notation == "24/13"
    assert len(ranked) == len(legal_plays(Position.starting(), Dice(6, 5)))
    equities = [ranked_play.equity for ranked_play in ranked]
    assert equities == sorted(equities, reverse=True)


def test_a_position_of_the_visitors_match_under_way_is_refused(dice, alice, bob, carol):
    from django.test import Client

    from tests.games.factories import act, start_match, state_of

    dice.add(3, 1)
    match = act(start_match(alice, bob), alice, "move", play="8/5 6/5")
    now = state_of(match)
    for player, side in ((alice, 1), (bob, 1), (alice, 0)):
        browser = Client()
        browser.force_login(player)
        refused = show(browser, position_id=now.position_id(side), dice="31")
        assert refused.status_code == 400
        assert "one of your matches under way" in text_of(refused)
        assert plays_listed(refused) == [] and '<svg class="board"' not in refused.content.decode()
    browser = Client()
    browser.force_login(carol)
    assert plays_listed(show(browser, position_id=now.position_id(1), dice="31"))
    browser.force_login(alice)
    assert plays_listed(show(browser, position_id=START, dice="31")), "the start is everyone's"
