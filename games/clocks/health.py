"""Whether time is being enforced: what `manage.py health` reports and judges."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Min
from django.utils import timezone

from games.clocks.sweep import HEARTBEAT, computer_turns_waiting, due_matches
from games.clocks.workers import workers_last_seen
from games.models import Heartbeat


@dataclass(frozen=True)
class TimeHealth:
    now: datetime
    sweep_ran_at: datetime | None
    overdue: int
    most_overdue: timedelta | None
    computer_waiting: int
    longest_computer_wait: timedelta | None
    #: When each kind of Celery worker (urgent, background) last said it was alive.
    workers_seen: dict[str, datetime | None]

    @property
    def sweep_late(self) -> bool:
        limit = timedelta(seconds=settings.HEALTH_SWEEP_LATE)
        return self.sweep_ran_at is None or self.now - self.sweep_ran_at > limit

    def problems(self) -> list[str]:
        """What is wrong, in words; empty when time is being enforced."""
        limit = timedelta(seconds=settings.HEALTH_OVERDUE)
        found = []
        if self.sweep_ran_at is None:
            found.append("the sweep has never run: is Celery beat running?")
        elif self.sweep_late:
            found.append(f"the sweep last ran {_words(self.now - self.sweep_ran_at)} ago")
        if self.most_overdue is not None and self.most_overdue > limit:
            found.append(f"a deadline is {_words(self.most_overdue)} overdue")
        if self.longest_computer_wait is not None and self.longest_computer_wait > limit:
            found.append(
                f"a computer opponent has let its turn wait {_words(self.longest_computer_wait)}"
            )
        worker_late = timedelta(seconds=settings.HEALTH_WORKER_LATE)
        for kind, seen in self.workers_seen.items():
            if seen is None:
                found.append(f"the {kind} worker has never said it is alive: is it running?")
            elif self.now - seen > worker_late:
                silent = _words(self.now - seen)
                found.append(f"the {kind} worker last said it was alive {silent} ago")
        return found


def time_health(now: datetime | None = None) -> TimeHealth:
    now = now or timezone.now()
    heartbeat = Heartbeat.objects.filter(name=HEARTBEAT).first()
    overdue = due_matches(now).aggregate(earliest=Min("deadline"))
    waiting = computer_turns_waiting(now).aggregate(earliest=Min("updated_at"))
    return TimeHealth(
        now=now,
        sweep_ran_at=heartbeat.at if heartbeat else None,
        overdue=due_matches(now).count(),
        most_overdue=now - overdue["earliest"] if overdue["earliest"] else None,
        computer_waiting=computer_turns_waiting(now).count(),
        longest_computer_wait=now - waiting["earliest"] if waiting["earliest"] else None,
        workers_seen=workers_last_seen(),
    )


def _words(duration: timedelta) -> str:
    seconds = int(duration.total_seconds())
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds // 60} min"
    return f"{seconds // 3600} h"
