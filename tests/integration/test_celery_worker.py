"""Deadlines enforced by a real Celery worker on Redis, against PostgreSQL; and a worker killed
in the middle of a timeout that a new worker finishes, exactly once."""

from __future__ import annotations

import signal
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from games.log.integrity import log_problems
from games.models import Match
from tests.integration.conftest import (
    live_match_about_to_run_out,
    needs_postgres_and_redis,
    timeouts,
    wait_for,
)

pytestmark = [needs_postgres_and_redis, pytest.mark.django_db(transaction=True)]


def test_a_match_whose_deadline_passes_is_lost_on_time_within_seconds(broker, start_worker):
    start_worker()
    match = live_match_about_to_run_out(2)
    assert match.to_act is not None

    broker.send_task("games.tasks.enforce_deadline", args=(match.pk, match.seq), eta=match.deadline)

    finished = wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 20)
    assert finished, "the timeout was not applied"
    match.refresh_from_db()
    assert match.winner_id != match.to_act_id or match.to_act_id is None
    assert timezone.now() - match.finished_at < timedelta(seconds=15)
    assert timeouts(match) == 1
    assert log_problems(match) == []


def test_a_worker_killed_mid_timeout_leaves_it_to_the_next_worker_exactly_once(
    broker, start_worker, tmp_path
):
    marker = tmp_path / "died"
    first = start_worker(DIE_IN_TIMEOUT_MARKER=str(marker))
    match = live_match_about_to_run_out(1)
    loser = match.to_act_id

    broker.send_task("games.tasks.enforce_deadline", args=(match.pk, match.seq), eta=match.deadline)

    assert wait_for(lambda: first.poll() is not None, 30), "the first worker did not die"
    assert first.returncode == -signal.SIGKILL and marker.exists()
    assert Match.objects.get(pk=match.pk).status == "active"  # its transaction died with it
    assert timeouts(match) == 0

    start_worker(DIE_IN_TIMEOUT_MARKER=str(marker))
    assert wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 60)
    time.sleep(4)  # a redelivered copy, if any, has had its chance to act twice

    match.refresh_from_db()
    assert timeouts(match) == 1
    assert match.winner_id != loser
    assert log_problems(match) == []
