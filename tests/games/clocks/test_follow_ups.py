"""Nothing is lost when the broker is: an action whose follow-up cannot be queued still
succeeds, and the minute sweep sends what waited too long again; `manage.py health` says when
time is not being enforced."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import services, tasks
from games.clocks import sweep
from games.clocks.workers import worker_heartbeat
from games.computer.analysis import lost_analyses_requested_again
from games.models import Challenge, Heartbeat, Match, MatchAnalysis, Notification
from tests.games.computer.conftest import bot
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every task queued fails as with Redis unreachable; returns the tasks tried."""
    tried: list[str] = []

    def unreachable(self: Any, args: Any = None, kwargs: Any = None, **options: Any) -> None:
        tried.append(self.name)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("celery.app.task.Task.apply_async", unreachable)
    return tried


def test_a_move_against_the_computer_with_the_broker_down_is_kept(
    alice: Any, dice: Any, broker_down: list[str], django_capture_on_commit_callbacks: Any, caplog
) -> None:
    dice.add(3, 1)  # alice starts
    match = start_match(alice, bot("BeginnerBot"))
    dice.add(6, 5)
    with django_capture_on_commit_callbacks(execute=True):
        moved = act(match, alice, "move", play="8/5 6/5")
    assert moved.seq > match.seq and moved.to_act == bot("BeginnerBot")
    assert "games.tasks.bot_act" in broker_down
    assert "left to the sweep" in caplog.text


def test_the_sweep_reminds_the_computer_of_a_turn_left_waiting(
    alice: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice.add(3, 1)
    beginner = bot("BeginnerBot")
    match = start_match(alice, beginner)
    dice.add(6, 5)
    match = act(match, alice, "move", play="8/5 6/5")  # on_commit never runs: the task is lost
    assert match.to_act == beginner
    reminded: list[tuple[int, int]] = []
    monkeypatch.setattr(tasks.bot_act, "apply_async", lambda args, **_: reminded.append(args))

    sweep.sweep()
    assert reminded == []  # under a minute: its task may still be on its way

    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    sweep.sweep()
    assert reminded == [(match.pk, match.seq)]


def test_the_sweep_has_the_computer_answer_a_challenge_left_open(
    alice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    challenge = services.challenge_create(challenger=alice, opponent=bot("ExpertBot"))
    Challenge.objects.filter(pk=challenge.pk).update(
        created_at=timezone.now() - timedelta(minutes=2)
    )
    reminded: list[tuple[int]] = []
    monkeypatch.setattr(
        tasks.bot_accept_challenge, "apply_async", lambda args, **_: reminded.append(args)
    )
    sweep.sweep()
    assert reminded == [(challenge.pk,)]


def test_the_sweep_sends_news_left_unsent_once(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.NOTIFICATION_DELAY = 300
    now = timezone.now()
    news = Notification.objects.create(
        user=alice,
        kind=Notification.Kind.YOUR_TURN,
        key="your_turn:match:1:turn:1",
        delivery=Notification.Delivery.IMMEDIATELY,
        created_at=now - timedelta(minutes=11),
    )
    sent: list[tuple[int]] = []
    monkeypatch.setattr(tasks.send_notification, "apply_async", lambda args, **_: sent.append(args))
    Heartbeat.objects.create(name="sweep", at=now - timedelta(minutes=1, seconds=30))

    sweep.sweep(now)
    sweep.sweep(now + timedelta(minutes=1))
    assert sent == [(news.pk,)]


def test_the_sweep_leaves_news_waiting_out_its_delay_alone(
    alice: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """News held back NOTIFICATION_DELAY seconds is not taken for lost before the delay and
    NEWS_PATIENCE have both passed."""
    settings.NOTIFICATION_DELAY = 300
    now = timezone.now()
    Notification.objects.create(
        user=alice,
        kind=Notification.Kind.YOUR_TURN,
        key="your_turn:match:1:turn:1",
        delivery=Notification.Delivery.IMMEDIATELY,
        created_at=now - timedelta(minutes=9),
    )
    sent: list[tuple[int]] = []
    monkeypatch.setattr(tasks.send_notification, "apply_async", lambda args, **_: sent.append(args))
    Heartbeat.objects.create(name="sweep", at=now - timedelta(minutes=1))

    sweep.sweep(now)
    assert sent == []


def test_an_analysis_lost_with_its_task_is_asked_for_again(
    dice: Any,
    alice: Any,
    bob: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    match = act(match, alice, "resign", points=1)
    match = act(match, bob, "accept_resign")
    MatchAnalysis.objects.create(match=match, requested_at=timezone.now() - timedelta(hours=1))
    queued: list[tuple[int]] = []
    monkeypatch.setattr(tasks.analyse_match, "apply_async", lambda args, **_: queued.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        assert lost_analyses_requested_again() == 1
        assert lost_analyses_requested_again() == 0  # asked again just now
    assert queued == [(match.pk,)]


def test_health_fails_until_the_sweep_has_run_and_names_what_is_overdue(
    alice: Any, bob: Any, capsys: Any
) -> None:
    worker_heartbeat(["urgent", "background"])
    with pytest.raises(CommandError, match="the sweep has never run"):
        call_command("health", "--no-broker")

    sweep.sweep()
    call_command("health", "--no-broker")
    assert capsys.readouterr().out.splitlines()[-1] == "healthy"

    match = start_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(minutes=5))
    with pytest.raises(CommandError, match="a deadline is 5 min overdue") as failure:
        call_command("health", "--no-broker")
    assert failure.value.returncode == 1
    assert "deadlines overdue: 1" in capsys.readouterr().out

    Heartbeat.objects.filter(name="sweep").update(at=timezone.now() - timedelta(minutes=4))
    with pytest.raises(CommandError, match="the sweep last ran 4 min ago"):
        call_command("health", "--no-broker")


def test_health_reads_the_queues_of_the_embedded_broker(capsys: Any) -> None:
    sweep.sweep()
    worker_heartbeat(["urgent", "background"])
    call_command("health")
    out = capsys.readouterr().out
    assert "broker: reachable; tasks waiting: urgent" in out and out.endswith("healthy\n")
