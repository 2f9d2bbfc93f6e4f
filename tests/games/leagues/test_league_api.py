"""Leagues over the REST API: list, create, read with the standings, sign up and withdraw;
each refusal in the one error shape, and nothing changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import League, LeagueEntry
from tests.games.api.conftest import assert_error, client_for
from tests.games.factories import make_user
from tests.games.leagues.helpers import award, make_league, pairings_of, start_season


def terms(**changes: Any) -> dict[str, Any]:
    return {
        "name": "API league",
        "season_days": 14,
        "division_size": 6,
        "match_length": 3,
        "time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": 2},
        "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        **changes,
    }


def test_a_moderator_creates_and_anyone_reads(moderator: Any) -> None:
    created = client_for(moderator).post("/api/leagues/", terms(), format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["created_by"] == "mod" and body["promoted"] == 2 and body["divisions"] == []
    assert body["current_season"] is None and body["next_season"]["number"] == 1
    listed = client_for(None).get("/api/leagues/").json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    assert client_for(None).get(f"/api/leagues/{body['id']}/").json()["name"] == "API league"


def test_bad_terms_and_players_are_refused_and_nothing_is_made(moderator: Any, alice: Any) -> None:
    assert_error(client_for(alice).post("/api/leagues/", terms(), format="json"), 403)
    refused = client_for(moderator).post("/api/leagues/", terms(division_size=11), format="json")
    assert "division_size" in assert_error(refused, 400, "invalid")["fields"]
    refused = client_for(moderator).post("/api/leagues/", terms(promoted=3), format="json")
    assert_error(refused, 400, "promoted")
    assert not League.objects.exists()
    assert_error(client_for(None).get("/api/leagues/999/"), 404)


def test_sign_up_withdraw_and_the_standings(moderator: Any) -> None:
    league = make_league(moderator)
    players = [make_user(f"api{n}") for n in range(4)]
    for player in players:
        answer = client_for(player).post(f"/api/leagues/{league.pk}/sign-up/")
        assert answer.status_code == 200, answer.content
    assert answer.json()["signed_up"] == ["api0", "api1", "api2", "api3"]
    assert_error(client_for(players[0]).post(f"/api/leagues/{league.pk}/sign-up/"), 400)
    gone = client_for(players[3]).post(f"/api/leagues/{league.pk}/withdraw/")
    assert gone.status_code == 200 and "api3" not in gone.json()["signed_up"]
    services.league_sign_up(league_id=league.pk, player=players[3])
    season = start_season(league)
    first = pairings_of(season)[0]
    award(first.match, first.first.player, moderator)

    body = client_for(None).get(f"/api/leagues/{league.pk}/").json()
    assert body["current_season"]["status"] == "running"
    assert body["next_season"]["number"] == 2 and len(body["signed_up"]) == 4
    (division,) = body["divisions"]
    assert division["level"] == 1 and len(division["results"]) == 6
    top = division["standings"][0]
    assert (top["player"], top["won"], top["played"], top["move"]) == (
        first.first.player.username,
        1,
        1,
        "",
    )
    counted = [result for result in division["results"] if result["outcome"] == "won"]
    assert counted == [
        {
            "match": first.match_id,
            "first": first.first.player.username,
            "second": first.second.player.username,
            "outcome": "won",
            "winner": first.first.player.username,
            "score": [1, 0],
        }
    ]
    # A season under way cannot be left: withdrawing now is from the next one.
    client_for(players[0]).post(f"/api/leagues/{league.pk}/withdraw/")
    assert LeagueEntry.objects.get(season=season, player=players[0]).withdrawn is False


def test_league_paths_are_in_the_schema() -> None:
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    for path in (
        "/api/leagues/",
        "/api/leagues/{league_id}/",
        "/api/leagues/{league_id}/sign-up/",
        "/api/leagues/{league_id}/withdraw/",
    ):
        assert path in paths
