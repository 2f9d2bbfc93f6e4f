"""The match list's pagination and filters, and throttling."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from django.db import connection
from rest_framework.throttling import SimpleRateThrottle

from games.models import Match
from tests.games.api.conftest import actions, assert_error, client_for, detail, footprint
from tests.games.factories import act, start_match, state_of

pytestmark = pytest.mark.django_db


# --- The match list: pagination and filters ----------------------------------------------------


@pytest.fixture
def many(dice, alice, bob, carol) -> dict[str, Match]:
    """Made in this order, so newest activity first is f1, c1, a2, b1, a1."""
    dice.add(3, 1)
    a1 = start_match(alice, bob)  # Alice to act
    dice.add(3, 1)
    b1 = start_match(bob, alice)  # Bob to act
    dice.add(1, 3)
    a2 = start_match(carol, alice)  # Alice (second player) to act
    dice.add(3, 1)
    c1 = start_match(bob, carol)  # Bob to act
    dice.add(3, 1)
    f1 = start_match(alice, carol, length=1)
    f1 = act(f1, alice, "resign", points=1)
    f1 = act(f1, carol, "accept_resign")
    assert f1.status == "finished"
    assert [m.to_act for m in (a1, b1, a2, c1)] == [alice, bob, alice, bob]
    return {"a1": a1, "b1": b1, "a2": a2, "c1": c1, "f1": f1}


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def names(many: dict[str, Match], *keys: str) -> list[int]:
    return [many[key].pk for key in keys]


def test_the_list_is_paginated(many):
    client = client_for(None)

    first = client.get("/api/matches/?page_size=2")
    body = first.json()

    assert body["count"] == 5
    assert ids(first) == names(many, "f1", "c1")
    assert body["previous"] is None
    query = parse_qs(urlparse(body["next"]).query)
    assert query == {"page": ["2"], "page_size": ["2"]}

    second = client.get(body["next"])
    assert ids(second) == names(many, "a2", "b1")
    assert second.json()["previous"] is not None
    third = client.get(second.json()["next"])
    assert ids(third) == names(many, "a1")
    assert third.json()["next"] is None
    assert client.get("/api/matches/?page_size=1000").json()["count"] == 5
    row = client.get("/api/matches/").json()["results"][0]
    assert set(row) == {
        "id",
        "seq",
        "status",
        "players",
        "match_length",
        "score",
        "rated",
        "to_act",
        "winner",
        "updated_at",
    }
    assert (row["status"], row["winner"], row["to_act"]) == ("finished", "carol", None)


def test_filters_by_status_and_player(many):
    client = client_for(None)

    assert ids(client.get("/api/matches/?status=finished")) == names(many, "f1")
    assert ids(client.get("/api/matches/?status=active")) == names(many, "c1", "a2", "b1", "a1")
    assert ids(client.get("/api/matches/?player=carol")) == names(many, "f1", "c1", "a2")
    assert ids(client.get("/api/matches/?player=carol&status=active")) == names(many, "c1", "a2")
    assert ids(client.get("/api/matches/?player=nobody")) == []


@pytest.mark.parametrize("flag", ["1", "true", "yes"])
def test_mine_lists_your_matches_awaiting_you_first(many, alice, flag):
    client = client_for(alice)

    assert ids(client.get(f"/api/matches/?mine={flag}")) == names(many, "a2", "a1", "f1", "b1")
    assert ids(client.get(f"/api/matches/?mine={flag}&status=active")) == names(
        many, "a2", "a1", "b1"
    )
    paged = client.get(f"/api/matches/?mine={flag}&page_size=1&page=2")
    assert ids(paged) == names(many, "a1")
    assert paged.json()["count"] == 4


def test_mine_off_lists_everything(many, alice):
    assert len(ids(client_for(alice).get("/api/matches/?mine=0"))) == 5


def test_mine_needs_a_signed_in_user(many):
    assert_error(client_for(None).get("/api/matches/?mine=1"), 401, "not_authenticated")


# --- Throttling --------------------------------------------------------------------------------


@pytest.fixture
def low_rates(settings, monkeypatch):
    """Anonymous 3 and signed-in 5 requests a minute.

    DRF reads the rates into SimpleRateThrottle.THROTTLE_RATES when it is imported, so
    overriding settings.REST_FRAMEWORK alone does not reach the throttles: patch both.
    """
    rates = {"anon": "3/minute", "user": "5/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    from django.core.cache import cache

    cache.clear()
    return rates


def test_the_fourth_anonymous_request_is_throttled(low_rates, match):
    client = client_for(None)
    for path in ["/api/matches/", detail(match), f"/api/matches/{match.pk}/events/"]:
        assert client.get(path).status_code == 200

    response = client.get("/api/matches/")

    body = assert_error(response, 429, "throttled")
    assert int(response["Retry-After"]) > 0
    assert "throttled" in body["message"].lower() or "second" in body["message"]


def test_token_requests_are_throttled_as_anonymous(low_rates, alice):
    client = client_for(None)
    for _ in range(3):
        wrong = client.post(
            "/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json"
        )
        assert wrong.status_code == 400
    before = footprint()

    response = client.post(
        "/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json"
    )

    assert_error(response, 429, "throttled")
    assert footprint() == before


def test_a_throttled_action_writes_nothing(low_rates, match, bob):
    client = client_for(bob)
    for _ in range(5):
        assert client.get(detail(match)).status_code == 200
    before = footprint()

    response = client.post(actions(match), {"seq": match.seq, "action": "double"}, format="json")

    assert_error(response, 429, "throttled")
    assert footprint() == before
    # Another player has their own allowance.
    assert client_for(match.first_player).get(detail(match)).status_code == 200


def test_the_rates_come_from_the_environment(run_python):
    code = (
        "import django; django.setup()\n"
        "from rest_framework.throttling import AnonRateThrottle, UserRateThrottle\n"
        "print(AnonRateThrottle().get_rate(), UserRateThrottle().get_rate())\n"
    )
    result = run_python(
        code,
        {
            "DJANGO_SETTINGS_MODULE": "backgammon_site.settings",
            "DJANGO_SECRET_KEY": "test",
            "API_THROTTLE_ANON": "7/hour",
            "API_THROTTLE_USER": "11/minute",
        },
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["7/hour", "11/minute"]


def test_reading_the_state_costs_the_same_queries_however_long_the_log(dice, alice, bob, carol):
    from django.test.utils import CaptureQueriesContext

    dice.add(3, 1)
    short = start_match(alice, bob, length=25)
    dice.add(1, 3)
    long = start_match(carol, bob, length=25)
    for _ in range(30):  # each game ended by a single resignation, the winners alternating
        turn = state_of(long).turn
        long = act(long, (carol, bob)[turn], "resign", points=1)
        dice.add(*((1, 3) if turn == 0 else (3, 1)))
        long = act(long, (carol, bob)[1 - turn], "accept_resign")
    assert long.seq > 90 > short.seq

    def reading(match, viewer):
        client = client_for(viewer)
        client.get(detail(match))  # the player's presence, written once a minute, is recorded
        with CaptureQueriesContext(connection) as queries:
            assert client.get(detail(match)).status_code == 200
        return len(queries)

    assert reading(short, bob) == reading(long, bob)
    assert reading(short, None) == reading(long, None)
