"""Droppers in the API: a tournament's entrants, a league's next season's players and the
leaderboard each carry the player's record of timeouts, with ``above_limit`` for a dropper,
read at once whatever the number of players."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.droppers_shown import enter, more_players, open_league, open_tournament

pytestmark = pytest.mark.django_db

ALICE = {
    "matches": 5,
    "timed_out": 2,
    "percent": 40,
    "days": 90,
    "text": "Timed out: 2 of 5 matches (40%) in the last 90 days",
    "above_limit": True,
}


@pytest.fixture
def events(dropper: Any, bob: Any, carol: Any, moderator: Any) -> tuple[Any, Any]:
    tournament, league = open_tournament(moderator), open_league(moderator)
    for player in (dropper, bob, carol):
        enter(tournament, league, player)
    return tournament, league


def by_player(rows: list[dict]) -> dict[str, dict]:
    return {row["player"]: row["timeouts"] for row in rows}


def lists(client: Any, tournament: Any, league: Any) -> dict[str, dict[str, dict]]:
    """Each list's records of timeouts, by player."""
    return {
        "tournament": by_player(
            client.get(f"/api/tournaments/{tournament.pk}/").json()["entrants"]
        ),
        "league": by_player(client.get(f"/api/leagues/{league.pk}/").json()["signed_up_timeouts"]),
        "leaderboard": by_player(client.get("/api/leaderboard/").json()["results"]),
    }


def test_each_list_carries_the_records(client: Any, events: tuple[Any, Any]) -> None:
    for name, records in lists(client, *events).items():
        assert records["alice"] == ALICE, name
        assert (records["bob"]["timed_out"], records["bob"]["matches"]) == (0, 5), name
        assert records["bob"]["above_limit"] is False, name
        assert (records["carol"]["matches"], records["carol"]["percent"]) == (0, 0), name


def test_the_league_keeps_its_list_of_names(client: Any, events: tuple[Any, Any]) -> None:
    body = client.get(f"/api/leagues/{events[1].pk}/").json()
    assert body["signed_up"] == [row["player"] for row in body["signed_up_timeouts"]]
    assert sorted(body["signed_up"]) == ["alice", "bob", "carol"]


@pytest.mark.parametrize(
    "path",
    ["/api/tournaments/{tournament}/", "/api/leagues/{league}/", "/api/leaderboard/"],
)
def test_the_queries_do_not_grow_with_the_players(
    client: Any, events: tuple[Any, Any], dice: Any, bob: Any, path: str
) -> None:
    tournament, league = events
    url = path.format(tournament=tournament.pk, league=league.pk)
    client.get(url)
    with CaptureQueriesContext(connection) as three:
        assert client.get(url).status_code == 200
    more_players(dice, tournament, league, bob)
    with CaptureQueriesContext(connection) as seven:
        assert client.get(url).status_code == 200
    assert len(seven) == len(three), [query["sql"] for query in seven]
    for name, records in lists(client, tournament, league).items():
        assert records["extra3"]["timed_out"] == 1, name
