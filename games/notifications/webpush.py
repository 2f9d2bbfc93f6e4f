"""Pushing the news recorded for players (games/notifications/news.py) to their devices:
web push, the second channel beside email, at the moment the email would go and under the same
attention rules (attention.py), whatever the player chose for email.

Each piece of news is decided once, pushed or skipped (accounts' NewsPush, recorded under the
news' row lock before anything is sent), so a task delivered twice pushes nothing twice. A
device whose push service says the subscription is gone (404, 410) is forgotten; any other
failure is logged on the device and touches nothing else.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from accounts.models import NewsPush, PushSubscription
from backgammon_site.core.vapid import VapidKeys, site_vapid_keys
from games.models import Notification
from games.notifications.attention import has_seen, is_due
from games.notifications.mail import news_item
from games.notifications.news import is_still_news, wants_push

logger = logging.getLogger(__name__)

#: How long a push service keeps a push for a device that is off: news a day old is still
#: worth showing (a correspondence turn lasts days); older, the digest or the lobby tells it.
PUSH_TTL = 24 * 60 * 60

#: The push service's answers that say the subscription is gone for good.
GONE = (404, 410)


def push_news(notification_id: int, now: datetime | None = None) -> str:
    """Push one piece of news to each of its player's devices, unless that was decided
    already, it is no longer true, or the player has seen it. Too early, it waits for the next
    ask."""
    now = now or timezone.now()
    keys = site_vapid_keys()
    with transaction.atomic():
        notification = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("user", "match", "challenge")
            .filter(pk=notification_id)
            .first()
        )
        if notification is None or NewsPush.objects.filter(notification=notification).exists():
            return "done already"
        if not is_due(notification, now):
            return "not yet"
        devices = list(PushSubscription.objects.filter(user_id=notification.user_id))
        if (
            keys is None
            or not devices
            or not wants_push(notification.user, notification.kind)
            or not is_still_news(notification)
            or has_seen(notification, now)
        ):
            NewsPush.objects.create(
                notification=notification, outcome=NewsPush.Outcome.SKIPPED, decided_at=now
            )
            return "skipped"
        payload = json.dumps(push_payload(notification))
        push = NewsPush.objects.create(
            notification=notification, outcome=NewsPush.Outcome.PUSHED, decided_at=now
        )
    # Sent after the commit: a push service that is slow to answer holds no lock. A worker
    # lost right here loses the push, never doubles it.
    push.devices = sum(device_push(device, payload, keys) for device in devices)
    push.save(update_fields=["devices"])
    return f"pushed to {push.devices} of {len(devices)}"


def push_payload(notification: Notification) -> dict[str, Any]:
    """What the service worker shows: a title, a line, and the page a click opens (in English,
    as the emails are)."""
    with translation.override(settings.LANGUAGE_CODE):
        item = news_item(notification)
    return {"title": item["subject"], "body": item["headline"], "url": item["url"]}


def device_push(device: PushSubscription, payload: str, keys: VapidKeys) -> bool:
    """Push ``payload`` to one device; whether its push service took it."""
    try:
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=payload,
            vapid_private_key=keys.private_key,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=settings.WEBPUSH_TIMEOUT,
            ttl=PUSH_TTL,
        )
    except WebPushException as refusal:
        status = refusal.response.status_code if refusal.response is not None else None
        if status in GONE:
            logger.info("Push subscription %s is gone (%s): forgotten", device.pk, status)
            device.delete()
        else:
            _failed(device, f"push service answered {status}: {refusal}")
        return False
    except (requests.RequestException, ValueError) as error:
        _failed(device, f"{type(error).__name__}: {error}")
        return False
    # An update by id: the player may have disabled the device meanwhile.
    PushSubscription.objects.filter(pk=device.pk).update(last_success_at=timezone.now())
    return True


def _failed(device: PushSubscription, reason: str) -> None:
    logger.warning(
        "Push to subscription %s of user %s failed: %s", device.pk, device.user_id, reason
    )
    PushSubscription.objects.filter(pk=device.pk).update(
        last_failure_at=timezone.now(), last_failure=reason[:200]
    )
