"""The rules of time: correspondence deadlines with a reserve, and live Fischer clocks.

Pure functions over datetimes; games/services.py applies them when a match changes.

A match keeps, per player, the time left beyond the current decision's allowance: the reserve
(correspondence) or the clock (live). The player who must decide has a deadline; when it passes
they have lost on time.

- Correspondence: each decision has the time per move; what it takes beyond that comes out of
  the player's reserve. The deadline is the decision's start + time per move + reserve.
- Live: the clock of the player who must decide runs; each completed move (a checker play)
  adds the increment to the mover's clock. The deadline is the decision's start + clock.
- Untimed (``{"kind": "untimed"}``): no deadline at all. Only casual play starts such matches
  (pass-and-play at one table, a guest against the computer); an abandoned one is removed
  with its idle guests (games.services.guests).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

#: How long before a correspondence deadline the player is warned.
WARNING_BEFORE = timedelta(hours=12)

DAY = timedelta(days=1)

#: The kind of time control with no clock: casual play only.
UNTIMED = "untimed"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A match's time control, read from its JSON form (already validated by the services)."""

    live: bool
    per_move: timedelta
    starting_time: timedelta
    increment: timedelta
    untimed: bool = False

    @classmethod
    def of(cls, time_control: Mapping[str, Any]) -> TimeControl:
        if time_control.get("kind") == UNTIMED:
            return cls(False, timedelta(0), timedelta(0), timedelta(0), untimed=True)
        if time_control.get("kind") == "live":
            return cls(
                live=True,
                per_move=timedelta(0),
                starting_time=timedelta(minutes=time_control["minutes"]),
                increment=timedelta(seconds=time_control.get("increment_seconds", 0)),
            )
        return cls(
            live=False,
            per_move=timedelta(days=time_control["days_per_move"]),
            starting_time=timedelta(days=time_control.get("reserve_days", 0)),
            increment=timedelta(0),
        )

    def starting_clocks(self) -> list[float]:
        """Each player's reserve or clock at the start, in seconds."""
        seconds = self.starting_time.total_seconds()
        return [seconds, seconds]

    def allowance(self, time_left: float) -> timedelta:
        """All the time a player with ``time_left`` has for a decision starting now."""
        return self.per_move + timedelta(seconds=time_left)

    def time_left_after(self, time_left: float, remaining: timedelta, moves: int) -> float:
        """The player's reserve or clock after a decision that ended with ``remaining`` of its
        allowance unused, having completed ``moves`` checker plays.

        Correspondence: time beyond the time per move came out of the reserve, so the reserve
        is what remains, at most what it was. Live: the clock is what remains, plus the
        increment for each completed move.
        """
        remaining_seconds = max(remaining.total_seconds(), 0.0)
        if self.live:
            return remaining_seconds + moves * self.increment.total_seconds()
        return min(time_left, remaining_seconds)


def add_increments(
    time_control: TimeControl, clocks: Sequence[float], moves: Sequence[int]
) -> list[float]:
    """Live clocks after ``moves[p]`` completed moves by each player made in no time."""
    if not time_control.live:
        return list(clocks)
    step = time_control.increment.total_seconds()
    return [clock + count * step for clock, count in zip(clocks, moves, strict=True)]


def warning_time(time_control: TimeControl, deadline: datetime) -> datetime | None:
    """When to warn the player of a correspondence deadline; live matches get no warning."""
    if time_control.live:
        return None
    return deadline - WARNING_BEFORE


# --- Vacation ---


def vacation_days_used(started: datetime, ended: datetime) -> int:
    """Vacation is used in whole days: any part of a day counts as a day, and at least one."""
    elapsed = max(ended - started, timedelta(0))
    whole, part = divmod(elapsed, DAY)
    return max(int(whole) + (1 if part else 0), 1)
