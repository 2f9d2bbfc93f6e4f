"""Fixtures for the notification tests: emails kept in memory, commits that run their on-commit
work, and a clock the test sets (the players, with email addresses, are tests/conftest.py's)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.utils import timezone


@pytest.fixture(autouse=True)
def _site_url(settings: Any) -> None:
    """Emails sent at once (tests/games/notifications/test_attention.py sets the delay)."""
    settings.SITE_URL = "https://backgammon.example"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.NOTIFICATION_DELAY = 0


@pytest.fixture
def committed(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Callable[[], AbstractContextManager[Any]]:
    """``with committed(): ...``: what runs after a commit (signals, tasks) runs at the end."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


class Clock:
    """timezone.now, frozen at ``now`` until the test moves it."""

    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, **delta: float) -> dt.datetime:
        self.now += dt.timedelta(**delta)
        return self.now

    def set(self, now: dt.datetime) -> None:
        self.now = now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock(dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC))
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen
