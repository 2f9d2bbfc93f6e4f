"""What clients that poll and retry rely on: ETags and 304s, and Idempotency-Key replays."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

from games import selectors
from games.models import Challenge, IdempotencyRecord, Match, MatchEvent
from games.services import idempotency, turns
from tests.games.api.conftest import actions, assert_error, client_for, detail, footprint, opened
from tests.games.factories import act, script_dice

pytestmark = pytest.mark.django_db


# --- ETag and 304 -------------------------------------------------------------------------------


def test_the_state_carries_an_etag_and_a_matching_if_none_match_gets_304(match, bob):
    client = client_for(bob)
    first = client.get(detail(match))
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert first.json()["seq"] == match.seq

    for header in [etag, f"W/{etag}", f'"something-else", {etag}', f'W/"old", W/{etag} , "x"']:
        again = client.get(detail(match), HTTP_IF_NONE_MATCH=header)
        assert again.status_code == 304, header
        assert again.content == b""
        assert again["ETag"] == etag


@pytest.mark.parametrize("header", ['"m1-s1-p1"', '"nope"', "", "W/", ","])
def test_an_if_none_match_that_does_not_match_gets_the_state(match, bob, header):
    response = client_for(bob).get(detail(match), HTTP_IF_NONE_MATCH=header)

    assert response.status_code == 200
    assert response.json()["id"] == match.pk


def test_a_new_seq_gives_a_new_etag(dice, match, bob):
    client = client_for(bob)
    old = client.get(detail(match))["ETag"]
    dice.add(2, 1)

    acted = client.post(actions(match), {"seq": match.seq, "action": "roll"}, format="json")
    assert acted.status_code == 200
    response = client.get(detail(match), HTTP_IF_NONE_MATCH=old)

    assert response.status_code == 200
    assert response.json()["seq"] == match.seq + 1
    assert response["ETag"] != old
    assert acted["ETag"] == response["ETag"]  # the action's answer is the state polled next
    assert client.get(detail(match), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_each_viewer_has_their_own_etag(match, alice, bob, carol):
    anonymous = client_for(None).get(detail(match))["ETag"]
    tags = {
        "alice": client_for(alice).get(detail(match))["ETag"],
        "bob": client_for(bob).get(detail(match))["ETag"],
    }
    assert len({anonymous, *tags.values()}) == 3

    # Alice sending Bob's tag gets her own state, not a 304 for his.
    response = client_for(alice).get(detail(match), HTTP_IF_NONE_MATCH=tags["bob"])
    assert response.status_code == 200
    assert response.json()["you"] == 0
    assert response["ETag"] == tags["alice"]
    # A spectator sees what an anonymous viewer sees.
    spectator = client_for(carol).get(detail(match), HTTP_IF_NONE_MATCH=anonymous)
    assert spectator.status_code == 304


def test_different_matches_have_different_etags(dice, alice, bob, carol):
    first = opened(dice, alice, bob)
    second = opened(dice, alice, carol)
    assert first.seq == second.seq
    client = client_for(alice)

    tag = client.get(detail(first))["ETag"]

    assert client.get(detail(second), HTTP_IF_NONE_MATCH=tag).status_code == 200


@pytest.mark.parametrize(("who", "queries"), [("anonymous", 1), ("player", 2)])
def test_a_304_reads_only_what_its_etag_needs(match, bob, who, queries, django_assert_num_queries):
    """The match's seq, deadline and players (and the caller's token): not the players' rows."""
    client = client_for(bob if who == "player" else None)
    etag = client.get(detail(match))["ETag"]

    with django_assert_num_queries(queries):
        response = client.get(detail(match), HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 304
    assert response["ETag"] == etag


def test_a_stale_etag_gets_the_whole_state_with_the_new_one(dice, match, bob):
    client = client_for(bob)
    etag = client.get(detail(match))["ETag"]
    dice.add(3, 1)
    act(match, bob, "roll")

    response = client.get(detail(match), HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert response["ETag"] != etag
    assert response.json()["phase"] == "moving"
    assert client.get(detail(match), HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304


def test_an_etag_for_a_missing_match_is_a_404(bob):
    response = client_for(bob).get("/api/matches/999999/", HTTP_IF_NONE_MATCH='"m999999-s1-px-dx"')

    assert response.status_code == 404


@pytest.mark.parametrize(("action", "queries"), [("roll", 6), ("move", 6)])
def test_an_action_costs_a_few_queries(
    dice, match, bob, action, queries, django_assert_max_num_queries
):
    """The token, the lock (with both players and their preferences), the events in one
    insert and the match (the dice statistics count the log's rolls later); the news after the
    commit is tests/perf/test_action_queries.py's."""
    client = client_for(bob)
    dice.add(3, 1)
    if action == "move":
        match = act(match, bob, "roll")
    body = {"seq": match.seq, "action": action}
    if action == "move":
        body["play"] = "8/5 6/5"
    client.get(detail(match))  # the player's presence, written once a minute, is recorded

    with django_assert_max_num_queries(queries):
        response = client.post(actions(match), body, format="json")

    assert response.status_code == 200, response.content


# --- Idempotency-Key ----------------------------------------------------------------------------


def test_a_retried_action_is_answered_from_the_first_answer(dice, match, bob):
    client = client_for(bob)
    dice.add(2, 1)
    body = {"seq": match.seq, "action": "roll"}

    first = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="roll-1")
    assert first.status_code == 200, first.content
    assert "Idempotent-Replayed" not in first
    events = MatchEvent.objects.count()
    written = footprint()

    for _ in range(2):
        again = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="roll-1")

        assert again.status_code == first.status_code
        assert again.json() == first.json()
        assert again["Idempotent-Replayed"] == "true"
        assert MatchEvent.objects.count() == events
        assert footprint() == written
    assert dice.left == []
    assert first.json()["dice"] == [2, 1]


def test_a_key_reused_for_a_different_request_is_refused(dice, match, alice, bob, carol):
    client = client_for(bob)
    dice.add(2, 1)
    first = client.post(
        actions(match),
        {"seq": match.seq, "action": "roll"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert first.status_code == 200
    other = opened(dice, carol, bob)
    before = footprint()

    for url, body in [
        (actions(match), {"seq": match.seq, "action": "double"}),
        (actions(match), {"seq": match.seq + 1, "action": "roll"}),
        (actions(other), {"seq": match.seq, "action": "roll"}),
        ("/api/challenges/", {"opponent": "alice"}),
    ]:
        response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k")

        body = assert_error(response, 400, "idempotency_key_reused")
        assert footprint() == before


def test_keys_are_per_user(dice, match, alice, bob):
    dice.add(2, 1)
    bobs = client_for(bob).post(
        actions(match),
        {"seq": match.seq, "action": "roll"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="same",
    )
    assert bobs.status_code == 200
    bob_view = bobs.json()
    play = bob_view["legal_plays"][0]
    moved = client_for(bob).post(
        actions(match),
        {"seq": bob_view["seq"], "action": "move", "play": play},
        format="json",
        HTTP_IDEMPOTENCY_KEY="bob-2",
    )
    assert moved.status_code == 200, moved.content
    seq = moved.json()["seq"]
    assert moved.json()["to_act"] == "alice"
    dice.add(6, 5)

    # Alice's "same" is her own key: her action runs.
    alices = client_for(alice).post(
        actions(match),
        {"seq": seq, "action": "roll"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="same",
    )

    assert alices.status_code == 200, alices.content
    assert "Idempotent-Replayed" not in alices
    assert alices.json()["seq"] > seq
    assert alices.json()["dice"] == [6, 5]
    assert IdempotencyRecord.objects.filter(key="same").count() == 2


def test_a_refused_request_is_not_remembered(dice, match, bob):
    client = client_for(bob)
    stale = {"seq": match.seq - 1, "action": "roll"}
    before = footprint()

    refused = client.post(actions(match), stale, format="json", HTTP_IDEMPOTENCY_KEY="r")
    assert_error(refused, 409, "stale")
    assert footprint() == before

    dice.add(2, 1)
    fresh = client.post(
        actions(match),
        {"seq": match.seq, "action": "roll"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="r2",
    )
    assert fresh.status_code == 200
    again = client.post(actions(match), stale, format="json", HTTP_IDEMPOTENCY_KEY="r")
    body = assert_error(again, 409, "stale")
    assert body["current_seq"] == match.seq + 1


def test_a_too_long_key_is_invalid(match, bob):
    before = footprint()

    response = client_for(bob).post(
        actions(match),
        {"seq": match.seq, "action": "double"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 101,
    )

    body = assert_error(response, 400, "invalid")
    assert "Idempotency-Key" in body["fields"]
    assert footprint() == before


def test_a_challenge_posted_twice_with_a_key_is_one_challenge(alice, bob):
    client = client_for(alice)
    body = {"opponent": "bob", "match_length": 3, "rated": False}

    first = client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY="c1")
    second = client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY="c1")

    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Challenge.objects.count() == 1
    third = client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY="c2")
    assert third.status_code == 201
    assert Challenge.objects.count() == 2


def test_an_accept_retried_with_a_key_starts_one_match(dice, alice, bob):
    challenge = client_for(alice).post("/api/challenges/", {"opponent": "bob"}, format="json")
    url = f"/api/challenges/{challenge.json()['id']}/accept/"
    client = client_for(bob)
    dice.add(3, 1)

    first = client.post(url, format="json", HTTP_IDEMPOTENCY_KEY="a1")
    second = client.post(url, format="json", HTTP_IDEMPOTENCY_KEY="a1")

    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert Match.objects.count() == 1
    # Without the key, the retry is refused: the challenge is no longer open.
    assert_error(client.post(url, format="json"), 400, "challenge_closed")
    assert Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_retry_sent_while_the_first_request_is_still_running_is_replayed(monkeypatch, alice, bob):
    """The retry a client sends when its first request timed out: it arrives while the first
    still holds the match. It must get the first answer (200, replayed), not a 409 for the
    seq the first request moved on. PostgreSQL only (row locks, concurrent connections)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL's row locks and concurrent connections")
    dice = iter([3, 1])
    entered, go = threading.Event(), threading.Event()

    def slow_roll(match: Any) -> tuple[int, int]:
        entered.set()
        assert go.wait(timeout=30)
        return next(dice, 2), next(dice, 2)

    match = opened(script_dice(monkeypatch, 3, 1), alice, bob)
    monkeypatch.setattr(turns, "next_roll", slow_roll)
    entered.clear()
    body = {"seq": match.seq, "action": "roll"}
    answers: dict[str, Any] = {}

    def post(name: str) -> None:
        try:
            answers[name] = client_for(bob).post(
                actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="slow"
            )
        finally:
            connection.close()

    first = threading.Thread(target=post, args=("first",))
    first.start()
    assert entered.wait(timeout=30)  # the first request holds the match's lock now
    retry = threading.Thread(target=post, args=("retry",))
    retry.start()
    time.sleep(1)  # the retry reaches the match's lock and waits there
    go.set()
    first.join(timeout=60)
    retry.join(timeout=60)
    assert not first.is_alive() and not retry.is_alive()

    assert answers["first"].status_code == 200, answers["first"].content
    assert MatchEvent.objects.filter(match=match).count() == match.seq + 1
    assert answers["retry"].status_code == 200, answers["retry"].content
    assert answers["retry"].json() == answers["first"].json()
    assert answers["retry"]["Idempotent-Replayed"] == "true"


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_built_after_the_action_has_committed(monkeypatch, alice, bob):
    """With a key, the action and its record commit together; the match's lock is released
    before the answer is built, and the answer then kept for the retries."""
    dice = script_dice(monkeypatch)
    match = opened(dice, alice, bob)
    dice.add(2, 1)
    building = []
    match_view = selectors.match_view

    def watched(*args: Any, **kwargs: Any) -> Any:
        record = IdempotencyRecord.objects.get(key="after")
        building.append((connection.in_atomic_block, record.status_code))
        return match_view(*args, **kwargs)

    monkeypatch.setattr(selectors, "match_view", watched)
    client = client_for(bob)
    body = {"seq": match.seq, "action": "roll"}

    first = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="after")
    again = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="after")

    assert first.status_code == again.status_code == 200, first.content
    assert building == [(False, None)]  # committed and claimed, not yet answered
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert IdempotencyRecord.objects.get(key="after").body == first.json()


def test_a_retry_waits_for_the_answer_being_built(dice, match, bob, monkeypatch):
    client = client_for(bob)
    dice.add(2, 1)
    body = {"seq": match.seq, "action": "roll"}
    first = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="w")
    record = IdempotencyRecord.objects.get(key="w")
    IdempotencyRecord.objects.filter(pk=record.pk).update(status_code=None, body=None)
    waits = []

    def answered_meanwhile(seconds: float) -> None:
        waits.append(seconds)
        IdempotencyRecord.objects.filter(pk=record.pk).update(status_code=200, body=first.json())

    monkeypatch.setattr(idempotency.time, "sleep", answered_meanwhile)

    again = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="w")

    assert len(waits) == 1
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


def test_a_match_action_never_answered_is_answered_from_the_match_now(
    dice, match, bob, monkeypatch
):
    """The first request died between its commit and keeping its answer: the retry builds the
    answer again from the match, acting on nothing, and keeps it for the retries after it."""
    client = client_for(bob)
    dice.add(2, 1)
    body = {"seq": match.seq, "action": "roll"}
    first = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    IdempotencyRecord.objects.filter(key="lost").update(status_code=None, body=None)
    monkeypatch.setattr(idempotency, "ANSWER_WAIT", timedelta(0))
    before = footprint()

    again = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    third = client.post(actions(match), body, format="json", HTTP_IDEMPOTENCY_KEY="lost")

    assert again.status_code == third.status_code == 200, again.content
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json() == third.json()
    assert IdempotencyRecord.objects.get(key="lost").body == first.json()
    assert footprint() == before


def test_another_post_never_answered_is_a_conflict_that_says_so(alice, bob, monkeypatch):
    """A challenge's answer names the challenge the first request made, which a retry cannot
    know: it is refused, saying that the first request was carried out."""
    client = client_for(alice)
    body = {"opponent": "bob"}
    client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost")
    IdempotencyRecord.objects.filter(key="lost").update(status_code=None, body=None)
    monkeypatch.setattr(idempotency, "ANSWER_WAIT", timedelta(0))
    before = footprint()

    again = client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY="lost")

    error = assert_error(again, 409, "idempotency_answer_pending")
    assert "carried out" in error["message"]
    assert footprint() == before
    assert Challenge.objects.count() == 1
