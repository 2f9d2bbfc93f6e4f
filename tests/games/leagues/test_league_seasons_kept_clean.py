"""Issue 37: seasons that stay clean (only players who may play go on, at every event's
start), a finished season's tables kept on the page and in the API, league points capped at
the match length, and one email per player at a season's start."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import LeagueEntry, LeagueSeason, Match, TournamentEntry
from tests.games.api.conftest import assert_error, client_for
from tests.games.factories import lose_on_time, make_user, win_by_award
from tests.games.leagues.helpers import (
    division_names,
    make_league,
    pairings_of,
    play_out,
    rated_player,
    start_season,
)

RUNNING = LeagueSeason.Status.RUNNING


def _next_season(league: Any, season: LeagueSeason, moderator: Any, capture: Any) -> LeagueSeason:
    """Play ``season`` out (the alphabetically first player wins): it closes and the next opens."""
    with capture(execute=True):
        play_out(season, moderator, lambda a, b: a.username < b.username)
    return league.seasons.get(number=season.number + 1)


def test_a_suspended_player_is_not_in_season_3(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = make_league(moderator)
    players = [rated_player(f"k{n}", 1500) for n in range(5)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season_1 = start_season(league)
    season_2 = _next_season(league, season_1, moderator, django_capture_on_commit_callbacks)
    assert season_2.status == RUNNING and len(division_names(season_2)[0]) == 5
    suspended = players[4]
    suspended.is_active = False
    suspended.save(update_fields=["is_active"])

    season_3 = _next_season(league, season_2, moderator, django_capture_on_commit_callbacks)
    assert season_3.status == RUNNING
    assert division_names(season_3) == [["k0", "k1", "k2", "k3"]]
    assert not any(suspended in (p.first.player, p.second.player) for p in pairings_of(season_3))
    assert LeagueEntry.objects.get(season=season_3, player=suspended).withdrawn is True
    # Nor is the suspended player carried into season 4's sign-up.
    season_4 = league.seasons.get(number=4)
    assert not season_4.entries.filter(player=suspended).exists()
    assert season_4.entries.count() == 4


def test_a_player_refused_as_a_dropper_is_not_in_the_next_season(
    dice: Any, moderator: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # d4 lost 3 of 5 matches on time: under a lenient limit still admitted to season 1.
    dropper, other = rated_player("d4", 1500), make_user("outsider")
    for _ in range(3):
        lose_on_time(dice, dropper, other)
    for _ in range(2):
        win_by_award(dice, dropper, other, moderator)
    dice.add_random(200, seed=37)
    settings.DROPPER_LIMIT = {"share": 0.9, "min_matches": 5, "days": 90}
    league = make_league(moderator)
    players = [rated_player(f"d{n}", 1500) for n in range(4)] + [dropper]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season_1 = start_season(league)
    assert len(division_names(season_1)[0]) == 5

    settings.DROPPER_LIMIT = {"share": 0.2, "min_matches": 5, "days": 90}
    assert services.dropper_refusal(dropper) is not None
    season_2 = _next_season(league, season_1, moderator, django_capture_on_commit_callbacks)
    assert division_names(season_2) == [["d0", "d1", "d2", "d3"]]
    assert LeagueEntry.objects.get(season=season_2, player=dropper).withdrawn is True


def test_a_knock_out_starts_without_a_suspended_player(moderator: Any) -> None:
    tournament = services.tournament_create(
        creator=moderator,
        name="Spring",
        size=8,
        start_mode="at_time",
        starts_at=timezone.now() + timedelta(hours=1),
        match_length=1,
    )
    players = [make_user(f"ko{n}") for n in range(5)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    players[2].is_active = False
    players[2].save(update_fields=["is_active"])

    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.RUNNING
    seeded = TournamentEntry.objects.filter(tournament=tournament, seed__isnull=False)
    assert sorted(entry.player.username for entry in seeded) == ["ko0", "ko1", "ko3", "ko4"]
    assert not Match.objects.filter(first_player=players[2]).exists()
    assert not Match.objects.filter(second_player=players[2]).exists()
    assert TournamentEntry.objects.get(tournament=tournament, player=players[2]).withdrawn


def test_a_knock_out_due_with_too_few_players_who_may_play_is_cancelled(moderator: Any) -> None:
    tournament = services.tournament_create(
        creator=moderator,
        name="Small",
        size=4,
        start_mode="at_time",
        starts_at=timezone.now() + timedelta(hours=1),
    )
    players = [make_user(f"sm{n}") for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    players[0].is_active = False
    players[0].save(update_fields=["is_active"])
    assert services.tournament_start(tournament_id=tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.CANCELLED
    assert not Match.objects.exists()


def test_season_1s_table_is_shown_after_season_2_opens(
    client: Any, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = make_league(moderator)
    for n in range(4):
        services.league_sign_up(league_id=league.pk, player=rated_player(f"h{n}", 1500))
    season_1 = start_season(league)
    season_2 = _next_season(league, season_1, moderator, django_capture_on_commit_callbacks)
    assert season_2.status == RUNNING

    league_page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert f'href="/leagues/{league.pk}/seasons/1/"' in league_page
    page = client.get(f"/leagues/{league.pk}/seasons/1/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-season="1"' in html and 'data-season-status="finished"' in html
    assert 'data-standing="h0" data-position="1"' in html
    assert 'data-standing="h3" data-position="4"' in html
    assert client.get(f"/leagues/{league.pk}/seasons/9/").status_code == 404

    answer = client_for(None).get(f"/api/leagues/{league.pk}/seasons/1/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["number"] == 1 and body["status"] == "finished"
    standings = body["divisions"][0]["standings"]
    assert [line["player"] for line in standings] == ["h0", "h1", "h2", "h3"]
    assert [line["position"] for line in standings] == [1, 2, 3, 4]
    assert [line["won"] for line in standings] == [3, 2, 1, 0]
    assert {line["move"] for line in standings} == {"stay"}
    assert len(body["divisions"][0]["results"]) == 6
    assert_error(client_for(None).get(f"/api/leagues/{league.pk}/seasons/9/"), 404)
    assert_error(client_for(None).get("/api/leagues/99999/seasons/1/"), 404)


def test_a_season_signing_up_has_no_tables_to_show(client: Any, moderator: Any) -> None:
    league = make_league(moderator)
    assert client.get(f"/leagues/{league.pk}/seasons/1/").status_code == 404
    assert_error(client_for(None).get(f"/api/leagues/{league.pk}/seasons/1/"), 404)


def test_the_season_path_is_in_the_schema() -> None:
    schema = client_for(None).get("/api/schema/", {"format": "json"}).json()
    assert "/api/leagues/{league_id}/seasons/{number}/" in schema["paths"]
