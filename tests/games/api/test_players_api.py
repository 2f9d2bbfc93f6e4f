"""GET /api/players/<username>/: a player's rating and record of timeouts; and a dropper's
open challenge refused in the API's one error shape, with nothing written."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.api.conftest import assert_error, footprint
from tests.games.factories import lose_on_time
from tests.ratings.conftest import won_by_resignation

pytestmark = pytest.mark.django_db


def test_a_players_timeouts(clients: Any, dice: Any, alice: Any, bob: Any) -> None:
    lose_on_time(dice, alice, bob)
    body = clients(None).get("/api/players/alice/").json()
    assert body["username"] == "alice"
    assert body["timeouts"] == {
        "matches": 1,
        "timed_out": 1,
        "percent": 100,
        "days": 90,
        "text": "Timed out: 1 of 1 match (100%) in the last 90 days",
        "above_limit": False,
    }
    assert clients(None).get("/api/players/bob/").json()["timeouts"]["timed_out"] == 0


def test_an_unknown_player_is_not_found(clients: Any, db: Any) -> None:
    assert_error(clients(None).get("/api/players/nobody/"), 404, "not_found")


def test_a_dropper_is_refused_an_open_challenge(clients: Any, dropper: Any) -> None:
    assert clients(None).get("/api/players/alice/").json()["timeouts"]["above_limit"] is True
    before = footprint()
    response = clients(dropper).post(
        "/api/challenges/", {"opponent": None, "match_length": 3}, format="json"
    )
    body = assert_error(response, 403, "too_many_timeouts")
    assert "This lifts on" in body["message"]
    assert footprint() == before


def test_a_players_ratings_one_per_variant_played_rated(
    clients: Any, dice: Any, alice: Any, bob: Any
) -> None:
    assert clients(None).get("/api/players/alice/").json()["ratings"] == []
    won_by_resignation(dice, alice, bob)
    (rating,) = clients(None).get("/api/players/alice/").json()["ratings"]
    assert rating["variant"] == "backgammon"
    assert rating["rated_matches"] == 1
    assert rating["rating"] > 1500
