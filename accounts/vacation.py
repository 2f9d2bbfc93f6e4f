"""Vacation days: how a player earns them. What a vacation does to matches is the games app's
(games.services pauses and resumes the player's deadlines)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any


@dataclass(frozen=True, slots=True)
class VacationAllowance:
    """Vacation days are earned over time: ``EARN_DAYS`` every ``EARN_PERIOD``, up to ``CAP``."""

    days: int
    counted_until: datetime

    EARN_DAYS = 2
    EARN_PERIOD = timedelta(days=30)
    CAP = 30

    def at(self, now: datetime) -> VacationAllowance:
        """The allowance with every whole period earned up to ``now`` added."""
        periods = max(int((now - self.counted_until) / self.EARN_PERIOD), 0)
        if periods == 0:
            return self
        earned = min(self.days + periods * self.EARN_DAYS, self.CAP)
        return VacationAllowance(earned, self.counted_until + periods * self.EARN_PERIOD)


def days_available(profile: Any, now: datetime) -> int:
    """The vacation days the player of ``profile`` has at ``now``, those earned since included."""
    return VacationAllowance(profile.vacation_days, profile.vacation_counted_until).at(now).days


def vacation_ends_at(profile: Any) -> datetime | None:
    """When the vacation now on runs out of days."""
    if profile.vacation_started_at is None:
        return None
    allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until)
    return profile.vacation_started_at + timedelta(
        days=allowance.at(profile.vacation_started_at).days
    )
