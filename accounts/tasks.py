"""Celery tasks of the accounts app."""

from __future__ import annotations

from celery import shared_task

from accounts.guests import purge_idle_guests


@shared_task
def purge_guests() -> str:
    """Remove guests idle for 30 days, with their matches (daily, from beat)."""
    guests, matches = purge_idle_guests()
    return f"removed {guests} guests and {matches} matches"
