"""Helpers for the bot and analysis tests (tests/conftest.py runs Celery tasks eagerly)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from tests.games.factories import migration_made_rows


def bot(name: str) -> Any:
    """One of the four bots the migrations create (made again if a transactional test ran
    before and emptied the database)."""
    migration_made_rows()
    return get_user_model().objects.get(username=name)
