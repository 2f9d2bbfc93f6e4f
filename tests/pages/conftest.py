"""Fixtures for the page tests: players, signed-in clients and scripted dice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.games.factories import make_user, script_dice


@pytest.fixture(autouse=True)
def _empty_cache() -> Any:
    """The replay keeps replayed logs in the cache; no test sees another's."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    return script_dice(monkeypatch)


@pytest.fixture
def alice(db: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_user("carol")


@pytest.fixture
def signed_in(db: Any) -> Callable[[Any], Client]:
    """A fresh browser signed in as the given player."""

    def sign_in(user: Any) -> Client:
        browser = Client()
        browser.force_login(user)
        return browser

    return sign_in
