"""Enforcing time: the sweep that finds what is due, and the countdowns of live clocks.

The sweep (Celery beat, every minute) is the mechanism for deadlines hours or days away; a
countdown task is scheduled only for a deadline inside DEADLINE_COUNTDOWN_HORIZON, well within
the broker's visibility timeout (Redis redelivers a task whose ETA lies beyond it). Everything
here may run twice or late: games/services/ acts only on what is still due.

The sweep also finds the follow-ups whose task was lost (the broker was down when the change
committed, or a Redis restart dropped its queues): a computer's turn or challenge left waiting
for a minute, a countdown, an email; games/computer/analysis.py finds lost analyses. Each run
records itself in Heartbeat, which `manage.py health` reads.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from accounts.models import Profile
from accounts.vacation import vacation_ends_at
from games import services
from games.models import (
    BracketMatch,
    Challenge,
    Heartbeat,
    LeagueSeason,
    Match,
    Notification,
    Tournament,
)
from games.signals import computer_due, countdown_due, news_to_send

logger = logging.getLogger(__name__)

#: Deadlines this close when the sweep runs get a countdown task, so they are met to the second.
SWEEP_LOOKAHEAD = timedelta(seconds=90)

#: How many matches one sweep handles of each kind; the next sweep takes the rest.
SWEEP_BATCH = 500

#: A computer opponent acts within seconds: one that has waited this long lost its task.
COMPUTER_PATIENCE = timedelta(minutes=1)

#: An email task runs at once, or NOTIFICATION_DELAY later (games/notifications/attention.py):
#: news still unsent this long after that lost its task.
NEWS_PATIENCE = timedelta(minutes=5)


def news_patience() -> timedelta:
    """How long after it was recorded news due at once is still waiting for its task."""
    return timedelta(seconds=settings.NOTIFICATION_DELAY) + NEWS_PATIENCE


#: The name of the sweep's Heartbeat.
HEARTBEAT = "sweep"


@dataclass(frozen=True)
class SweepReport:
    timed_out: int
    warned: int
    countdowns: int
    vacations_ended: int
    follow_ups: int = 0


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
    # A deadline set within the horizon got its countdown when it was set (needs_countdown),
    # unless that task was lost: one set over a minute ago gets another, which does nothing
    # if the first is still there.
    horizon = timedelta(seconds=settings.DEADLINE_COUNTDOWN_HORIZON)
    soon = Match.objects.filter(
        status=Match.Status.ACTIVE, deadline__gt=now, deadline__lte=now + SWEEP_LOOKAHEAD
    ).filter(
        Q(deadline__gt=F("updated_at") + horizon) | Q(updated_at__lte=now - timedelta(minutes=1))
    )
    countdowns = 0
    for match_id, seq, deadline in soon.values_list("pk", "seq", "deadline")[:SWEEP_BATCH]:
        start_countdown(match_id, seq, deadline)
        countdowns += 1
    follow_ups = follow_ups_resent(now) + tournaments_moved_on(now) + leagues_moved_on(now)
    previous = Heartbeat.objects.filter(name=HEARTBEAT).first()
    follow_ups += news_resent(previous.at if previous else now - timedelta(days=1), now)
    Heartbeat.objects.update_or_create(name=HEARTBEAT, defaults={"at": now})
    return SweepReport(timed_out, warned, countdowns, vacations_ended, follow_ups)


def tournaments_moved_on(now: datetime) -> int:
    """Start the tournaments whose time has come, and move on every bracket left waiting (a
    match over with no winner placed, or two players known and no match made): the advance its
    task would have made, had it not been lost. Each is done once, however often asked for."""
    moved = 0
    due = Tournament.objects.filter(
        status=Tournament.Status.SIGNING_UP,
        start_mode=Tournament.StartMode.AT_TIME,
        starts_at__lte=now,
    )
    for tournament_id in due.values_list("pk", flat=True)[:SWEEP_BATCH]:
        moved += services.tournament_start(tournament_id=tournament_id, now=now)
    waiting = BracketMatch.objects.filter(
        tournament__status=Tournament.Status.RUNNING, winner__isnull=True
    ).filter(
        Q(match__status=Match.Status.FINISHED)
        | Q(match__isnull=True, first__isnull=False, second__isnull=False)
    )
    stalled = waiting.values_list("tournament_id", flat=True).distinct()
    for tournament_id in stalled[:SWEEP_BATCH]:
        try:
            moved += bool(services.tournament_advance(tournament_id=tournament_id))
        except Exception:  # one broken tournament must not stop the sweep for the others
            logger.exception("advancing tournament %s failed", tournament_id)
    return moved


def leagues_moved_on(now: datetime) -> int:
    """Open the league seasons due to start and close those over (at their end date, or all
    their matches done, should the task queued by the last one's end have been lost). Each is
    done once, however often asked for."""
    due = (
        LeagueSeason.objects.filter(
            Q(status=LeagueSeason.Status.SIGNING_UP, starts_at__lte=now)
            | Q(status=LeagueSeason.Status.RUNNING, ends_at__lte=now)
        )
        | LeagueSeason.objects.filter(status=LeagueSeason.Status.RUNNING).exclude(
            divisions__pairings__match__status=Match.Status.ACTIVE
        )
    ).values_list("league_id", flat=True)
    moved = 0
    for league_id in sorted(set(due))[:SWEEP_BATCH]:
        try:
            moved += bool(services.league_advance(league_id=league_id, now=now))
        except Exception:  # one broken league must not stop the sweep for the others
            logger.exception("advancing league %s failed", league_id)
    return moved


def computer_turns_waiting(now: datetime) -> Any:
    """Active matches whose turn has been a computer opponent's for over a minute."""
    return Match.objects.filter(
        status=Match.Status.ACTIVE,
        to_act__profile__bot_level__gt="",
        updated_at__lte=now - COMPUTER_PATIENCE,
    )


def follow_ups_resent(now: datetime) -> int:
    """Remind the computer of its turns and challenges left waiting: each is done once,
    however often it is asked for."""
    resent = 0
    for match_id, seq in computer_turns_waiting(now).values_list("pk", "seq")[:SWEEP_BATCH]:
        computer_due.send(Match, match_id=match_id, seq=seq)
        resent += 1
    challenges = Challenge.objects.filter(
        status=Challenge.Status.OPEN,
        opponent__profile__bot_level__gt="",
        created_at__lte=now - COMPUTER_PATIENCE,
    )
    for challenge_id in challenges.values_list("pk", flat=True)[:SWEEP_BATCH]:
        computer_due.send(Challenge, challenge_id=challenge_id)
        resent += 1
    return resent


def news_resent(last_sweep: datetime, now: datetime) -> int:
    """Send again the news due at once whose task may have been lost: those recorded in the
    stretch this sweep covers, news_patience() ago, so each is sent again once at most. Emails
    still unsent go again with their push; news not decided for push yet (a digest's, or one
    emailed already) goes again to the player's devices only."""
    patience = news_patience()
    since = max(last_sweep, now - timedelta(days=1)) - patience
    recorded = Notification.objects.filter(
        created_at__gt=since,
        created_at__lte=now - patience,
    )
    unsent = recorded.filter(
        status=Notification.Status.PENDING, delivery=Notification.Delivery.IMMEDIATELY
    )
    unpushed = (
        recorded.filter(push__isnull=True, user__push_subscriptions__isnull=False)
        .exclude(status=Notification.Status.PENDING, delivery=Notification.Delivery.IMMEDIATELY)
        .distinct()
    )
    resent = 0
    for notification_id in unsent.values_list("pk", flat=True)[:SWEEP_BATCH]:
        news_to_send.send(Notification, notification_id=notification_id)
        resent += 1
    for notification_id in unpushed.values_list("pk", flat=True)[:SWEEP_BATCH]:
        news_to_send.send(Notification, notification_id=notification_id, email=False)
        resent += 1
    return resent


def start_countdown(match_id: int, seq: int, deadline: datetime) -> None:
    """Have ``deadline`` enforced to the second: games/receivers.py queues the countdown task."""
    countdown_due.send(Match, match_id=match_id, seq=seq, deadline=deadline)


def needs_countdown(deadline: datetime) -> bool:
    """Whether a deadline just set is near enough for a countdown at once (else the sweep
    starts it when the deadline comes within SWEEP_LOOKAHEAD)."""
    horizon = timedelta(seconds=settings.DEADLINE_COUNTDOWN_HORIZON)
    return deadline - timezone.now() <= horizon
