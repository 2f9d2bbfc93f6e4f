"""Emailing the news recorded for players (games/notifications/news.py): each piece once, at
once (after a wait, for news a watching player sees for themselves: attention.py) or in the
daily digest, and only while it is still true.

Each function re-reads the news under its row locks, so a Celery task delivered twice or
retried after a mail server failed sends nothing twice.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.models import Notification
from games.notifications.attention import has_seen, is_due
from games.notifications.mail import digest_email, notification_email
from games.notifications.news import can_receive_email, is_still_news, wants_email


def email_news(notification_id: int, now: datetime | None = None) -> str:
    """Email one piece of news, unless it was sent already, is no longer true, or the player
    has seen it. Too early, it stays pending: the minute sweep asks again later."""
    now = now or timezone.now()
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user", "match", "challenge")
            .filter(pk=notification_id, status=Notification.Status.PENDING)
            .first()
        )
        if notification is None:
            return "done already"
        if not is_due(notification, now):
            return "not yet"
        if (
            not wants_email(notification.user, notification.kind)
            or not is_still_news(notification)
            or has_seen(notification, now)
        ):
            _close(notification, Notification.Status.SKIPPED)
            return "skipped"
        # Sent while holding the row's lock: a second delivery of this task waits, then finds
        # it sent. If sending fails, nothing is written and the task is retried.
        notification_email(notification).send()
        _close(notification, Notification.Status.SENT)
    return "sent"


def players_with_digest_news() -> list[int]:
    """The ids of the players with digest news waiting for them."""
    return list(
        Notification.objects.filter(
            status=Notification.Status.PENDING, delivery=Notification.Delivery.DIGEST
        )
        .values_list("user_id", flat=True)
        .distinct()
        .order_by("user_id")
    )


def email_digest(user_id: int) -> int:
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
