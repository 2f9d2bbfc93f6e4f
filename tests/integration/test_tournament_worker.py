"""A knock-out advanced by a real Celery worker on Redis, against PostgreSQL: a worker killed in
the middle of an advance leaves it to the next worker, and the round advances exactly once."""

from __future__ import annotations

import signal
import time

import pytest

from games import services
from games.models import BracketMatch, Match, Tournament
from tests.games.factories import make_moderator, make_user
from tests.integration.conftest import needs_postgres_and_redis, wait_for

pytestmark = [needs_postgres_and_redis, pytest.mark.django_db(transaction=True)]


def final_of(tournament: Tournament) -> BracketMatch:
    return BracketMatch.objects.get(tournament=tournament, round=2, slot=0)


def test_a_worker_killed_mid_advance_leaves_it_to_the_next_worker_exactly_once(
    own_redis, publish_to, start_worker, tmp_path
):
    own_redis.start()
    publish_to(own_redis.url)  # the match's end queues the advance on Redis, as the web does
    organiser = make_moderator("organiser")
    tournament = services.tournament_create(
        creator=organiser,
        name="Night knock-out",
        size=4,
        start_mode="when_full",
        match_length=1,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 0},
    )
    players = [make_user(f"k{n}") for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    semi_finals = list(
        BracketMatch.objects.filter(tournament=tournament, round=1).select_related("first")
    )
    assert Match.objects.count() == 2

    marker = tmp_path / "died"
    first = start_worker(
        "-Q", "urgent", CELERY_BROKER_URL=own_redis.url, DIE_IN_ADVANCE_MARKER=str(marker)
    )
    for pairing in semi_finals:
        services.match_award(
            match_id=pairing.match_id,
            moderator=organiser,
            winner=pairing.first.player,
            reason="the test decides",
        )

    assert wait_for(lambda: first.poll() is not None, 40), "the first worker did not die"
    assert first.returncode == -signal.SIGKILL and marker.exists()
    # Its transaction died with it: no final, and the semi-finals' winners not yet placed.
    assert Match.objects.count() == 2
    assert final_of(tournament).match_id is None

    start_worker("-Q", "urgent", CELERY_BROKER_URL=own_redis.url, DIE_IN_ADVANCE_MARKER=str(marker))
    assert wait_for(lambda: final_of(tournament).match_id is not None, 60), "no final was made"
    time.sleep(4)  # a redelivered copy, if any, has had its chance to act twice

    final = final_of(tournament)
    assert (final.first_id, final.second_id) == (semi_finals[0].first_id, semi_finals[1].first_id)
    assert Match.objects.count() == 3
    assert services.tournament_advance(tournament_id=tournament.pk) == 0
