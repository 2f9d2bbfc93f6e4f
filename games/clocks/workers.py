"""Whether the Celery workers are alive: each writes a heartbeat (backgammon_site/celery.py)
every WORKER_HEARTBEAT_EVERY seconds, for each kind of work it serves (settings.WORKER_QUEUES:
``urgent``, ``background``), and `manage.py health` fails once one is older than
HEALTH_WORKER_LATE seconds; and a worker that starts re-arms the live clocks' countdowns
(games/receivers.py), since those its predecessor held died with it."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.clocks.sweep import SWEEP_BATCH, start_countdown
from games.models import Heartbeat, Match

#: Seconds between two heartbeats of a worker.
WORKER_HEARTBEAT_EVERY = 10.0


def heartbeat_name(kind: str) -> str:
    return f"worker:{kind}"


def kinds_served(queues: Any) -> list[str]:
    """The kinds of worker (settings.WORKER_QUEUES) whose queues a worker serves, from its
    app's ``amqp.queues``: those it was told to take from (-Q), else every one it knows."""
    taken = set(queues.consume_from or queues)
    return [kind for kind, names in settings.WORKER_QUEUES.items() if taken & set(names)]


def worker_heartbeat(kinds: Iterable[str], now: datetime | None = None) -> None:
    """The worker serving ``kinds`` is alive now."""
    now = now or timezone.now()
    for kind in kinds:
        Heartbeat.objects.update_or_create(name=heartbeat_name(kind), defaults={"at": now})


def workers_last_seen() -> dict[str, datetime | None]:
    """When each kind of worker last said it was alive (None: never)."""
    names = {heartbeat_name(kind): kind for kind in settings.WORKER_QUEUES}
    seen: dict[str, datetime | None] = dict.fromkeys(settings.WORKER_QUEUES)
    for name, at in Heartbeat.objects.filter(name__in=names).values_list("name", "at"):
        seen[names[name]] = at
    return seen


def countdowns_rearmed(now: datetime | None = None) -> int:
    """Queue again the countdown of every active deadline within DEADLINE_COUNTDOWN_HORIZON
    (the live clocks', and any overdue): a worker that died took the countdowns it held with it,
    and the broker gives them back only after its visibility timeout. A countdown queued twice
    acts once."""
    now = now or timezone.now()
    horizon = timedelta(seconds=settings.DEADLINE_COUNTDOWN_HORIZON)
    near = Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now + horizon)
    rearmed = 0
    for match_id, seq, deadline in near.order_by("deadline").values_list("pk", "seq", "deadline")[
        :SWEEP_BATCH
    ]:
        start_countdown(match_id, seq, deadline)
        rearmed += 1
    return rearmed
