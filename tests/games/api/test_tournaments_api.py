"""Tournaments over the REST API: list, create, read with the bracket, sign up, withdraw; each
refusal in the one error shape, and nothing changed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import Tournament, TournamentEntry
from ratings.models import PlayerRating
from tests.games.api.conftest import assert_error
from tests.games.factories import make_user

TERMS = {
    "name": "API cup",
    "size": 4,
    "start_mode": "when_full",
    "match_length": 3,
    "time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": 2},
}


def entries() -> list[tuple[int, bool]]:
    return sorted(TournamentEntry.objects.values_list("player_id", "withdrawn"))


def test_a_moderator_creates_and_anyone_reads(clients: Any, moderator: Any) -> None:
    created = clients(moderator).post("/api/tournaments/", TERMS, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["status"] == "signing_up" and body["players"] == 0 and body["bracket"] == []
    assert body["created_by"] == "mod" and body["time_control"]["reserve_days"] == 2
    listed = clients(None).get("/api/tournaments/").json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    assert clients(None).get("/api/tournaments/?status=running").json()["results"] == []
    assert clients(None).get(f"/api/tournaments/{body['id']}/").json()["name"] == "API cup"


def test_sign_up_until_full_then_the_bracket(clients: Any, moderator: Any) -> None:
    tournament = services.tournament_create(creator=moderator, **TERMS)
    players = [make_user(f"a{n}") for n in range(4)]
    for player in players:
        answer = clients(player).post(f"/api/tournaments/{tournament.pk}/sign-up/")
        assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["status"] == "running"
    assert [entrant["seed"] for entrant in body["entrants"]] == [1, 2, 3, 4]
    first_round = [pairing for pairing in body["bracket"] if pairing["round"] == 1]
    assert [(p["first"], p["second"]) for p in first_round] == [("a0", "a3"), ("a1", "a2")]
    assert all(pairing["match"] is not None for pairing in first_round)
    final = body["bracket"][-1]
    assert final["round"] == 2 and final["first"] is None and final["match"] is None


def test_withdraw_before_the_start(clients: Any, moderator: Any, alice: Any) -> None:
    tournament = services.tournament_create(creator=moderator, **TERMS)
    client = clients(alice)
    client.post(f"/api/tournaments/{tournament.pk}/sign-up/")
    answer = client.post(f"/api/tournaments/{tournament.pk}/withdraw/")
    assert answer.status_code == 200 and answer.json()["players"] == 0


def test_a_player_cannot_create_one_where_not_allowed(clients: Any, alice: Any) -> None:
    answer = clients(alice).post("/api/tournaments/", TERMS, format="json")
    assert_error(answer, 403, "forbidden")
    assert not Tournament.objects.exists()


def test_bad_terms_are_refused(clients: Any, moderator: Any) -> None:
    answer = clients(moderator).post("/api/tournaments/", {**TERMS, "size": 2}, format="json")
    assert_error(answer, 400, "invalid")
    answer = clients(moderator).post(
        "/api/tournaments/", {**TERMS, "min_rating": 1900, "max_rating": 1800}, format="json"
    )
    assert_error(answer, 400, "rating_limits")
    assert not Tournament.objects.exists()


def test_refusals_of_sign_up_and_withdrawal(clients: Any, moderator: Any) -> None:
    limited = services.tournament_create(
        creator=moderator,
        **{**TERMS, "start_mode": "at_time"},
        starts_at=timezone.now() + timedelta(days=1),
        min_rating=1600,
    )
    low = make_user("low")
    PlayerRating.objects.create(user=low, rating=1550, deviation=60, volatility=0.06)
    before = entries()
    answer = clients(low).post(f"/api/tournaments/{limited.pk}/sign-up/")
    assert "outside" in assert_error(answer, 400, "rating_outside_limits")["message"]
    assert entries() == before

    full = services.tournament_create(creator=moderator, **TERMS)
    players = [make_user(f"f{n}") for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=full.pk, player=player)
    before = entries()
    late = clients(make_user("late"))
    assert_error(late.post(f"/api/tournaments/{full.pk}/sign-up/"), 400, "tournament_started")
    answer = clients(players[0]).post(f"/api/tournaments/{full.pk}/withdraw/")
    assert_error(answer, 400, "tournament_started")
    assert entries() == before
    assert_error(clients(None).post(f"/api/tournaments/{full.pk}/sign-up/"), 401)
    assert_error(clients(players[0]).get("/api/tournaments/999999/"), 404, "not_found")


def test_a_swiss_is_created_with_its_rounds_and_read_with_its_standings(
    clients: Any, moderator: Any
) -> None:
    created = clients(moderator).post(
        "/api/tournaments/", {**TERMS, "format": "swiss", "rounds": 2}, format="json"
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert (body["format"], body["rounds"], body["standings"]) == ("swiss", 2, [])
    for n in range(4):
        services.tournament_sign_up(tournament_id=body["id"], player=make_user(f"w{n}"))
    read = clients(None).get(f"/api/tournaments/{body['id']}/").json()
    assert read["status"] == "running"
    assert [(p["part"], p["round"]) for p in read["bracket"]] == [("main", 1), ("main", 1)]
    assert [line["position"] for line in read["standings"]] == [1, 2, 3, 4]
    assert all(line["buchholz"] == 0 and line["played"] == 0 for line in read["standings"])


def test_a_bad_format_or_rounds_is_refused(clients: Any, moderator: Any) -> None:
    client = clients(moderator)
    answer = client.post("/api/tournaments/", {**TERMS, "format": "ladder"}, format="json")
    assert_error(answer, 400)
    answer = client.post("/api/tournaments/", {**TERMS, "rounds": 2}, format="json")
    assert_error(answer, 400, "rounds")
    answer = client.post(
        "/api/tournaments/", {**TERMS, "format": "swiss", "rounds": 4}, format="json"
    )
    assert_error(answer, 400, "rounds")
    assert not Tournament.objects.exists()
