"""Fixtures for the REST API tests: players with passwords, API clients signed in with real
knox tokens, scripted dice, and helpers that check nothing was written.

Every test starts with an empty cache: DRF keeps its throttle counts there, and the
anonymous limit (120/minute by default) would otherwise carry over between tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Challenge, IdempotencyRecord, Match, MatchEvent
from tests.games.factories import act, make_user, script_dice, start_match

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fresh_cache_and_fast_passwords(settings: Any) -> Iterator[None]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def make_player(name: str, **fields: Any) -> Any:
    """A user called ``name`` who can sign in with PASSWORD."""
    user = make_user(name, **fields)
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])
    return user


def client_for(user: Any | None) -> APIClient:
    """An API client sending ``Authorization: Token <token>`` for ``user``; anonymous if None."""
    client = APIClient()
    if user is not None:
        _, token = AuthToken.objects.create(user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Any:
    return script_dice(monkeypatch)


@pytest.fixture
def alice(db: Any) -> Any:
    return make_player("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_player("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_player("carol")


@pytest.fixture
def moderator(db: Any) -> Any:
    """Staff with games.moderate_match, read back so the permission cache is fresh."""
    user = make_player("mod", is_staff=True)
    user.user_permissions.add(
        Permission.objects.get(codename="moderate_match", content_type__app_label="games")
    )
    user = type(user).objects.get(pk=user.pk)
    assert user.has_perm("games.moderate_match")
    return user


@pytest.fixture
def clients(db: Any) -> Callable[[Any | None], APIClient]:
    return client_for


def opened(dice: Any, alice: Any, bob: Any, *, length: int = 5) -> Match:
    """Alice opened with 3-1 and played 8/5 6/5; Bob is on roll and may roll or double."""
    dice.add(3, 1)
    match = start_match(alice, bob, length=length)
    return act(match, alice, "move", play="8/5 6/5")


def footprint() -> dict[str, Any]:
    """What a refused request must leave as it was."""
    return {
        "matches": sorted(Match.objects.values_list("pk", "seq", "status", "head_digest")),
        "events": MatchEvent.objects.count(),
        "challenges": sorted(Challenge.objects.values_list("pk", "status", "opponent_id")),
        "idempotency": IdempotencyRecord.objects.count(),
    }


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The one error shape: JSON with a string code and a string message, and nothing else
    but ``fields`` (with code invalid) or ``current_seq`` (with code stale)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body, dict), body
    assert isinstance(body.get("code"), str) and body["code"], body
    assert isinstance(body.get("message"), str) and body["message"].strip(), body
    assert set(body) <= {"code", "message", "fields", "current_seq"}, body
    if "fields" in body:
        assert isinstance(body["fields"], dict), body
        for name, problems in body["fields"].items():
            assert isinstance(name, str), body
            assert isinstance(problems, list) and problems, body
            assert all(isinstance(problem, str) for problem in problems), body
    if "current_seq" in body:
        assert isinstance(body["current_seq"], int), body
    if code is not None:
        assert body["code"] == code, body
    return body
