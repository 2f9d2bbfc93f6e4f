"""Deadlines cannot slip unseen (issue 34, finding 6): beat sends again a sweep the broker
refused, `manage.py health` fails once either worker stops saying it is alive, and a worker
that starts re-arms the live clocks' countdowns."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from celery.signals import worker_ready
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from kombu.exceptions import OperationalError

from backgammon_site.beat import RetryingScheduler
from backgammon_site.celery import WorkerHeartbeat, app
from games import tasks
from games.clocks import sweep
from games.clocks.workers import heartbeat_name, worker_heartbeat, workers_last_seen
from games.models import Heartbeat, Match
from tests.games.factories import start_match

pytestmark = pytest.mark.django_db

LIVE = {"kind": "live", "minutes": 8, "increment_seconds": 10}


class FakeWorker:
    """Enough of a Celery worker (or its consumer) taking from ``queues``."""

    def __init__(self, *queues: str) -> None:
        consumed = {name: object() for name in queues}
        self.app = SimpleNamespace(
            amqp=SimpleNamespace(queues=SimpleNamespace(consume_from=consumed))
        )
        self.timer: Any = None


# --- health knows both workers ---


@pytest.fixture
def time_enforced() -> None:
    sweep.sweep()
    worker_heartbeat(["urgent", "background"])


def test_health_is_content_while_both_workers_say_they_are_alive(time_enforced, capsys):
    call_command("health", "--no-broker")

    out = capsys.readouterr().out
    assert "urgent worker: alive 0 s ago" in out and "background worker: alive 0 s ago" in out
    assert out.endswith("healthy\n")


@pytest.mark.parametrize("kind", ["urgent", "background"])
def test_health_exits_1_when_a_workers_heartbeat_is_older_than_a_minute(time_enforced, kind):
    Heartbeat.objects.filter(name=heartbeat_name(kind)).update(
        at=timezone.now() - timedelta(seconds=61)
    )

    with pytest.raises(CommandError, match=f"the {kind} worker last said it was alive") as failure:
        call_command("health", "--no-broker")
    assert failure.value.returncode == 1


def test_health_fails_while_a_worker_has_never_said_it_is_alive(capsys):
    sweep.sweep()
    worker_heartbeat(["urgent"])

    with pytest.raises(CommandError, match="the background worker has never said it is alive"):
        call_command("health", "--no-broker")
    assert "background worker: never seen" in capsys.readouterr().out


def test_health_fails_within_a_minute_of_a_worker_dying(settings):
    from games.clocks.workers import WORKER_HEARTBEAT_EVERY

    assert settings.HEALTH_WORKER_LATE + WORKER_HEARTBEAT_EVERY <= 60


def test_a_worker_says_it_is_alive_for_the_kinds_its_queues_serve(monkeypatch):
    # (closing the worker's stale connection would close the test's transaction)
    monkeypatch.setattr("django.db.close_old_connections", lambda: None)
    repeated = []
    worker = FakeWorker("email", "analysis", "celery")
    worker.timer = SimpleNamespace(call_repeatedly=lambda *args: repeated.append(args))
    step = WorkerHeartbeat(worker)

    step.start(worker)

    seen = workers_last_seen()
    assert seen["background"] is not None and seen["urgent"] is None
    ((every, beat, arguments),) = repeated
    assert every == 10.0 and arguments == (["background"],)
    Heartbeat.objects.all().delete()
    beat(*arguments)
    assert workers_last_seen()["background"] is not None


def test_the_heartbeat_step_is_in_every_worker():
    assert WorkerHeartbeat in app.steps["worker"]


# --- beat sends again what the broker refused ---


@pytest.fixture
def scheduler(tmp_path) -> RetryingScheduler:
    scheduler = RetryingScheduler(app=app, schedule_filename=str(tmp_path / "beat"))
    scheduler.__dict__["producer"] = None  # no broker connection of its own
    return scheduler


def test_beat_uses_the_retrying_scheduler():
    assert app.conf.beat_scheduler == "backgammon_site.beat:RetryingScheduler"


def test_a_sweep_that_meets_a_broker_error_is_sent_again(scheduler, monkeypatch, caplog):
    sent: list[str] = []
    broker = {"up": False}

    def apply_async(self: Any, *args: Any, **options: Any) -> None:
        if not broker["up"]:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append(self.name)

    monkeypatch.setattr("celery.app.task.Task.apply_async", apply_async)
    entry = scheduler.schedule["sweep-deadlines"]

    scheduler.apply_entry(entry)
    assert sent == []
    assert "Beat could not send sweep-deadlines" in caplog.text
    # While the broker is away beat comes back within seconds, not at the next sweep.
    assert scheduler.tick() <= 5.0
    assert sent == []

    broker["up"] = True
    scheduler.tick()
    assert sent[:1] == ["games.tasks.sweep_deadlines"]
    assert scheduler.unsent == {}
    sent.clear()
    scheduler.tick()
    assert "games.tasks.sweep_deadlines" not in sent  # sent once, not again and again


# --- a worker that starts re-arms the live clocks ---


@pytest.fixture
def countdowns(monkeypatch) -> list[tuple[Any, Any]]:
    queued: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        tasks.enforce_deadline,
        "apply_async",
        lambda args, **options: queued.append((args, options)),
    )
    return queued


def test_an_urgent_worker_that_starts_rearms_a_live_clocks_timeout(dice, alice, bob, countdowns):
    dice.add(3, 1)
    live = start_match(alice, bob, time_control=LIVE)
    dice.add(3, 1)
    correspondence = start_match(bob, alice)
    countdowns.clear()

    worker_ready.send(sender=FakeWorker("urgent"))

    assert countdowns == [((live.pk, live.seq), {"eta": live.deadline})]
    assert Match.objects.get(pk=correspondence.pk).deadline > timezone.now() + timedelta(hours=1)


def test_a_background_worker_that_starts_leaves_the_clocks_to_the_urgent_one(
    dice, alice, bob, countdowns
):
    dice.add(3, 1)
    start_match(alice, bob, time_control=LIVE)
    countdowns.clear()

    worker_ready.send(sender=FakeWorker("email", "analysis", "celery"))

    assert countdowns == []
