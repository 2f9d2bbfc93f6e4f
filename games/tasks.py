"""Celery tasks. Each is safe to run twice or late: the services act only on what is due."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from games import deadlines, services


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def enforce_deadline(self: Any, match_id: int, seq: int) -> None:
    """The countdown of one decision: at its deadline, the player to act loses on time."""
    check = services.match_timeout(match_id=match_id, seq=seq)
    if check.deadline is not None and not self.request.is_eager:
        self.apply_async((match_id, seq), eta=check.deadline)


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True, expires=55)
def sweep_deadlines() -> None:
    """Every minute: timeouts due, deadline warnings, vacations used up, countdowns to start."""
    deadlines.sweep()
