"""Removing guests idle for 30 days with their matches, logs included.

The one deliberate exception to the append-only log (see games/migrations/0010_purge_guest_matches).
Which guests are idle is accounts.guests' question; their matches are this app's.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q

from accounts.guests import IDLE_DAYS, idle_guests
from games.models import Challenge, Match


def idle_guests_purge(
    *, now: datetime | None = None, idle_days: int = IDLE_DAYS
) -> tuple[int, int]:
    """Remove idle guests and their matches, logs included; (guests, matches) removed. A guest
    named in an audit record (suspended, say) is kept with it: the record is never removed."""
    with transaction.atomic():
        idle = idle_guests(now, idle_days).filter(audit_records__isnull=True)
        guest_ids = list(idle.values_list("pk", flat=True))
        matches = Match.objects.filter(
            Q(first_player__in=guest_ids) | Q(second_player__in=guest_ids)
        )
        match_ids = list(matches.values_list("pk", flat=True))
        if match_ids:
            _purge_match_logs(match_ids)
            Challenge.objects.filter(match__in=match_ids).delete()
            Match.objects.filter(pk__in=match_ids).delete()
        get_user_model().objects.filter(pk__in=guest_ids).delete()
    return len(guest_ids), len(match_ids)


def _purge_match_logs(match_ids: list[int]) -> None:
    """Delete the events of these matches: match events refuse deletion everywhere else.

    On PostgreSQL the append-only trigger lets a DELETE through only inside a transaction that
    has set ``games.purge`` to ``guest-matches``, as this does.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL games.purge = 'guest-matches'")
        placeholders = ", ".join(["%s"] * len(match_ids))
        cursor.execute(
            f"DELETE FROM games_matchevent WHERE match_id IN ({placeholders})",  # noqa: S608
            match_ids,
        )
