"""A rating as it stands today: the stored rating with its deviation widened for the rating
periods the player has been idle since their last rated match.

Pure: every reader (the leaderboard, profiles, match lists, the API) and the service that rates
a match go through ``deviation_today``, told the settings' values, and nothing is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from ratings import glicko2


def idle_periods(last_rated_at: datetime | None, now: datetime, period: timedelta) -> int:
    """Full rating periods from ``last_rated_at`` to ``now``; none for a player never rated.

    >>> from datetime import timezone
    >>> last = datetime(2026, 1, 1, tzinfo=timezone.utc)
    >>> week = timedelta(days=7)
    >>> idle_periods(last, last + 3 * week - timedelta(seconds=1), week)
    2
    >>> idle_periods(last, last + 3 * week, week), idle_periods(None, last, week)
    (3, 0)
    """
    if last_rated_at is None or now <= last_rated_at:
        return 0
    return math.floor((now - last_rated_at) / period)


def deviation_today(
    deviation: float,
    volatility: float,
    last_rated_at: datetime | None,
    now: datetime,
    *,
    period: timedelta,
    cap: float,
) -> float:
    """The deviation at ``now``: widened once for each full rating period since the player's
    last rated match, as Glicko-2 widens it for a period without games, never beyond ``cap``."""
    periods = idle_periods(last_rated_at, now, period)
    if periods > 0:
        deviation = glicko2.widened(deviation, volatility, periods)
    return min(deviation, cap)


@dataclass(frozen=True)
class RatingToday:
    """What pages and the API show of a player's rating: the stored values, with the deviation
    as it stands at the time of reading and whether that makes the rating provisional."""

    user: Any
    variant: str
    rating: float
    deviation: float
    volatility: float
    rated_matches: int
    last_rated_at: datetime | None
    is_provisional: bool
    fibs_rating: float
    fibs_experience: int
