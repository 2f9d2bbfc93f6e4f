"""The load test's clients, run by locust in its own process (no Django here).

`manage.py loadtest` writes a plan (JSON, path in LOADTEST_PLAN) of matches, tokens and
sessions, starts gunicorn, then runs locust once per scenario, naming one user class:

- BarePage: the benchmark's trivial template, the yardstick.
- SignedInBarePage: the same page signed in by a session cookie (the floor of every page a
  player reads); FloorWrite: a token's POST that locks one row and inserts one (the floor of
  every action). Each client is a player of its own.
- BoardPage: the match page of a running match, as the player whose decision it is sees it.
- MatchState / MatchStateNotModified: GET /api/matches/{id}/ without and with If-None-Match.
- MatchPlayer: plays its own match through the API with both players' tokens, deciding as
  examples/api_client.py does; when the match ends it challenges again and accepts.

MatchPlayer writes every accepted action (match, seq sent, seq after, action) to
LOADTEST_RECORDS when the run stops, with the actions still waiting for their answer then
(match, seq sent, action): the stop cuts those off, and the server may have applied them. The
command checks that no event was lost or written twice.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
from pathlib import Path
from typing import Any

from locust import FastHttpUser, constant, events, task

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))
from api_client import choose  # noqa: E402

PLAN: dict[str, Any] = json.loads(Path(os.environ["LOADTEST_PLAN"]).read_text())
ACCEPTED: list[tuple[int, int, int, str]] = []
UNANSWERED: dict[int, tuple[int, int, str]] = {}
_next_client = itertools.count()


def _nth(items: list[Any]) -> Any:
    """Spread the clients over the prepared rows, one row per client while there are enough."""
    return items[next(_next_client) % len(items)]


class BarePage(FastHttpUser):
    wait_time = constant(0)

    @task
    def bare(self) -> None:
        self.client.get("/loadtest/bare/", name="bare")


class SignedInBarePage(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.cookies = {"Cookie": f"sessionid={_nth(PLAN['floor'])['session']}"}

    @task
    def bare_auth(self) -> None:
        with self.client.get(
            "/loadtest/bare-auth/", name="bare_auth", headers=self.cookies, catch_response=True
        ) as response:
            if response.status_code == 200 and b"Signed in: loadtest-" not in response.content:
                response.failure("the page does not know its visitor")


class FloorWrite(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.auth = {"Authorization": f"Token {_nth(PLAN['floor'])['token']}"}

    @task
    def floor_post(self) -> None:
        self.client.post("/api/loadtest/floor/", name="floor_post", json={}, headers=self.auth)


class BoardPage(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        row = _nth(PLAN["board"])
        self.path = f"/matches/{row['match']}/"
        self.cookies = {"Cookie": f"sessionid={row['session']}"}

    @task
    def board(self) -> None:
        with self.client.get(
            self.path, name="board", headers=self.cookies, catch_response=True
        ) as response:
            if response.status_code == 200 and b"data-movable" not in response.content:
                response.failure("the board shows no movable checker to the player to move")


class MatchState(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        row = _nth(PLAN["state"])
        self.path = f"/api/matches/{row['match']}/"
        self.auth = {"Authorization": f"Token {row['token']}"}

    @task
    def state(self) -> None:
        self.client.get(self.path, name="state", headers=self.auth)


class MatchStateNotModified(MatchState):
    def on_start(self) -> None:
        super().on_start()
        etag = self.client.get(self.path, name="state (first read)", headers=self.auth).headers[
            "ETag"
        ]
        self.conditional = {**self.auth, "If-None-Match": etag}

    @task
    def state(self) -> None:
        with self.client.get(
            self.path, name="state 304", headers=self.conditional, catch_response=True
        ) as response:
            if response.status_code == 304:
                response.success()
            else:
                response.failure(f"expected 304, got {response.status_code}")


class MatchPlayer(FastHttpUser):
    """Both players of one match; every decision is read and posted with the deciding
    player's token."""

    wait_time = constant(0)

    def on_start(self) -> None:
        row = _nth(PLAN["play"])
        self.match_id: int = row["match"]
        self.names: list[str] = row["players"]
        self.auth = {
            name: {"Authorization": f"Token {token}"}
            for name, token in zip(row["players"], row["tokens"], strict=True)
        }
        self.seen: dict[str, Any] | None = None

    def read(self, name: str) -> dict[str, Any] | None:
        response = self.client.get(
            f"/api/matches/{self.match_id}/", name="play: read state", headers=self.auth[name]
        )
        return response.json() if response.status_code == 200 else None

    @task
    def decide(self) -> None:
        state = self.seen
        mine = state is not None and state["you"] is not None
        if not mine or state["players"][state["you"]] != state["to_act"]:  # type: ignore[index]
            state = self.read(state["to_act"] if state and state["to_act"] else self.names[0])
        if state is None:
            return
        if state["status"] == "finished":
            self.start_next_match()
            return
        me = state["players"][state["you"]] if state["you"] is not None else None
        if me != state["to_act"]:
            self.seen = state
            return
        action = choose(state)
        if action is None:
            self.seen = None
            return
        UNANSWERED[id(self)] = (self.match_id, state["seq"], action["action"])
        response = self.client.post(
            f"/api/matches/{self.match_id}/actions/",
            name=f"play: {action['action']}",
            json={"seq": state["seq"], **action},
            headers=self.auth[me],
        )
        del UNANSWERED[id(self)]
        if response.status_code != 200:
            self.seen = None
            return
        after = response.json()
        ACCEPTED.append((self.match_id, state["seq"], after["seq"], action["action"]))
        self.seen = after

    def start_next_match(self) -> None:
        challenger, opponent = self.names
        response = self.client.post(
            "/api/challenges/",
            name="play: challenge",
            json={"opponent": opponent, "match_length": PLAN["match_length"], "rated": False},
            headers=self.auth[challenger],
        )
        if response.status_code != 201:
            return
        response = self.client.post(
            f"/api/challenges/{response.json()['id']}/accept/",
            name="play: accept",
            headers=self.auth[opponent],
        )
        if response.status_code == 201:
            self.match_id = response.json()["id"]
            self.seen = None


@events.test_stop.add_listener
def _write_records(**_: Any) -> None:
    records = os.environ.get("LOADTEST_RECORDS")
    if records:
        Path(records).write_text(
            json.dumps({"accepted": ACCEPTED, "unanswered": list(UNANSWERED.values())})
        )
