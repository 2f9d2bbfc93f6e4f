"""The rehearsal's players: threads that play matches through the API, behind HAProxy, with both
players' tokens, deciding as examples/api_client.py does.

Every POST carries an Idempotency-Key. On a connection error or a 5xx the same request (same
key, same body) goes again, for up to GIVE_UP_AFTER seconds; each failed attempt is noted with
its time, so that the rehearsal can tell whether it fell inside a kill window. A POST given up
is sent again once everything is back, to learn whether it was applied.
"""

from __future__ import annotations

import http.client
import importlib.util
import json
import ssl
import threading
import time
import traceback
import urllib.parse
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

API_CLIENT = Path(__file__).resolve().parents[3] / "examples" / "api_client.py"
#: Seconds a request is tried again before the client gives it up.
GIVE_UP_AFTER = 30.0
REQUEST_TIMEOUT = 30.0


def _choose() -> Any:
    spec = importlib.util.spec_from_file_location("rehearsal_api_client", API_CLIENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.choose


choose = _choose()


class GaveUp(Exception):
    """A request failed for GIVE_UP_AFTER seconds."""


@dataclass
class Journal:
    """What the players saw, shared by their threads."""

    #: Each accepted action: match, seq (sent), after (answered), action, key, player.
    accepted: list[dict[str, Any]] = field(default_factory=list)
    #: Each failed attempt: (monotonic time, what).
    failures: list[tuple[float, str]] = field(default_factory=list)
    #: POSTs given up: path, player, token, body, key.
    given_up: list[dict[str, Any]] = field(default_factory=list)
    #: Live matches left to run out of time: match, seq.
    left_to_run_out: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, row: Any) -> None:
        with self.lock:
            getattr(self, kind).append(row)

    def failure(self, what: str) -> None:
        self.note("failures", (time.monotonic(), what))


@dataclass
class Api:
    base_url: str
    journal: Journal
    #: What an https base_url's certificate is checked against.
    tls: ssl.SSLContext | None = None

    def send(
        self, method: str, path: str, token: str, body: Any = None, key: str | None = None
    ) -> tuple[int, Any]:
        """(status, JSON body) of the first answer below 500; GaveUp after GIVE_UP_AFTER."""
        give_up_at = time.monotonic() + GIVE_UP_AFTER
        pause = 0.2
        while True:
            try:
                status, answer = self._once(method, path, token, body, key)
            except (OSError, http.client.HTTPException) as error:
                failure = f"{type(error).__name__}: {error}"
            else:
                if status < 500:
                    return status, answer
                failure = f"HTTP {status}"
            self.journal.failure(f"{method} {path}: {failure}")
            if time.monotonic() + pause > give_up_at:
                raise GaveUp(f"{method} {path}: {failure}")
            time.sleep(pause)
            pause = min(pause * 2, 2.0)

    def _once(
        self, method: str, path: str, token: str, body: Any, key: str | None
    ) -> tuple[int, Any]:
        address = urllib.parse.urlsplit(self.base_url)
        connection = (
            http.client.HTTPSConnection(
                address.hostname, address.port, timeout=REQUEST_TIMEOUT, context=self.tls
            )
            if address.scheme == "https"
            else http.client.HTTPConnection(address.hostname, address.port, timeout=REQUEST_TIMEOUT)
        )
        headers = {
            "Authorization": f"Token {token}",
            "Accept": "application/json",
            "Connection": "close",
        }
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        try:
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            raw = response.read()
        finally:
            connection.close()
        try:
            answer = json.loads(raw) if raw else None
        except ValueError:
            answer = raw[:200].decode(errors="replace")
        return response.status, answer


#: Live matches: a minute each, no increment, so that each runs out a minute after it is left.
LIVE = {"kind": "live", "minutes": 1, "increment_seconds": 0}


