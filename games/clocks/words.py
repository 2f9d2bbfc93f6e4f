"""Time controls in words, and the ones the challenge form offers ready-made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.clocks.rules import UNTIMED
from games.clocks.standing import Clocks

#: The correspondence presets of the challenge form: (key, days a move, reserve days).
CORRESPONDENCE_PRESETS = (("1+8", 1, 8), ("3+10", 3, 10), ("7+0", 7, 0))


def time_control_words(time_control: Mapping[str, Any]) -> str:
    """``1 day a move + 8 days reserve``, ``7 days a move``, ``Live: 8 minutes + 10 seconds``,
    ``No time limit``."""
    if time_control.get("kind") == UNTIMED:
        return _("No time limit")
    if time_control.get("kind") == "live":
        minutes = _amount(time_control.get("minutes", 0), "minute")
        increment = time_control.get("increment_seconds", 0)
        if not increment:
            return _("Live: %(minutes)s") % {"minutes": minutes}
        return _("Live: %(minutes)s + %(seconds)s a move") % {
            "minutes": minutes,
            "seconds": _amount(increment, "second"),
        }
    per_move = _days(time_control.get("days_per_move", 1))
    reserve = time_control.get("reserve_days", 0)
    if not reserve:
        return _("%(per_move)s a move") % {"per_move": per_move}
    return _("%(per_move)s a move + %(reserve)s reserve") % {
        "per_move": per_move,
        "reserve": _days(reserve),
    }


def _days(days: float) -> str:
    # Fractions of a day read better as hours: 0.25 days is 6 hours.
    if days < 1 and round(days * 24, 6) == int(round(days * 24, 6)):
        return _amount(int(round(days * 24)), "hour")
    return _amount(days, "day")


def _amount(value: float, unit: str) -> str:
    """``8 days``, ``1 hour``, ``1.5 days``: ``value`` of ``unit`` in the reader's language."""
    # A fraction takes the form a 2 takes, in English ("1.5 days") as in Greek and Russian.
    count = int(value) if float(value).is_integer() else 2
    forms = {
        "day": ngettext("%(amount)s day", "%(amount)s days", count),
        "hour": ngettext("%(amount)s hour", "%(amount)s hours", count),
        "minute": ngettext("%(amount)s minute", "%(amount)s minutes", count),
        "second": ngettext("%(amount)s second", "%(amount)s seconds", count),
    }
    return forms[unit] % {"amount": f"{value:g}"}


def clock_faces(
    clocks: Clocks,
    *,
    players: Sequence[str],
    to_act: str | None,
    deadline: datetime | None,
    now: datetime,
) -> list[dict[str, Any]]:
    """What the match page shows of each player's time (``players`` by the names ``clocks``
    and ``to_act`` use), with the seconds left at ``now``."""
    live = clocks.kind == "live"
    faces = []
    for index, name in enumerate(players):
        running = clocks.running == name and deadline is not None
        paused_left = clocks.paused_time_left_seconds if to_act == name else None
        paused = paused_left is not None
        if running and deadline is not None:
            seconds = max((deadline - now).total_seconds(), 0.0)
        elif paused_left is not None:
            seconds = paused_left
        else:
            seconds = clocks.time_left_seconds[index]
        faces.append(
            {
                "player": name,
                "live": live,
                "running": running,
                "paused": paused,
                "seconds": round(seconds),
                "text": (
                    duration_words(seconds, live=live)
                    if live or running or paused
                    else _reserve_words(seconds)
                ),
                "deadline": deadline if running else None,
                "reserve": (
                    _reserve_words(clocks.time_left_seconds[index])
                    if not live and (running or paused)
                    else None
                ),
            }
        )
    return faces


def _reserve_words(seconds: float) -> str:
    """``reserve 8 days``; ``no reserve`` once it is used up (or there never was one)."""
    if seconds < 1:
        return _("no reserve")
    return _("reserve %(time)s") % {"time": duration_words(seconds, live=False)}


def duration_words(seconds: float, *, live: bool) -> str:
    """``7:42`` on a live clock; ``2 days 3 hours`` or ``5:04:10`` for correspondence."""
    whole = max(int(seconds), 0)
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if live or days == 0:
        hours += days * 24
        return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    if not hours:
        return _amount(days, "day")
    return _("%(days)s %(hours)s") % {"days": _amount(days, "day"), "hours": _amount(hours, "hour")}
