"""Helpers for the bot and analysis tests (tests/conftest.py runs Celery tasks eagerly)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
from django.contrib.auth import get_user_model

#: Debian's GNU Backgammon (package gnubg), where it is installed: CI installs it.
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
NO_GNUBG = "GNU Backgammon is not installed (Debian package: gnubg)"


def bot(name: str) -> Any:
    """One of the four bots the migrations create."""
    return get_user_model().objects.get(username=name)


@pytest.fixture
def gnubg(settings: Any) -> str:
    """Analyses in this test get gnubg's second opinion, at 0 ply (its quickest)."""
    if GNUBG is None:
        pytest.skip(NO_GNUBG)
    settings.GNUBG_PATH = GNUBG
    settings.GNUBG_ANALYSIS_PLIES = 0
    return GNUBG
