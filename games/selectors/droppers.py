"""Records of timeouts: the share of a player's matches finished in the last
``DROPPER_LIMIT["days"]`` days that they lost on time, and whether that makes them a dropper
(above ``DROPPER_LIMIT["share"]``, once they have finished at least
``DROPPER_LIMIT["min_matches"]`` in that time). The services refuse droppers
(games/services/droppers.py); the pages and the API show the records beside players' names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import ngettext

from games.models import Match, Player

SEATS = ("first_player", "second_player")


@dataclass(frozen=True)
class TimeoutRecord:
    """How many of a player's recently finished matches they lost on time."""

    matches: int
    timed_out: int
    days: int

    @property
    def share(self) -> float:
        return self.timed_out / self.matches if self.matches else 0.0

    @property
    def percent(self) -> int:
        return round(100 * self.share)

    @property
    def above_limit(self) -> bool:
        """Whether this record makes the player a dropper (``is_dropper``)."""
        return is_dropper(self)

    def __str__(self) -> str:
        """``Timed out: 2 of 40 matches (5%) in the last 90 days``."""
        return ngettext(
            "Timed out: %(timed_out)s of %(matches)s match (%(percent)s%%) in the last "
            "%(days)s days",
            "Timed out: %(timed_out)s of %(matches)s matches (%(percent)s%%) in the last "
            "%(days)s days",
            self.matches,
        ) % {
            "timed_out": self.timed_out,
            "matches": self.matches,
            "percent": self.percent,
            "days": self.days,
        }


def dropper_limit() -> dict[str, Any]:
    """The site's limit: ``share``, ``min_matches`` and ``days`` (settings.DROPPER_LIMIT)."""
    return {"share": 0.2, "min_matches": 5, "days": 90, **settings.DROPPER_LIMIT}


def is_dropper(record: TimeoutRecord) -> bool:
    """Whether this record is above the site's limit."""
    limit = dropper_limit()
    return record.matches >= int(limit["min_matches"]) and record.share > float(limit["share"])


def timeout_records(
    players: Iterable[Player], *, now: datetime | None = None
) -> dict[Any, TimeoutRecord]:
    """Each player's record of timeouts over the limit's window, by the player's pk: one query
    however many players (a count per seat, each on that seat's index of finished matches,
    joined by UNION ALL), none for no players."""
    days = int(dropper_limit()["days"])
    ids = {player.pk for player in players}
    counts = {pk: [0, 0] for pk in ids}
    since = (now or timezone.now()) - timedelta(days=days)
    per_seat = [
        Match.objects.filter(
            **{f"{seat}__in": ids}, status=Match.Status.FINISHED, finished_at__gte=since
        )
        .annotate(player=F(seat))
        .values("player")
        .annotate(matches=Count("pk"), timed_out=Count("pk", filter=_lost_on_time(F(seat))))
        .values_list("player", "matches", "timed_out")
        .order_by()
        for seat in SEATS
    ]
    rows = per_seat[0].union(per_seat[1], all=True) if ids else []
    for player, matches, timed_out in rows:
        counts[player][0] += matches
        counts[player][1] += timed_out
    return {
        pk: TimeoutRecord(matches=matches, timed_out=timed_out, days=days)
        for pk, (matches, timed_out) in counts.items()
    }


def timeout_record(player: Player, *, now: datetime | None = None) -> TimeoutRecord:
    """One player's record of timeouts (``timeout_records`` of that player alone)."""
    return timeout_records([player], now=now)[player.pk]


def entries_with_timeouts(entries: list[Any]) -> list[tuple[Any, TimeoutRecord]]:
    """Each entry (a tournament's or a league season's, with its ``player``) beside its
    player's record of timeouts, read for all of them in one query."""
    timeouts = timeout_records(entry.player for entry in entries)
    return [(entry, timeouts[entry.player_id]) for entry in entries]


def dropper_lifts_at(player: Player, now: datetime) -> datetime:
    """When the player's matches, leaving the window oldest first, no longer put them above
    the limit (if they finish no other match before then)."""
    days = int(dropper_limit()["days"])
    since = now - timedelta(days=days)
    rows = list(
        _recent_matches(player, since)
        .annotate(lost_on_time=Count("pk", filter=_lost_on_time(player)))
        .order_by("finished_at", "pk")
        .values_list("finished_at", "lost_on_time")
    )
    matches, timed_out = len(rows), sum(lost for _match, lost in rows)
    for finished_at, lost in rows:
        matches, timed_out = matches - 1, timed_out - lost
        if not is_dropper(TimeoutRecord(matches=matches, timed_out=timed_out, days=days)):
            assert finished_at is not None  # _recent_matches reads finished matches only
            return finished_at + timedelta(days=days)
    return now


def _recent_matches(player: Player, since: datetime) -> QuerySet[Match]:
    return Match.objects.filter(
        Q(first_player=player) | Q(second_player=player),
        status=Match.Status.FINISHED,
        finished_at__gte=since,
    )


def _lost_on_time(player: Player | F) -> Q:
    """Ended by a timeout that ``player`` (a user, or a seat's column as ``F``) did not win."""
    return Q(state__end_reason="timeout") & ~Q(winner=player)
