"""Celery tasks, each a thin adapter: it takes ids and calls one function of the domain, which
re-reads the world under a lock and is idempotent, so a task delivered twice or late
(acks_late, countdowns, the sweep) does its work once. games/receivers.py queues them."""

from __future__ import annotations

from smtplib import SMTPException
from typing import Any

from celery import shared_task

from backgammon_site.core.errors import Conflict
from games import services
from games.clocks import sweep
from games.computer.analysis import (
    analysis_run,
    import_subject,
    lost_analyses_requested_again,
    match_subject,
)
from games.computer.bot_accounts import bot_accept, bot_decide
from games.dice import statistics
from games.notifications.sending import email_digest, email_news, players_with_digest_news
from games.notifications.webpush import push_news
from games.services.guests import idle_guests_purge
from games.services.idempotency import idempotency_records_purge

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
    return email_news(notification_id)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def push_notification(notification_id: int) -> str:
    """Push one piece of news to the player's devices, at most once; a device that fails is
    logged and skipped, never retried (the email, if any, still goes)."""
    return push_news(notification_id)


@shared_task
def send_daily_digests() -> int:
    """Celery beat, once a day: one digest task per player with news waiting for it."""
    user_ids = players_with_digest_news()
    for user_id in user_ids:
        send_digest.delay(user_id)
    return len(user_ids)


@shared_task(**EMAIL_RETRIES)
def send_digest(user_id: int) -> int:
    """Email a player all their digest news still true, in one email, once; returns how many
    items the email told."""
    return email_digest(user_id)


# --- Deadlines ---


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def enforce_deadline(self: Any, match_id: int, seq: int) -> None:
    """The countdown of one decision: at its deadline, the player to act loses on time."""
    check = services.match_timeout(match_id=match_id, seq=seq)
    if check.deadline is not None and not self.request.is_eager:
        self.apply_async((match_id, seq), eta=check.deadline)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, expires=55)
def sweep_deadlines() -> None:
    """Every minute: timeouts due, deadline warnings, vacations used up, countdowns to start,
    and the follow-ups whose task was lost."""
    sweep.sweep()
    lost_analyses_requested_again()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, expires=55)
def count_dice() -> None:
    """Every minute: the rolls made since the last count, into the dice statistics."""
    statistics.count_logged_rolls()


# --- Bots ---


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_act(match_id: int, seq: int) -> str:
    """The bot to act in match ``match_id`` at ``seq`` makes its decision, if it still is."""
    return bot_decide(match_id=match_id, seq=seq)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_accept_challenge(challenge_id: int) -> str:
    """A bot accepts the open challenge addressed to it; anything else is left alone."""
    return bot_accept(challenge_id=challenge_id)


# --- Tournaments ---


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def tournament_advance(tournament_id: int) -> int:
    """Move a tournament's bracket on after one of its matches ended; run twice, the second
    run finds nothing to do."""
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def league_advance(league_id: int) -> int:
    """Close a league's season once its matches are done (opening the next); run twice, the
    second run finds nothing to do."""
    return services.league_advance(league_id=league_id)


# --- Analysis ---

#: An analysis that runs this long is stopped (and marked failed). bgsage takes seconds;
#: gnubg's second opinion, a few minutes for the longest matches (it gives up at 480 s).
ANALYSIS_LIMITS = {"soft_time_limit": 600, "time_limit": 660}


@shared_task(acks_late=True, reject_on_worker_lost=True, **ANALYSIS_LIMITS)
def analyse_match(match_id: int) -> str:
    """Analyse match ``match_id`` as its log stands now; running it twice gives the same. A
    match still being played is refused."""
    try:
        analysed = analysis_run(match_subject(match_id))
    except Conflict as refusal:
        return f"refused: {refusal.message}"
    return "done" if analysed is not None else "no such match"


@shared_task(acks_late=True, reject_on_worker_lost=True, **ANALYSIS_LIMITS)
def analyse_import(import_id: int) -> str:
    """Analyse imported match ``import_id``; running it twice gives the same."""
    return "done" if analysis_run(import_subject(import_id)) is not None else "no such import"


# --- Guests ---


@shared_task
def purge_guests() -> str:
    """Remove guests idle for 30 days, with their matches (daily, from beat)."""
    guests, matches = idle_guests_purge()
    return f"removed {guests} guests and {matches} matches"


# --- Idempotency-Key records ---


@shared_task
def purge_idempotency_records() -> str:
    """Delete the Idempotency-Key records older than a day (daily, from beat)."""
    return f"removed {idempotency_records_purge()} idempotency records"
