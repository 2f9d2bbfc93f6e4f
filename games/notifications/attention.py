"""Whether a player is watching: news about a match they have open, or sent while they are
using the site, would only interrupt them.

A "your turn" or "match finished" email waits NOTIFICATION_DELAY seconds; when it is due it
is dropped if the player opened the match after the news was recorded, or used the site in the
last NOTIFICATION_AWAY_AFTER seconds. Challenges go at once (a lobby is no match page to
watch) and deadline warnings always go: losing on time is worth an interruption.

The daily digest is left as it was: a decision still waiting is worth telling once a day, even
to a player who looked at the match and left it.

Presence is kept in the database, written at most once a minute per player and match.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.presence import PRESENCE_GRAIN, active_since, first_this_minute, record_activity
from games.models import Match, MatchPresence, Notification

Kind = Notification.Kind

#: The news a player who is watching does not need an email for; it waits to see.
WAITS_FOR_ATTENTION = frozenset({Kind.YOUR_TURN, Kind.MATCH_FINISHED})

#: A task delivered a little before its time (the clocks of two machines differ) still sends.
EARLY_TOLERANCE = timedelta(seconds=30)


def record_match_open(user: Any, match_id: int, now: datetime | None = None) -> None:
    """The viewer has match ``match_id`` open ``now`` (its page, its poll or the API);
    recorded for its players only.

    At most one write a minute: no query while the cache remembers a write in the last
    minute, then an UPDATE that changes nothing within the minute; the first time, an INSERT.
    """
    if not user.is_authenticated:
        return
    now = now or timezone.now()
    record_activity(user.pk, now)
    if not first_this_minute(f"presence:user:{user.pk}:match:{match_id}", now):
        return
    presence = MatchPresence.objects.filter(match_id=match_id, user_id=user.pk)
    stale = presence.exclude(seen_at__gt=now - PRESENCE_GRAIN)
    if not stale.update(seen_at=now) and not presence.exists() and _plays(user, match_id):
        MatchPresence.objects.bulk_create(
            [MatchPresence(match_id=match_id, user_id=user.pk, seen_at=now)],
            ignore_conflicts=True,
        )


def _plays(user: Any, match_id: int) -> bool:
    seats = Q(first_player_id=user.pk) | Q(second_player_id=user.pk)
    return Match.objects.filter(seats, pk=match_id).exists()


def delay_of(kind: str) -> timedelta:
    """How long news of ``kind`` due at once waits before it is emailed."""
    if kind in WAITS_FOR_ATTENTION:
        return timedelta(seconds=settings.NOTIFICATION_DELAY)
    return timedelta(0)


def is_due(notification: Notification, now: datetime) -> bool:
    return now >= notification.created_at + delay_of(notification.kind) - EARLY_TOLERANCE


def has_seen(notification: Notification, now: datetime) -> bool:
    """Whether the player saw the news themselves: they opened its match after it was
    recorded, or have used the site lately (they are around and will see it)."""
    if notification.kind not in WAITS_FOR_ATTENTION or notification.match_id is None:
        return False
    opened = MatchPresence.objects.filter(
        match_id=notification.match_id,
        user_id=notification.user_id,
        seen_at__gte=notification.created_at,
    ).exists()
    away_after = timedelta(seconds=settings.NOTIFICATION_AWAY_AFTER)
    return opened or active_since(notification.user_id, now - away_after)
