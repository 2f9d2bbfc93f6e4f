"""Vacations: a player's correspondence deadlines pause while they are away, for as many days
as they have saved up."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Profile
from accounts.vacation import VacationAllowance
from backgammon_site.core.errors import ApplicationError
from games.clocks.rules import TimeControl, vacation_days_used
from games.models import Match, Player
from games.services.announcements import announce
from games.services.deadlines import set_deadline
from games.services.locks import locked_profile


def vacation_start(*, user: Player) -> Profile:
    """Pause all of ``user``'s correspondence deadlines (never their opponents') until they act,
    switch it off, or run out of vacation days."""
    now = timezone.now()
    with transaction.atomic():
        profile = locked_profile(user)
        if profile.vacation_started_at is not None:
            raise ApplicationError(_("You are already on vacation."), "vacation_on")
        allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until).at(now)
        profile.vacation_days, profile.vacation_counted_until = (
            allowance.days,
            allowance.counted_until,
        )
        if allowance.days < 1:
            profile.save(update_fields=["vacation_days", "vacation_counted_until"])
            raise ApplicationError(_("You have no vacation days left."), "no_vacation_days")
        profile.vacation_started_at = now
        profile.save(
            update_fields=["vacation_days", "vacation_counted_until", "vacation_started_at"]
        )
        for match in _correspondence_matches_waiting_for(user, paused=False):
            assert match.deadline is not None
            match.paused_time_left = max((match.deadline - now).total_seconds(), 0.0)
            match.deadline = match.warn_at = None
            match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
            announce(match)
    return profile


def vacation_end(*, user: Player, at: datetime | None = None) -> Profile:
    """End ``user``'s vacation (at ``at``, default now): whole days are used, and the paused
    deadlines run again from where they stopped."""
    with transaction.atomic():
        profile = locked_profile(user)
        started = profile.vacation_started_at
        if started is None:
            return profile
        ended = min(at or timezone.now(), timezone.now())
        allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until).at(
            ended
        )
        used = vacation_days_used(started, ended)
        profile.vacation_days = max(allowance.days - used, 0)
        profile.vacation_counted_until = allowance.counted_until
        profile.vacation_started_at = None
        profile.save(
            update_fields=["vacation_days", "vacation_counted_until", "vacation_started_at"]
        )
        for match in _correspondence_matches_waiting_for(user, paused=True):
            assert match.paused_time_left is not None
            set_deadline(
                match,
                control=TimeControl.of(match.time_control),
                deadline=ended + timedelta(seconds=match.paused_time_left),
                now=ended,
            )
            match.paused_time_left = None
            match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
            announce(match)
    return profile


def _correspondence_matches_waiting_for(user: Player, *, paused: bool) -> list[Match]:
    matches = (
        Match.objects.select_for_update()
        .filter(to_act=user, status=Match.Status.ACTIVE)
        .filter(paused_time_left__isnull=not paused, deadline__isnull=paused)
        .order_by("pk")
    )
    return [match for match in matches if not TimeControl.of(match.time_control).live]
