"""Droppers on the pages where players choose whom to play: a tournament's and a league's
sign-up lists and the leaderboard show each player's matches lost on time, and mark a dropper
in words; each page reads those records at once, whatever the number of players."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import League, Tournament
from tests.games.droppers_shown import enter, more_players, open_league, open_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(dropper: Any, bob: Any, carol: Any, moderator: Any) -> dict[str, str]:
    """The three pages, with alice (a dropper), bob and carol on each."""
    tournament, league = open_tournament(moderator), open_league(moderator)
    for player in (dropper, bob, carol):
        enter(tournament, league, player)
    return {
        "tournament": f"/tournaments/{tournament.pk}/",
        "league": f"/leagues/{league.pk}/",
        "leaderboard": "/leaderboard/",
        "tournament_id": str(tournament.pk),
        "league_id": str(league.pk),
    }


def record_of(page: str, player: str) -> str:
    """``player``'s record of timeouts on the page, in words."""
    row = re.search(rf'data-(?:entrant|player)="{player}">(.*?)</(?:li|tr)>', page, re.S)
    assert row is not None, f"{player} is not listed"
    shown = re.search(
        r'<span class="timeout-record[^"]*"[^>]*>(.*?)</span>\s*(?=<|$)', row.group(1), re.S
    )
    assert shown is not None, f"{player}'s record is not shown"
    return " ".join(re.sub(r"<[^>]+>", "", html.unescape(shown.group(1))).split())


@pytest.mark.parametrize("page_name", ["tournament", "league", "leaderboard"])
def test_each_page_shows_who_lost_on_time(client: Any, events: dict, page_name: str) -> None:
    page = client.get(events[page_name]).content.decode()
    assert record_of(page, "alice") == "2 of 5 (40%) ⚠ dropper"
    assert record_of(page, "bob") == "0 of 5 (0%)"
    assert record_of(page, "carol") == "0 of 0 (0%)"
    # The mark is a word for every reader, the sign beside it hidden from screen readers.
    assert page.count("data-dropper") == 1
    assert '<span aria-hidden="true">⚠</span> dropper' in page
    assert "Matches lost on time of those finished in the last 90 days" in page


def test_the_leaderboard_has_a_column_for_it(client: Any, events: dict) -> None:
    page = client.get("/leaderboard/").content.decode()
    assert '<th scope="col">Lost on time</th>' in page


@pytest.mark.parametrize("page_name", ["tournament", "league", "leaderboard"])
def test_the_pages_queries_do_not_grow_with_the_players(
    client: Any, events: dict, dice: Any, bob: Any, page_name: str
) -> None:
    client.get(events[page_name])  # the session and caches settle
    with CaptureQueriesContext(connection) as three:
        assert client.get(events[page_name]).status_code == 200
    tournament = Tournament.objects.get(pk=events["tournament_id"])
    league = League.objects.get(pk=events["league_id"])
    more_players(dice, tournament, league, bob)
    with CaptureQueriesContext(connection) as seven:
        page = client.get(events[page_name]).content.decode()
    assert record_of(page, "extra3") == "1 of 1 (100%)"
    assert len(seven) == len(three), [query["sql"] for query in seven]
