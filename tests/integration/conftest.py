"""Real Celery workers on Redis against the PostgreSQL test database, as in production.

Each test's workers use a Redis database of their own (``broker``), or a Redis server of their
own that the test stops and starts (``own_redis``).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
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
from kombu import pools as kombu_pools

from backgammon_site.celery import app
from games.models import Match, MatchEvent
from tests.conftest import REPO_ROOT
from tests.games.factories import make_user, start_match
from tests.parallel import redis_database_moved

BROKER = os.environ.get("CELERY_BROKER_URL", "")
#: The Celery workers' broker: the Redis database beside this test process's own (its broker's
#: number + 2, a slot tests/parallel.py leaves free in each worker's four), so that two test
#: processes running integration tests at once never share (or empty) each other's queue.
WORKER_BROKER = redis_database_moved(BROKER, 2) if BROKER.startswith("redis://") else ""
LIVE = {"kind": "live", "minutes": 8, "increment_seconds": 10}

needs_postgres_and_redis = pytest.mark.skipif(
    not WORKER_BROKER or "postgres" not in os.environ.get("DATABASE_URL", ""),
    reason="needs PostgreSQL and Redis (DATABASE_URL and CELERY_BROKER_URL), as in CI",
)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Celery]:
    """A client of the workers' broker (its own Redis database, emptied first)."""
    import redis

    redis.Redis.from_url(WORKER_BROKER).flushdb()
    monkeypatch.setenv("CELERY_BROKER_URL", WORKER_BROKER)  # Celery prefers it to broker=
    # Not the current app: the tasks this process queues stay the service's.
    client = Celery("integration-test", broker=WORKER_BROKER, set_as_current=False)
    yield client
    client.close()


class RedisServer:
    """A Redis server of the test's own, on a free port, that it can stop and start again.
    Like CI's, it keeps nothing on disk: a restart loses every queued task."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "redis-server", "--port", str(self.port)]
            + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
            + ["--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
        )
        assert wait_for(self.answers, 10), "the test's Redis did not start"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping())
        except redis.ConnectionError:
            return False


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on the PATH to stop and start a Redis of its own")
    server = RedisServer(tmp_path)
    yield server
    server.stop()


@pytest.fixture
def publish_to(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Make this test process queue tasks on a real broker instead of running them in place,
    as the web process does."""

    def publish(url: str) -> None:
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        monkeypatch.setitem(app.conf, "task_always_eager", False)
        monkeypatch.setitem(app.conf, "broker_url", url)
        _forget_connections()

    yield publish
    _forget_connections()


def _forget_connections() -> None:
    """Close this process's broker connections and forget their pools, here and in kombu's
    global groups: a closed pool kept there would refuse the next task queued to that broker."""
    closed = app._pool
    if closed is not None:
        closed.force_close_all()
        for key, pool in list(kombu_pools.connections.items()):
            if pool is closed:
                dict.__delitem__(kombu_pools.connections, key)
        for key, pool in list(kombu_pools.producers.items()):
            if pool.connections is closed:
                dict.__delitem__(kombu_pools.producers, key)
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def start_worker(tmp_path: Path) -> Iterator[Callable[..., subprocess.Popen[str]]]:
    """Start a Celery worker process on the test database; all are stopped at the end.

    ``start(*arguments, **env)``: more worker arguments (e.g. "-B", "-Q", "urgent"), and
    environment variables over the defaults (the workers' broker, a quick redelivery).
    """
    workers: list[subprocess.Popen[str]] = []
    database = connection.settings_dict
    database_url = (
        f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    )

    def start(*arguments: str, **env: str) -> subprocess.Popen[str]:
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
                f"--hostname=worker{len(workers)}@%h",
                *arguments,
            ],
            cwd=REPO_ROOT,
            env={
                **os.environ,
                "DATABASE_URL": database_url,
                "CELERY_BROKER_URL": WORKER_BROKER,
                "CELERY_TASK_ALWAYS_EAGER": "0",
                "CELERY_VISIBILITY_TIMEOUT": "3",
                "CELERY_RESTORE_INTERVAL": "1",
                "DJANGO_VAR_DIR": str(tmp_path / f"var-{len(workers)}"),
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
        print(f"--- {path.name}\n{path.read_text()[-4000:]}")


def wait_for(condition: Callable[[], Any], seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.2)
    return condition()


def live_match_about_to_run_out(seconds: float, *names: str) -> Match:
    """A live match whose player to act has ``seconds`` left on the clock."""
    first, second = names or ("alice", "bob")
    match = start_match(make_user(first), make_user(second), time_control=LIVE)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() + timedelta(seconds=seconds))
    return Match.objects.get(pk=match.pk)


def timeouts(match: Match) -> int:
    return MatchEvent.objects.filter(match=match, kind="timeout").count()


def finished(match: Match) -> bool:
    return Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
