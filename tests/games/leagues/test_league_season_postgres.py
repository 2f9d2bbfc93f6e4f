"""A whole league season on PostgreSQL, as in production: sign-up, the minute sweep opening
the season, every match ended (by a moderator, and on time through the sweep), the season
closed by the task its last match queued, and the next season opened with promotion and
relegation. Commits are real (transaction=True), so the receivers and tasks run as deployed."""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone

from games import services
from games.clocks import sweep
from games.models import LeagueSeason, Match, Notification
from tests.games.factories import make_moderator
from tests.games.leagues.helpers import (
    award,
    division_names,
    make_league,
    pairings_of,
    rated_player,
)

pytestmark = [
    pytest.mark.skipif(
        "postgres" not in os.environ.get("DATABASE_URL", ""),
        reason="needs PostgreSQL (DATABASE_URL): the row locks and commits as deployed",
    ),
    pytest.mark.django_db(transaction=True),
]


# The two matches lost on time end matches here, as the sweep ends them; whose they are
# depends on the opening rolls, and a player who lost both (2 of 5) would be a dropper kept
# out of season 2. Droppers have their own tests (test_league_seasons_kept_clean.py).
@override_settings(DROPPER_LIMIT={"share": 0.9, "min_matches": 5, "days": 90})
def test_a_season_from_sign_up_to_promotion() -> None:
    moderator = make_moderator("commissioner")
    league = make_league(moderator, division_size=6, promoted=2)
    players = [rated_player(f"pg{n:02}", 2000 - 10 * n) for n in range(12)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season = league.seasons.get()
    LeagueSeason.objects.filter(pk=season.pk).update(starts_at=timezone.now())

    assert sweep.leagues_moved_on(timezone.now()) == 1
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.RUNNING
    assert division_names(season) == [
        [f"pg{n:02}" for n in range(6)],
        [f"pg{n:02}" for n in range(6, 12)],
    ]
    pairings = pairings_of(season)
    assert len(pairings) == 30
    news = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT_MATCH)
    assert news.count() == 12  # one for each player, of all their matches

    # Two matches are lost on time through the sweep; a moderator ends the rest. In each
    # division the lower-rated player wins, so each table is the ratings upside down.
    def underdog(pairing: Any) -> Any:
        return max((pairing.first.player, pairing.second.player), key=lambda p: p.username)

    timed_out = []
    for pairing in pairings[:2]:
        match = Match.objects.get(pk=pairing.match_id)
        if match.to_act != underdog(pairing):
            Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            timed_out.append(pairing)
    sweep.sweep()
    for pairing in pairings:
        match = Match.objects.get(pk=pairing.match_id)
        if match.status == Match.Status.ACTIVE:
            award(match, underdog(pairing), moderator)

    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.FINISHED
    moves = {
        entry.player.username: (entry.position, entry.move)
        for entry in season.entries.select_related("player")
    }
    assert moves["pg05"] == (1, "stay") and moves["pg04"] == (2, "stay")
    assert moves["pg01"] == (5, "down") and moves["pg00"] == (6, "down")
    assert moves["pg11"] == (1, "up") and moves["pg10"] == (2, "up")
    assert moves["pg06"] == (6, "stay")

    following = league.seasons.get(number=2)
    assert following.status == LeagueSeason.Status.RUNNING
    assert division_names(following) == [
        ["pg02", "pg03", "pg04", "pg05", "pg10", "pg11"],
        ["pg00", "pg01", "pg06", "pg07", "pg08", "pg09"],
    ]
    assert Match.objects.count() == 60
    assert services.league_advance(league_id=league.pk) == 0
    assert sweep.leagues_moved_on(timezone.now()) == 0
    assert Match.objects.count() == 60
