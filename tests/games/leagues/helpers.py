"""What the league tests share: a league, rated players, and matches ended by a moderator."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import League, LeagueDivision, LeagueEntry, LeagueMatch, LeagueSeason, Match
from ratings.models import PlayerRating
from tests.games.factories import make_user

CORRESPONDENCE = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 0}


def rated_player(name: str, rating: float) -> Any:
    player = make_user(name, email=f"{name}@example.com")
    PlayerRating.objects.create(user=player, rating=rating, deviation=60, volatility=0.06)
    return player


def make_league(moderator: Any, **options: Any) -> League:
    values = {
        "name": "Tuesday league",
        "starts_at": timezone.now() + timedelta(hours=1),
        "season_days": 30,
        "division_size": 6,
        "match_length": 1,
        "time_control": CORRESPONDENCE,
        **options,
    }
    return services.league_create(creator=moderator, **values)


def start_season(league: League) -> LeagueSeason:
    """Open the season signing up now, as the sweep would at its start time."""
    season = league.seasons.get(status=LeagueSeason.Status.SIGNING_UP)
    services.league_advance(league_id=league.pk, now=season.starts_at)
    season.refresh_from_db()
    return season


def division_names(season: LeagueSeason) -> list[list[str]]:
    """Each division's players, top division first, by name."""
    return [
        sorted(entry.player.username for entry in division.entries.select_related("player"))
        for division in LeagueDivision.objects.filter(season=season).order_by("level")
    ]


def pairings_of(season: LeagueSeason) -> list[LeagueMatch]:
    return list(
        LeagueMatch.objects.filter(division__season=season)
        .select_related("match", "first__player", "second__player", "division")
        .order_by("pk")
    )


def award(match: Match, winner: Any, moderator: Any) -> None:
    services.match_award(match_id=match.pk, moderator=moderator, winner=winner, reason="test")


def play_out(season: LeagueSeason, moderator: Any, beats: Any) -> None:
    """End every match of a season, ``beats(a, b)`` saying whether player a beats b."""
    for pairing in pairings_of(season):
        first, second = pairing.first.player, pairing.second.player
        award(pairing.match, first if beats(first, second) else second, moderator)


def entry_of(season: LeagueSeason, name: str) -> LeagueEntry:
    return season.entries.select_related("division").get(player__username=name)
