"""Caching headers: an answer that depends on who asks is the browser's alone and says what
tells viewers apart; an answer the same for everyone is left to the caches."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils.cache import get_max_age
from django.utils.cache import has_vary_header as varies_by

from tests.games.api.conftest import client_for, detail
from tests.games.factories import PASSWORD

pytestmark = pytest.mark.django_db


def cache_control(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def per_viewer_api_answer(response: Any) -> bool:
    return (
        "private" in cache_control(response)
        and varies_by(response, "Authorization")
        and varies_by(response, "Cookie")
    )


def test_the_match_state_is_private_to_its_viewer_as_is_its_304(match, bob):
    client = client_for(bob)
    first = client.get(detail(match))
    unchanged = client.get(detail(match), HTTP_IF_NONE_MATCH=first["ETag"])

    assert first.status_code == 200 and per_viewer_api_answer(first)
    assert unchanged.status_code == 304 and per_viewer_api_answer(unchanged)
    assert unchanged["ETag"] == first["ETag"]


def test_every_api_answer_that_depends_on_the_caller_is_private(match, alice, bob):
    player = client_for(bob)
    session = Client()
    session.force_login(alice)
    answers = [
        player.get("/api/matches/?mine=1"),
        player.get(f"/api/matches/{match.pk}/events/"),
        player.get("/api/vacation/"),
        player.post(f"/api/matches/{match.pk}/actions/", {"seq": 0}, format="json"),
        client_for(None).get(detail(match)),
        client_for(None).get("/api/matches/?mine=1"),
        session.get(detail(match)),
    ]

    for response in answers:
        assert per_viewer_api_answer(response), (response.status_code, response.headers)


def test_a_new_token_is_never_stored_by_any_cache(bob):
    answer = client_for(None).post(
        "/api/auth/token/", {"username": "bob", "password": PASSWORD}, format="json"
    )

    assert answer.status_code == 201
    assert {"no-store", "private"} <= cache_control(answer)
    assert get_max_age(answer) == 0


def test_the_tokens_page_that_shows_a_new_secret_is_never_stored(signed_in, bob):
    browser = signed_in(bob)
    page = browser.post("/settings/api-tokens/new/", follow=True)

    assert page.status_code == 200 and page.context["new_token"]
    assert {"no-store", "private"} <= cache_control(page)


def test_pages_are_private_to_the_session_that_reads_them(signed_in, match, bob):
    browser = signed_in(bob)
    pages = [
        browser.get("/"),
        browser.get(f"/matches/{match.pk}/"),
        Client().get(f"/matches/{match.pk}/replay/"),
        Client().get("/leaderboard/"),
    ]

    for page in pages:
        assert page.status_code == 200
        assert "private" in cache_control(page), page.headers
        assert varies_by(page, "Cookie"), page.headers
        assert not varies_by(page, "Authorization"), page.headers


def test_answers_the_same_for_everyone_are_left_to_the_caches(client):
    schema = client.get("/api/schema/")
    redoc = client.get("/api/redoc/")
    static = client.get("/static/games/site.css")

    for response in (schema, redoc, static):
        assert response.status_code == 200
        assert "private" not in cache_control(response), response.headers
        assert not varies_by(response, "Authorization"), response.headers
