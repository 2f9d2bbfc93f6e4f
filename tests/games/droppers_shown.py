"""What the tests of droppers on sign-up lists and the leaderboard share: a tournament and a
league signing up, and established ratings, with alice a dropper (the ``dropper`` fixture:
2 of 5 lost on time), bob a player who lost none of his 5 and carol one with no match."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services
from games.models import League, LeagueEntry, LeagueSeason, Tournament, TournamentEntry
from ratings.models import PlayerRating
from tests.games.factories import lose_on_time, make_user

CORRESPONDENCE = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 0}


def open_tournament(moderator: Any) -> Tournament:
    return services.tournament_create(
        creator=moderator,
        name="Winter knock-out",
        size=32,
        start_mode="when_full",
        match_length=3,
        time_control=CORRESPONDENCE,
    )


def open_league(moderator: Any) -> League:
    return services.league_create(
        creator=moderator,
        name="Thursday league",
        starts_at=timezone.now() + timedelta(days=1),
        season_days=30,
        division_size=8,
        match_length=1,
        time_control=CORRESPONDENCE,
    )


def signing_up(league: League) -> LeagueSeason:
    return league.seasons.get(status=LeagueSeason.Status.SIGNING_UP)


def enter(tournament: Tournament, league: League, player: Any) -> None:
    """Sign ``player`` up for both and rate them established. A dropper is refused sign-up,
    so their entries are written as if they had signed up before their timeouts."""
    if services.dropper_refusal(player) is None:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
        services.league_sign_up(league_id=league.pk, player=player)
    else:
        TournamentEntry.objects.create(tournament=tournament, player=player)
        LeagueEntry.objects.create(season=signing_up(league), player=player)
    PlayerRating.objects.update_or_create(
        user=player,
        variant="backgammon",
        defaults={
            "rating": 1500 + 10 * player.pk,
            "deviation": 60,
            "volatility": 0.06,
            "rated_matches": 20,
            "last_rated_at": timezone.now(),
        },
    )


def more_players(dice: Any, tournament: Tournament, league: League, opponent: Any) -> None:
    """Four more players in both, each with one match lost on time."""
    for index in range(4):
        player = make_user(f"extra{index}")
        lose_on_time(dice, player, opponent)
        enter(tournament, league, player)
