"""Deadlines enforced by a real Celery worker on Redis, against PostgreSQL; and a worker killed
in the middle of a timeout that a new worker finishes, exactly once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from django.db import connection
from django.utils import timezone

from games.log.integrity import log_problems
from games.models import Match, MatchEvent
from tests.conftest import REPO_ROOT
from tests.games.factories import make_user, start_match

BROKER = os.environ.get("CELERY_BROKER_URL", "")
WORKER_BROKER = BROKER.rsplit("/", 1)[0] + "/14" if BROKER.startswith("redis://") else ""
LIVE = {"kind": "live", "minutes": 8, "increment_seconds": 10}

pytestmark = [
    pytest.mark.skipif(
        not WORKER_BROKER or "postgres" not in os.environ.get("DATABASE_URL", ""),
        reason="needs PostgreSQL and Redis (DATABASE_URL and CELERY_BROKER_URL), as in CI",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Celery]:
    """A client of the workers' broker (its own Redis database, emptied first)."""
    import redis

    redis.Redis.from_url(WORKER_BROKER).flushdb()
    monkeypatch.setenv("CELERY_BROKER_URL", WORKER_BROKER)  # Celery prefers it to broker=
    client = Celery("integration-test", broker=WORKER_BROKER)
    yield client
    client.close()


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start a Celery worker process on the test database; all are stopped at the end."""
    workers: list[subprocess.Popen[str]] = []
    database = connection.settings_dict
    database_url = (
        f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    )

    def start(**env: str) -> subprocess.Popen[str]:
        log = open(tmp_path / f"worker-{len(workers)}.log", "w")  # noqa: SIM115
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "tests.integration.worker_app",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=REPO_ROOT,
            env={
                **os.environ,
                "DATABASE_URL": database_url,
                "CELERY_BROKER_URL": WORKER_BROKER,
                "CELERY_TASK_ALWAYS_EAGER": "0",
                "CELERY_VISIBILITY_TIMEOUT": "3",
                "CELERY_RESTORE_INTERVAL": "1",
                **env,
            },
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
    for path in sorted(tmp_path.glob("worker-*.log")):
        print(f"--- {path.name}\n{path.read_text()[-3000:]}")


def wait_for(condition: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.2)
    return condition()


def live_match_about_to_run_out(seconds: float) -> Match:
    """A live match whose player to act has ``seconds`` left on the clock."""
    match = start_match(make_user("alice"), make_user("bob"), time_control=LIVE)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))
    return Match.objects.get(pk=match.pk)


def timeouts(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, kind="timeout").count()


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