class Player(threading.Thread):
    """Both players of one match. A correspondence match is played until ``stop``, and a new
    one challenged when it ends. A live one is challenged to at ``live_from`` (monotonic),
    played for ``live_for`` seconds, then left to run out of time."""

    def __init__(
        self,
        api: Api,
        row: dict[str, Any],
        stop: threading.Event,
        *,
        match_length: int,
        live_from: float | None = None,
        live_for: float = 0.0,
    ) -> None:
        super().__init__(name=f"player-{row['players'][0]}", daemon=True)
        self.api = api
        self.journal = api.journal
        self.match_id: int | None = row["match"]
        self.names: list[str] = row["players"]
        self.tokens = dict(zip(row["players"], row["tokens"], strict=True))
        self.stop = stop
        self.match_length = match_length
        self.live_from = live_from
        self.leave_at: float | None = None if live_from is None else live_from + live_for
        self.left = False

    def run(self) -> None:
        try:
            if self.live_from is not None:
                if self.stop.wait(max(self.live_from - time.monotonic(), 0)):
                    return
                while self.match_id is None and not self.stop.is_set():
                    self.next_match(LIVE)
            self.play()
        except Exception:  # noted, so that the rehearsal fails and says why
            self.journal.failure(
                f"player of match {self.match_id} stopped:\n{traceback.format_exc()}"
            )

    def read(self, viewer: str) -> dict[str, Any] | None:
        try:
            status, state = self.api.send(
                "GET", f"/api/matches/{self.match_id}/", self.tokens[viewer]
            )
        except GaveUp:
            return None
        if status != 200:
            self.journal.failure(f"GET match {self.match_id}: HTTP {status} {state}")
            return None
        return state  # type: ignore[no-any-return]

    def play(self) -> None:
        viewer = self.names[0]
        state: dict[str, Any] | None = None
        while not self.stop.is_set() and not self.left:
            if self.leave_at is not None and time.monotonic() >= self.leave_at:
                self.leave(viewer)
                return
            if state is None:
                state = self.read(viewer)
                if state is None:
                    time.sleep(0.2)
                    continue
            if state["status"] != "active":
                if self.leave_at is not None:
                    return  # a live match over before its time ran out
                self.next_match()
                state = None
                continue
            to_act = state["to_act"]
            me = state["players"][state["you"]] if state["you"] is not None else None
            if to_act is None:  # nobody's decision (the server's to make): look again soon
                time.sleep(0.2)
                state = None
                continue
            if me != to_act:
                viewer = to_act
                state = None
                continue
            action = choose(state)
            if action is None:
                time.sleep(0.1)
                state = None
                continue
            state = self.act(me, state["seq"], action)

    def act(self, me: str, seq: int, action: dict[str, Any]) -> dict[str, Any] | None:
        """Post one decision; the state it led to, or None to read the match again."""
        path = f"/api/matches/{self.match_id}/actions/"
        body = {"seq": seq, **action}
        key = uuid.uuid4().hex
        try:
            status, answer = self.api.send("POST", path, self.tokens[me], body, key)
        except GaveUp:
            self.journal.note(
                "given_up",
                {"match": self.match_id, "path": path, "player": me, "token": self.tokens[me]}
                | {"body": body, "key": key},
            )
            return None
        if status == 200:
            self.journal.note("accepted", accepted_row(self.match_id, body, answer, key, me))
            return answer  # type: ignore[no-any-return]
        if status == 409:  # stale: read the match again
            return None
        code = answer.get("code") if isinstance(answer, dict) else None
        if self.leave_at is not None and code == "timeout":
            # The live clock ran out while we played: the match is left for the countdown.
            self.journal.note("left_to_run_out", {"match": self.match_id, "seq": seq})
            self.left = True
            return None
        self.journal.failure(f"POST {path} {body}: HTTP {status} {answer}")
        return None

    def leave(self, viewer: str) -> None:
        state = self.read(viewer)
        while state is None and not self.stop.is_set():
            state = self.read(viewer)
        if state is not None and state["status"] == "active":
            self.journal.note("left_to_run_out", {"match": self.match_id, "seq": state["seq"]})

    def next_match(self, time_control: dict[str, Any] | None = None) -> None:
        challenger, opponent = self.names
        body: dict[str, Any] = {
            "opponent": opponent,
            "match_length": self.match_length,
            "rated": False,
        }
        if time_control is not None:
            body["time_control"] = time_control
        try:
            status, challenge = self.api.send(
                "POST", "/api/challenges/", self.tokens[challenger], body, uuid.uuid4().hex
            )
            if status != 201:
                self.journal.failure(f"challenge: HTTP {status} {challenge}")
                time.sleep(1)
                return
            status, match = self.api.send(
                "POST",
                f"/api/challenges/{challenge['id']}/accept/",
                self.tokens[opponent],
                key=uuid.uuid4().hex,
            )
        except GaveUp:
            return
        if status != 201:
            self.journal.failure(f"accept: HTTP {status} {match}")
            return
        self.match_id = match["id"]


def accepted_row(
    match_id: int, body: dict[str, Any], answer: dict[str, Any], key: str, player: str
) -> dict[str, Any]:
    return {
        "match": match_id,
        "seq": body["seq"],
        "after": answer["seq"],
        "action": body["action"],
        "key": key,
        "player": player,
    }


def resolve_given_up(api: Api) -> int:
    """Send each POST given up again, with its key: a replayed answer (or one applied now)
    is an accepted action, a 409 one never applied. How many were accepted."""
    journal = api.journal
    accepted = 0
    for row in list(journal.given_up):
        try:
            status, answer = api.send("POST", row["path"], row["token"], row["body"], row["key"])
        except GaveUp:
            continue
        if status == 200:
            journal.note(
                "accepted",
                accepted_row(row["match"], row["body"], answer, row["key"], row["player"]),
            )
            accepted += 1
        elif status != 409:
            journal.failure(f"resending {row['path']}: HTTP {status} {answer}")
    return accepted
