"""Both players' time in a match as it stands: what the match page, the admin and the API
show of the clocks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Clocks:
    """Both players' time. The clock of ``running`` (a player's name, or None) runs until the
    match's deadline; ``time_left_seconds`` is each player's time as it stood when their last
    decision ended, and ``paused_time_left_seconds`` the time left of a player whose vacation
    pauses it. ``kind`` is ``correspondence``, ``live`` or ``untimed``."""

    kind: str
    per_move_seconds: float
    increment_seconds: float
    time_left_seconds: tuple[float, float]
    running: str | None
    paused_time_left_seconds: float | None
