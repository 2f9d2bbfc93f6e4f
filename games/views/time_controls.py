"""Time controls in words, and the ones the challenge form offers ready-made."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: The correspondence presets of the challenge form: (key, days a move, reserve days).
CORRESPONDENCE_PRESETS = (("1+8", 1, 8), ("3+10", 3, 10), ("7+0", 7, 0))


def time_control_words(time_control: Mapping[str, Any]) -> str:
    """``1 day a move + 8 days reserve``, ``7 days a move``, ``Live: 8 minutes + 10 seconds``."""
    if time_control.get("kind") == "live":
        minutes = _amount(time_control.get("minutes", 0), "minute")
        increment = time_control.get("increment_seconds", 0)
        if not increment:
            return f"Live: {minutes}"
        return f"Live: {minutes} + {_amount(increment, 'second')} a move"
    per_move = _days(time_control.get("days_per_move", 1))
    reserve = time_control.get("reserve_days", 0)
    if not reserve:
        return f"{per_move} a move"
    return f"{per_move} a move + {_days(reserve)} reserve"


def _days(days: float) -> str:
    # Fractions of a day read better as hours: 0.25 days is 6 hours.
    if days < 1 and round(days * 24, 6) == int(round(days * 24, 6)):
        return _amount(int(round(days * 24)), "hour")
    return _amount(days, "day")


def _amount(value: float, unit: str) -> str:
    return f"{value:g} {unit}" if value == 1 else f"{value:g} {unit}s"
