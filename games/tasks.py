"""Celery tasks. Each takes ids, re-reads the world under a lock and is idempotent, so a task
delivered twice or late (acks_late, countdowns, the sweep) does its work once."""

from __future__ import annotations

import logging
from smtplib import SMTPException
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from backgammon_site.errors import ApplicationError, Conflict
from games import services
from games.clocks import sweep
from games.computer.bot_accounts import bot_level_of
from games.computer.decisions import bot_action
from games.engine import state_from_snapshot
from games.models import Challenge, Match, Notification
from games.notifications.mail import digest_email, notification_email
from games.notifications.news import can_receive_email, is_still_news
from games.services.guests import idle_guests_purge

logger = logging.getLogger(__name__)

# --- Notifications ---

#: Mail servers fail for a while: retry with exponential backoff (1 s, 2 s, ... up to an hour).
EMAIL_RETRIES = {
    "autoretry_for": (SMTPException, OSError),
    "retry_backoff": True,
    "retry_backoff_max": 3600,
    "retry_jitter": True,
    "max_retries": 8,
    "acks_late": True,
    # (the task option; task_reject_on_worker_lost is the name of the global setting)
    "reject_on_worker_lost": True,
}


@shared_task(**EMAIL_RETRIES)
def send_notification(notification_id: int) -> str:
    """Email one piece of news at once, unless it was sent already or is no longer true."""
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user", "match", "challenge")
            .filter(pk=notification_id, status=Notification.Status.PENDING)
            .first()
        )
        if notification is None:
            return "done already"
        if not can_receive_email(notification.user) or not is_still_news(notification):
            _close(notification, Notification.Status.SKIPPED)
            return "skipped"
        # Sent while holding the row's lock: a second delivery of this task waits, then finds
        # it sent. If sending fails, nothing is written and the task is retried.
        notification_email(notification).send()
        _close(notification, Notification.Status.SENT)
    return "sent"


@shared_task
def send_daily_digests() -> int:
    """Celery beat, once a day: one digest task per player with news waiting for it."""
    user_ids = (
        Notification.objects.filter(
            status=Notification.Status.PENDING, delivery=Notification.Delivery.DIGEST
        )
        .values_list("user_id", flat=True)
        .distinct()
        .order_by("user_id")
    )
    count = 0
    for user_id in user_ids:
        send_digest.delay(user_id)
        count += 1
    return count


@shared_task(**EMAIL_RETRIES)
def send_digest(user_id: int) -> int:
    """Email a player all their digest news still waiting, in one email, once.

    News that is no longer true (a turn played since, a challenge answered) is left out.
    Returns how many items the email told.
    """
    with transaction.atomic():
        pending = list(
            Notification.objects.select_for_update(of=("self",))
            .select_related("match", "challenge")
            .filter(
                user_id=user_id,
                status=Notification.Status.PENDING,
                delivery=Notification.Delivery.DIGEST,
            )
            .order_by("created_at", "pk")
        )
        if not pending:
            return 0
        user = get_user_model().objects.get(pk=user_id)
        if not can_receive_email(user):
            news, stale = [], pending
        else:
            news = [item for item in pending if is_still_news(item)]
            stale = [item for item in pending if item not in news]
        for item in stale:
            _close(item, Notification.Status.SKIPPED)
        if news:
            digest_email(user, news).send()
            for item in news:
                _close(item, Notification.Status.SENT)
    return len(news)


def _close(notification: Notification, status: str) -> None:
    notification.status = status
    notification.sent_at = timezone.now() if status == Notification.Status.SENT else None
    notification.save(update_fields=["status", "sent_at"])


# --- Deadlines ---


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def enforce_deadline(self: Any, match_id: int, seq: int) -> None:
    """The countdown of one decision: at its deadline, the player to act loses on time."""
    check = services.match_timeout(match_id=match_id, seq=seq)
    if check.deadline is not None and not self.request.is_eager:
        self.apply_async((match_id, seq), eta=check.deadline)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, expires=55)
def sweep_deadlines() -> None:
    """Every minute: timeouts due, deadline warnings, vacations used up, countdowns to start."""
    sweep.sweep()


# --- Bots ---


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_act(match_id: int, seq: int) -> str:
    """The bot to act in match ``match_id`` at ``seq`` makes its decision.

    Does nothing when the match has moved past ``seq`` or no bot is to act; a Conflict from
    the service means someone else acted first, which is fine.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.seq != seq or match.status != Match.Status.ACTIVE:
        return "stale"
    level = bot_level_of(match.to_act_id)
    if level is None:
        return "no bot to act"
    bot = match.to_act
    player = match.player_index(bot)
    assert player is not None
    decision = bot_action(state_from_snapshot(match.state), player, level)
    if decision is None:
        return "nothing to do"
    try:
        services.match_act(
            match_id=match_id,
            actor=bot,
            expected_seq=seq,
            action=decision.action,
            play=decision.play,
        )
    except Conflict:
        return "stale"
    return decision.action


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_accept_challenge(challenge_id: int) -> str:
    """A bot accepts the open challenge addressed to it; anything else is left alone."""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or challenge.status != Challenge.Status.OPEN:
        return "closed"
    if bot_level_of(challenge.opponent_id) is None:
        return "not for a bot"
    try:
        services.challenge_accept(challenge_id=challenge_id, user=challenge.opponent)
    except ApplicationError as error:
        logger.info("bot could not accept challenge %s: %s", challenge_id, error.message)
        return "refused"
    return "accepted"


# --- Analysis ---


@shared_task(acks_late=True, reject_on_worker_lost=True)
def analyse_match(match_id: int) -> str:
    """Analyse match ``match_id`` as its log stands now; running it twice gives the same."""
    from games.computer.analysis import analysis_run, match_subject

    return "done" if analysis_run(match_subject(match_id)) is not None else "no such match"


@shared_task(acks_late=True, reject_on_worker_lost=True)
def analyse_import(import_id: int) -> str:
    """Analyse imported match ``import_id``; running it twice gives the same."""
    from games.computer.analysis import analysis_run, import_subject

    return "done" if analysis_run(import_subject(import_id)) is not None else "no such import"


# --- Guests ---


@shared_task
def purge_guests() -> str:
    """Remove guests idle for 30 days, with their matches (daily, from beat)."""
    guests, matches = idle_guests_purge()
    return f"removed {guests} guests and {matches} matches"
