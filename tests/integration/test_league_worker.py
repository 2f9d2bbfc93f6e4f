"""A league advanced by a real Celery worker on Redis, against PostgreSQL: a worker killed in
the middle of opening the next season leaves it to the next worker, and the season closes and
the next one opens exactly once."""

from __future__ import annotations

import signal
import time

import pytest

from games import services
from games.models import LeagueMatch, LeagueSeason, Match
from tests.games.factories import make_moderator, make_user
from tests.games.leagues.helpers import make_league, pairings_of, start_season
from tests.integration.conftest import needs_postgres_and_redis, wait_for

pytestmark = [needs_postgres_and_redis, pytest.mark.django_db(transaction=True)]


def season_status(league_id: int, number: int) -> str | None:
    return (
        LeagueSeason.objects.filter(league_id=league_id, number=number)
        .values_list("status", flat=True)
        .first()
    )


def test_a_worker_killed_mid_advance_leaves_it_to_the_next_worker_exactly_once(
    own_redis, publish_to, start_worker, tmp_path
):
    organiser = make_moderator("commissioner")
    league = make_league(organiser)
    players = [make_user(f"l{n}") for n in range(4)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season = start_season(league)
    pairings = pairings_of(season)
    assert Match.objects.count() == 6

    own_redis.start()
    publish_to(own_redis.url)  # each match's end queues the advance on Redis, as the web does
    marker = tmp_path / "died"
    first = start_worker(
        "-Q", "urgent", CELERY_BROKER_URL=own_redis.url, DIE_IN_LEAGUE_MARKER=str(marker)
    )
    for pairing in pairings:
        services.match_award(
            match_id=pairing.match_id,
            moderator=organiser,
            winner=pairing.first.player,
            reason="the test decides",
        )

    assert wait_for(lambda: first.poll() is not None, 40), "the first worker did not die"
    assert first.returncode == -signal.SIGKILL and marker.exists()
    # Its transaction died with it: season 1 still running, no season 2 match.
    assert season_status(league.pk, 1) == LeagueSeason.Status.RUNNING
    assert season_status(league.pk, 2) == LeagueSeason.Status.SIGNING_UP
    assert Match.objects.count() == 6

    start_worker("-Q", "urgent", CELERY_BROKER_URL=own_redis.url, DIE_IN_LEAGUE_MARKER=str(marker))
    assert wait_for(lambda: season_status(league.pk, 2) == LeagueSeason.Status.RUNNING, 60), (
        "season 2 did not open"
    )
    time.sleep(4)  # a redelivered copy, if any, has had its chance to act twice

    assert season_status(league.pk, 1) == LeagueSeason.Status.FINISHED
    assert Match.objects.count() == 12
    assert LeagueMatch.objects.filter(division__season__number=2).count() == 6
    assert LeagueSeason.objects.filter(league=league).count() == 3
    assert services.league_advance(league_id=league.pk) == 0
