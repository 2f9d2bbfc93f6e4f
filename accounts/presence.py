"""When a player was last around: signed in and using the site.

Kept in the database (the Celery worker that sends email is another process), and written at
most once a minute per player: the cache remembers the last write, so the requests of the
minute after it cost no query; the write itself is an UPDATE that changes nothing if another
process wrote within the minute (each process has its own cache on the embedded default).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import Profile

#: How stale a recorded moment may be before a request writes it again.
PRESENCE_GRAIN = timedelta(minutes=1)


def first_this_minute(key: str, now: datetime) -> bool:
    """Whether ``key`` was not seen in the minute before ``now`` (by this cache); it is now."""
    last = cache.get(key)
    if last is not None and timedelta(0) <= now - last < PRESENCE_GRAIN:
        return False
    cache.set(key, now, timeout=PRESENCE_GRAIN.total_seconds())
    return True


def record_activity(user_id: int, now: datetime | None = None) -> None:
    """The player used the site ``now`` (their profile is made if they have none yet)."""
    now = now or timezone.now()
    if not first_this_minute(f"presence:user:{user_id}", now):
        return
    stale = Profile.objects.filter(user_id=user_id).exclude(last_seen_at__gt=now - PRESENCE_GRAIN)
    if not stale.update(last_seen_at=now):
        Profile.objects.get_or_create(user_id=user_id, defaults={"last_seen_at": now})


def active_since(user_id: int, since: datetime) -> bool:
    """Whether the player used the site at ``since`` or after (to the minute)."""
    return Profile.objects.filter(user_id=user_id, last_seen_at__gte=since).exists()


class ActivityMiddleware:
    """Every request of a signed-in player records that they are around (API token requests
    too: Django REST framework sets request.user by the time the response comes back)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user: Any = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            record_activity(user.pk)
        return response
