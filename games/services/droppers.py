"""Droppers: players who let their matches run out of time.

A player's record of timeouts is the share of their matches finished in the last
``DROPPER_LIMIT["days"]`` days that they lost on time. Above ``DROPPER_LIMIT["share"]`` (once
they have finished at least ``DROPPER_LIMIT["min_matches"]`` in that time) they may not enter
tournaments or leagues, nor make or accept open challenges: their opponents would be left
waiting. ``dropper_refusal`` is the one place that rule lives; every service that admits
players to such play asks it.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from backgammon_site.core.errors import Forbidden
from games.models import Player
from games.selectors.droppers import (
    TimeoutRecord,
    dropper_lifts_at,
    dropper_limit,
    is_dropper,
    timeout_record,
)

__all__ = [
    "REFUSAL_CODE",
    "TimeoutRecord",
    "dropper_refusal",
    "is_dropper",
    "refuse_dropper",
    "timeout_record",
]

#: The code of the refusal, in the API's error shape.
REFUSAL_CODE = "too_many_timeouts"


def dropper_refusal(user: Player, *, now: datetime | None = None) -> str | None:
    """Why ``user`` may not enter a tournament or league, nor make or accept an open challenge,
    for losing too many matches on time, and when that lifts; None when they may."""
    now = now or timezone.now()
    record = timeout_record(user, now=now)
    if not is_dropper(record):
        return None
    lifts = dropper_lifts_at(user, now)
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
        "limit": round(100 * float(dropper_limit()["share"])),
        "lifts": date_format(lifts, "d M Y, H:i"),
    }


def refuse_dropper(user: Player) -> None:
    """Raise ``dropper_refusal``'s reason, if there is one (HTTP 403, code
    ``too_many_timeouts``)."""
    refusal = dropper_refusal(user)
    if refusal is not None:
        raise Forbidden(refusal, REFUSAL_CODE)
