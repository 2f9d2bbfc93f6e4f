"""Droppers: players who let their matches run out of time.

A player's record of timeouts is the share of their matches finished in the last
``DROPPER_LIMIT["days"]`` days that they lost on time. Above ``DROPPER_LIMIT["share"]`` (once
they have finished at least ``DROPPER_LIMIT["min_matches"]`` in that time) they may not enter
tournaments or leagues, nor make or accept open challenges: their opponents would be left
waiting. ``dropper_refusal`` is the one place that rule lives; every service that admits
players to such play asks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from backgammon_site.errors import Forbidden
from games.models import Match

#: The code of the refusal, in the API's error shape.
REFUSAL_CODE = "too_many_timeouts"


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

    def __str__(self) -> str:
        """``Timed out: 2 of 40 matches (5%) in the last 90 days``."""
        noun = "match" if self.matches == 1 else "matches"
        return (
            f"Timed out: {self.timed_out} of {self.matches} {noun} ({self.percent}%) "
            f"in the last {self.days} days"
        )


def timeout_record(player: Any, *, now: datetime | None = None) -> TimeoutRecord:
    """The player's record of timeouts over the limit's window: one aggregate query over the
    player's finished matches (indexed by player and finish time)."""
    days = int(_limit()["days"])
    since = (now or timezone.now()) - timedelta(days=days)
    counts = _recent_matches(player, since).aggregate(
        matches=Count("pk"), timed_out=Count("pk", filter=_lost_on_time(player))
    )
    return TimeoutRecord(matches=counts["matches"], timed_out=counts["timed_out"], days=days)


def is_dropper(record: TimeoutRecord) -> bool:
    """Whether this record is above the site's limit."""
    limit = _limit()
    return record.matches >= int(limit["min_matches"]) and record.share > float(limit["share"])


def dropper_refusal(user: Any, *, now: datetime | None = None) -> str | None:
    """Why ``user`` may not enter a tournament or league, nor make or accept an open challenge,
    for losing too many matches on time, and when that lifts; None when they may."""
    now = now or timezone.now()
    record = timeout_record(user, now=now)
    if not is_dropper(record):
        return None
    lifts = _lifts_at(user, now)
    return _(
        "You lost %(timed_out)s of your %(matches)s matches of the last %(days)s days on time "
        "(%(percent)s%%). Above %(limit)s%% you cannot enter tournaments or leagues, nor make or "
        "accept open challenges. This lifts on %(lifts)s UTC as those matches grow old, or "
        "sooner as you finish more matches in time."
    ) % {
        "timed_out": record.timed_out,
        "matches": record.matches,
        "days": record.days,
        "percent": record.percent,
        "limit": round(100 * float(_limit()["share"])),
        "lifts": date_format(lifts, "d M Y, H:i"),
    }


def refuse_dropper(user: Any) -> None:
    """Raise ``dropper_refusal``'s reason, if there is one (HTTP 403, code
    ``too_many_timeouts``)."""
    refusal = dropper_refusal(user)
    if refusal is not None:
        raise Forbidden(refusal, REFUSAL_CODE)


def _limit() -> dict[str, Any]:
    return {"share": 0.2, "min_matches": 5, "days": 90, **settings.DROPPER_LIMIT}


def _recent_matches(player: Any, since: datetime) -> Any:
    return Match.objects.filter(
        Q(first_player=player) | Q(second_player=player),
        status=Match.Status.FINISHED,
        finished_at__gte=since,
    )


def _lost_on_time(player: Any) -> Q:
    return Q(state__end_reason="timeout") & ~Q(winner=player)


def _lifts_at(player: Any, now: datetime) -> datetime:
    """When the player's matches, leaving the window oldest first, no longer put them above
    the limit (if they finish no other match before then)."""
    days = int(_limit()["days"])
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
            return finished_at + timedelta(days=days)
    return now
