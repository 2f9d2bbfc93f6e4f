"""Removing guests idle for 30 days with their matches, logs included.

The one deliberate exception to the append-only log (see games/migrations/0027, the only path).
Which guests are idle is accounts.guests' question; their matches are this app's.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Q

from accounts.guests import IDLE_DAYS, idle_guests
from games.log.records import began_between_guests
from games.models import Challenge, Match, MatchEvent


def idle_guests_purge(
    *, now: datetime | None = None, idle_days: int = IDLE_DAYS
) -> tuple[int, int]:
    """Remove idle guests and their matches, logs included; (guests, matches) removed. A guest
    named in an audit record (suspended, say) is kept with it: the record is never removed.

    Only a match whose first event recorded every player as a guest or a computer opponent goes
    (the database checks it again); a match without that record (begun before it was kept) stays,
    and so do its guests.
    """
    with transaction.atomic():
        idle = idle_guests(now, idle_days).filter(audit_records__isnull=True)
        guest_ids = list(idle.values_list("pk", flat=True))
        matches = Match.objects.filter(
            Q(first_player__in=guest_ids) | Q(second_player__in=guest_ids)
        )
        starts = dict(
            MatchEvent.objects.filter(match__in=matches, seq=1, kind="match_started").values_list(
                "match_id", "payload"
            )
        )
        match_ids = [pk for pk, payload in starts.items() if began_between_guests(payload)]
        kept = matches.exclude(pk__in=match_ids).values_list("first_player", "second_player")
        kept_players = {player for players in kept for player in players}
        guest_ids = [pk for pk in guest_ids if pk not in kept_players]
        if match_ids:
            _purge_match_logs(match_ids)
            Challenge.objects.filter(match__in=match_ids).delete()
            Match.objects.filter(pk__in=match_ids).delete()
        get_user_model().objects.filter(pk__in=guest_ids).delete()
    return len(guest_ids), len(match_ids)


def _purge_match_logs(match_ids: list[int]) -> None:
    """Delete the events of these matches: match events refuse deletion everywhere else.

    On PostgreSQL only the owner's function ``games_guest_matches_purge`` may (games migration
    0027): it checks each match's first event again and refuses the lot if one began with a
    player who signed up.
    """
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT games_guest_matches_purge(%s::bigint[])", [match_ids])
            return
        placeholders = ", ".join(["%s"] * len(match_ids))
        cursor.execute(
            f"DELETE FROM games_matchevent WHERE match_id IN ({placeholders})",  # noqa: S608
            match_ids,
        )
