"""Helpers for the REST API tests: API clients signed in with real knox tokens, and checks that
nothing was written. The players, the moderator and the dice are tests/conftest.py's; every
test starts with an empty cache there, where DRF keeps its throttle counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Challenge, IdempotencyRecord, Match, MatchEvent
from tests.games.factories import act, start_match


def client_for(user: Any | None) -> APIClient:
    """An API client sending ``Authorization: Token <token>`` for ``user``; anonymous if None."""
    client = APIClient()
    if user is not None:
        _, token = AuthToken.objects.create(user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


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


@pytest.fixture
def match(dice, alice, bob) -> Match:
    """Bob is on roll (he may roll or double)."""
    return opened(dice, alice, bob)


def detail(match: Match) -> str:
    return f"/api/matches/{match.pk}/"


def actions(match: Match) -> str:
    return f"/api/matches/{match.pk}/actions/"
