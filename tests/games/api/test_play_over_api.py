"""Whole matches played by two API clients using nothing but the API and real dice.

Alice challenges Bob, Bob accepts, and then both poll the match; whoever the match waits for
(``to_act``) acts with the seq they saw, until the match is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match
from tests.games.factories import PASSWORD

pytestmark = pytest.mark.django_db

MAX_STEPS = 3000

Choose = Callable[[str, dict[str, Any]], dict[str, Any]]


def sign_in(username: str) -> APIClient:
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code == 201, response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return client


def start_over_api(alice: APIClient, bob: APIClient, length: int) -> dict[str, Any]:
    response = alice.post(
        "/api/challenges/",
        {"opponent": "bob", "match_length": length, "rated": False},
        format="json",
    )
    assert response.status_code == 201, response.content
    challenge = response.json()
    assert (challenge["challenger"], challenge["opponent"], challenge["status"]) == (
        "alice",
        "bob",
        "open",
    )
    assert challenge["match_length"] == length

    incoming = bob.get("/api/challenges/?direction=incoming").json()["results"]
    assert [c["id"] for c in incoming] == [challenge["id"]]

    response = bob.post(f"/api/challenges/{challenge['id']}/accept/", format="json")
    assert response.status_code == 201, response.content
    state = response.json()
    assert isinstance(state["id"], int)
    assert state["players"] == ["alice", "bob"]
    assert state["status"] == "active"
    assert state["match_length"] == length
    assert state["you"] == 1
    return state


def first_legal(name: str, state: dict[str, Any]) -> dict[str, Any]:
    """Roll, take, or make the first legal play; never double, drop or resign."""
    actions = state["legal_actions"]
    if "move" in actions:
        assert state["legal_plays"], state
        return {"action": "move", "play": state["legal_plays"][0]}
    for action in ("roll", "take", "reject_resign"):
        if action in actions:
            return {"action": action}
    raise AssertionError(f"{name} has nothing to do: {actions}")


def doubler(answer: str) -> Choose:
    """Alice doubles whenever she may; Bob answers every double with ``answer``."""

    def choose(name: str, state: dict[str, Any]) -> dict[str, Any]:
        actions = state["legal_actions"]
        if name == "alice" and "double" in actions:
            return {"action": "double"}
        if name == "bob" and "take" in actions:
            assert set(actions) == {"take", "drop"}, actions
            return {"action": answer}
        return first_legal(name, state)

    return choose


def play_to_the_end(
    clients: dict[str, APIClient], match_id: int, choose: Choose
) -> dict[str, dict[str, Any]]:
    """Poll as both players and let the one awaited act, until the match is finished."""
    url = f"/api/matches/{match_id}/"
    for _ in range(MAX_STEPS):
        views = {}
        for name, client in clients.items():
            response = client.get(url)
            assert response.status_code == 200, response.content
            views[name] = response.json()
        seqs = {view["seq"] for view in views.values()}
        assert len(seqs) == 1, seqs
        anyone = next(iter(views.values()))
        if anyone["status"] == "finished":
            return views
        to_act = anyone["to_act"]
        assert to_act in clients, anyone
        for name, view in views.items():
            if name != to_act:
                assert view["legal_actions"] == [], (name, view)
                assert view["legal_plays"] == [], (name, view)
        mine = views[to_act]
        assert mine["legal_actions"], mine
        body = {"seq": mine["seq"], **choose(to_act, mine)}
        response = clients[to_act].post(f"{url}actions/", body, format="json")
        assert response.status_code == 200, (body, response.content)
        after = response.json()
        assert after["seq"] > mine["seq"], (body, after)
    raise AssertionError(f"the match did not finish in {MAX_STEPS} steps")


def assert_finished(clients: dict[str, APIClient], views: dict[str, dict[str, Any]]) -> int:
    alice_view = views["alice"]
    assert alice_view["winner"] in ("alice", "bob")
    assert alice_view["to_act"] is None
    winner = alice_view["players"].index(alice_view["winner"])
    assert alice_view["score"][winner] >= alice_view["match_length"]
    for view in views.values():
        assert view["status"] == "finished"
        assert view["winner"] == alice_view["winner"]
        assert view["legal_actions"] == []
        assert view["legal_plays"] == []

    seq = alice_view["seq"]
    response = clients["bob"].get(f"/api/matches/{alice_view['id']}/events/")
    assert response.status_code == 200
    events = response.json()
    assert [event["seq"] for event in events] == list(range(1, seq + 1))
    assert events[0]["kind"] == "match_started"
    assert events[0]["actor"] is None
    assert events[0]["payload"]["players"] == ["alice", "bob"]

    listed = clients["alice"].get("/api/matches/?mine=1&status=finished").json()
    assert [row["id"] for row in listed["results"]] == [alice_view["id"]]
    assert listed["results"][0]["winner"] == alice_view["winner"]
    return seq


def test_one_point_match_played_to_the_end_over_the_api(alice, bob):
    clients = {"alice": sign_in("alice"), "bob": sign_in("bob")}
    state = start_over_api(clients["alice"], clients["bob"], length=1)

    views = play_to_the_end(clients, state["id"], first_legal)

    seq = assert_finished(clients, views)
    kinds = [e["kind"] for e in clients["alice"].get(f"/api/matches/{state['id']}/events/").json()]
    assert "double" not in kinds  # the cube is dead in a 1-point match
    assert seq == views["alice"]["seq"]


@pytest.mark.slow
@pytest.mark.parametrize("answer", ["take", "drop"])
def test_three_point_match_with_the_cube_played_to_the_end_over_the_api(alice, bob, answer):
    clients = {"alice": sign_in("alice"), "bob": sign_in("bob")}
    state = start_over_api(clients["alice"], clients["bob"], length=3)

    views = play_to_the_end(clients, state["id"], doubler(answer))

    assert_finished(clients, views)
    events = clients["alice"].get(f"/api/matches/{state['id']}/events/").json()
    kinds = [event["kind"] for event in events]
    assert "double" in kinds
    assert answer in kinds
    assert {e["actor"] for e in events if e["kind"] == "double"} == {"alice"}
    assert {e["actor"] for e in events if e["kind"] == answer} == {"bob"}


@pytest.mark.parametrize("points", [1, 2, 3])
def test_a_match_won_by_more_points_than_it_needed_can_still_be_read(dice, alice, bob, points):
    """A 1-point match ended by a gammon or backgammon resignation: the winner's score (2 or 3)
    passes the match length, as it does whenever the last game is worth more than needed."""
    clients = {"alice": sign_in("alice"), "bob": sign_in("bob")}
    dice.add(3, 1, 2, 1)  # the opening roll (Alice plays first), then the server rolls for Bob
    state = start_over_api(clients["alice"], clients["bob"], length=1)
    url = f"/api/matches/{state['id']}/"
    state = clients["alice"].post(
        f"{url}actions/", {"seq": state["seq"], "action": "move", "play": "8/5 6/5"}, format="json"
    )
    assert state.status_code == 200, state.content
    state = state.json()
    assert state["to_act"] == "bob"

    resigned = clients["bob"].post(
        f"{url}actions/", {"seq": state["seq"], "action": "resign", "points": points}, format="json"
    )
    assert resigned.status_code == 200, resigned.content
    clients["alice"].raise_request_exception = False
    accepted = clients["alice"].post(
        f"{url}actions/", {"seq": resigned.json()["seq"], "action": "accept_resign"}, format="json"
    )

    stored = Match.objects.get(pk=state["id"])
    assert (stored.status, stored.winner) == ("finished", alice)  # written, whatever the answer
    assert accepted.status_code == 200, accepted.content
    views = {name: client.get(url).json() for name, client in clients.items()}
    assert views["alice"]["score"] == [points, 0]
    assert_finished(clients, views)
