"""Fixtures for the bot and analysis tests: Celery runs tasks in the test's own process, and
analyses search 1 ply deep (bgsage's evaluations are the slow part of these tests)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from backgammon_site.celery import app


@pytest.fixture(autouse=True)
def _eager_celery_and_shallow_analysis(settings: Any) -> Iterator[None]:
    settings.MATCH_ANALYSIS_PLIES = 1
    eager, propagates = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = eager, propagates


def bot(name: str) -> Any:
    """One of the four bots the migrations create."""
    return get_user_model().objects.get(username=name)
