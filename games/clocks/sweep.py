"""Enforcing time: the sweep that finds what is due, and the countdowns of live clocks.

The sweep (Celery beat, every minute) is the mechanism for deadlines hours or days away; a
countdown task is scheduled only for a deadline inside DEADLINE_COUNTDOWN_HORIZON, well within
the broker's visibility timeout (Redis redelivers a task whose ETA lies beyond it). Everything
here may run twice or late: games/services/ acts only on what is still due.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from accounts.models import Profile
from accounts.vacation import vacation_ends_at
from games import services
from games.models import Match
from games.signals import countdown_due

logger = logging.getLogger(__name__)

#: Deadlines this close when the sweep runs get a countdown task, so they are met to the second.
SWEEP_LOOKAHEAD = timedelta(seconds=90)

#: How many matches one sweep handles of each kind; the next sweep takes the rest.
SWEEP_BATCH = 500


@dataclass(frozen=True)
class SweepReport:
    timed_out: int
    warned: int
    countdowns: int
    vacations_ended: int


def due_matches(now: datetime) -> Any:
    """Active matches whose deadline has passed: an index range scan (match_deadline_due)."""
    return Match.objects.filter(status=Match.Status.ACTIVE, deadline__lte=now).order_by("deadline")


def sweep(now: datetime | None = None) -> SweepReport:
    """Apply every timeout that is due, warn of near deadlines, end used-up vacations, and
    start countdowns for the deadlines of the next minute and a half."""
    now = now or timezone.now()
    vacations_ended = 0
    on_vacation = Profile.objects.filter(vacation_started_at__isnull=False).select_related("user")
    for profile in on_vacation[:SWEEP_BATCH]:
        ends_at = vacation_ends_at(profile)
        if ends_at is not None and ends_at <= now:
            services.vacation_end(user=profile.user, at=ends_at)
            vacations_ended += 1
    timed_out = 0
    for match_id, seq in due_matches(now).values_list("pk", "seq")[:SWEEP_BATCH]:
        try:
            timed_out += services.match_timeout(match_id=match_id, seq=seq).timed_out
        except Exception:  # one broken match must not stop the sweep for the others
            logger.exception("timing out match %s failed", match_id)
    warned = 0
    warnings_due = Match.objects.filter(warn_at__lte=now).order_by("warn_at")
    for match_id in warnings_due.values_list("pk", flat=True)[:SWEEP_BATCH]:
        warned += services.match_warn_of_deadline(match_id=match_id)
    # A deadline set within the horizon already has its countdown (needs_countdown).
    horizon = timedelta(seconds=settings.DEADLINE_COUNTDOWN_HORIZON)
    soon = Match.objects.filter(
        status=Match.Status.ACTIVE, deadline__gt=now, deadline__lte=now + SWEEP_LOOKAHEAD
    ).filter(deadline__gt=F("updated_at") + horizon)
    countdowns = 0
    for match_id, seq, deadline in soon.values_list("pk", "seq", "deadline")[:SWEEP_BATCH]:
        start_countdown(match_id, seq, deadline)
        countdowns += 1
    return SweepReport(timed_out, warned, countdowns, vacations_ended)


def start_countdown(match_id: int, seq: int, deadline: datetime) -> None:
    """Have ``deadline`` enforced to the second: games/receivers.py queues the countdown task."""
    countdown_due.send(Match, match_id=match_id, seq=seq, deadline=deadline)


def needs_countdown(deadline: datetime) -> bool:
    """Whether a deadline just set is near enough for a countdown at once (else the sweep
    starts it when the deadline comes within SWEEP_LOOKAHEAD)."""
    horizon = timedelta(seconds=settings.DEADLINE_COUNTDOWN_HORIZON)
    return deadline - timezone.now() <= horizon
