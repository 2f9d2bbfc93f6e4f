#!/usr/bin/env python3
"""GNU Backgammon plays on the site through the API's event stream (standard library only).

    python examples/gnubg_bot.py BASE_URL (--token TOKEN | --username NAME --password PASSWORD)
        [--challenge OPPONENT --length N] [--accept] [--matches N] [--plies P]
        [--gnubg /usr/games/gnubg]

It listens to GET /api/stream/events (Server-Sent Events; it resumes with Last-Event-ID when the
connection drops) and never polls. For each ``your_turn`` it reads the match once and asks gnubg,
driven through its command line (``gnubg --tty --quiet --no-rc``: ``set matchid``, ``set board``,
``hint``), for its double, take or drop and its play, and posts it to
/api/matches/<id>/actions/. It accepts resignations offered to it. With ``--accept`` it accepts
the challenges it is sent; with ``--challenge`` it challenges OPPONENT first. It exits 0 after
``--matches`` matches of its own have ended (default: runs until stopped).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

RECONNECT_SECONDS = 2.0
#: The stream sends a comment every 15 s: a read that hears nothing for longer has lost it.
READ_TIMEOUT = 60.0

_CUBE_ACTION = re.compile(r"Proper cube action:\s*(.+)")
_RANKED_PLAY = re.compile(r"^\s*\d+\.\s+\S+\s+\d+-ply\s+(.+?)\s+Eq\.:", re.MULTILINE)


class ApiError(Exception):
    def __init__(self, status: int, body: bytes) -> None:
        self.status = status
        super().__init__(f"{status}: {body.decode(errors='replace')[:300]}")


class Api:
    """JSON over HTTP with the token."""

    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token

    def open(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            return urllib.request.urlopen(request, timeout=READ_TIMEOUT)
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, error.read()) from None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        while True:
            try:
                with self.open(method, path, body) as response:
                    return json.loads(response.read() or b"null")
            except ApiError as error:
                if error.status != 429:
                    raise
                time.sleep(1)

    def events(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """The caller's event stream, for ever: (event, data), resuming after a drop."""
        last_id = ""
        while True:
            headers = {"Accept": "text/event-stream"}
            if last_id:
                headers["Last-Event-ID"] = last_id
            try:
                with self.open("GET", "/api/stream/events", headers=headers) as response:
                    kind, data = "", []
                    for raw in response:
                        line = raw.decode().rstrip("\r\n")
                        if not line:
                            if kind and data:
                                yield kind, json.loads("\n".join(data))
                            kind, data = "", []
                        elif line.startswith("id:"):
                            last_id = line[3:].strip()
                        elif line.startswith("event:"):
                            kind = line[6:].strip()
                        elif line.startswith("data:"):
                            data.append(line[5:].strip())
            except (OSError, urllib.error.URLError) as error:
                print(f"the stream dropped ({error}); resuming", file=sys.stderr)
            time.sleep(RECONNECT_SECONDS)


class Gnubg:
    """GNU Backgammon asked one question per run of its command line."""

    def __init__(self, program: str, plies: int) -> None:
        self.program, self.plies = program, plies

    def hint(self, state: dict[str, Any], dice: list[int] | None = None) -> str:
        """gnubg's ``hint`` in the match's position (gnubg's Position ID and Match ID)."""
        commands = [
            "set player 0 human",
            "set player 1 human",
            f"set evaluation chequerplay evaluation plies {self.plies}",
            f"set evaluation cubedecision evaluation plies {self.plies}",
            f"new match {state['match_length']}",
            f"set matchid {state['match_id']}",
            f"set board {state['position_id']}",
        ]
        if dice:
            commands.append(f"set dice {dice[0]} {dice[1]}")
        commands.append("hint")
        with tempfile.TemporaryDirectory(prefix="gnubg-bot-") as home:
            done = subprocess.run(
                [self.program, "--tty", "--quiet", "--no-rc"],
                input="\n".join(commands) + "\n",
                capture_output=True,
                text=True,
                timeout=300,
                env={"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
                cwd=home,
            )
        return done.stdout

    def plays(self, state: dict[str, Any]) -> list[str]:
        """gnubg's plays for the dice, best first."""
        return _RANKED_PLAY.findall(self.hint(state, state["dice"]))

    def cube_action(self, state: dict[str, Any]) -> str:
        """gnubg's proper cube action, e.g. ``Double, take`` or ``No double, take``."""
        found = _CUBE_ACTION.search(self.hint(state))
        if found is None:
            raise RuntimeError("gnubg gave no cube action")
        return found.group(1).strip()


def decide(gnubg: Gnubg, state: dict[str, Any]) -> dict[str, Any]:
    """The action to post for ``state``, where the caller may act."""
    legal = set(state["legal_actions"])
    if "accept_resign" in legal:
        return {"action": "accept_resign"}
    if "take" in legal:
        answer = gnubg.cube_action(state).lower()
        return {"action": "drop" if "pass" in answer or "drop" in answer else "take"}
    if "double" in legal:
        answer = gnubg.cube_action(state).lower()
        if answer.startswith(("double", "redouble")):
            return {"action": "double"}
    if "roll" in legal:
        return {"action": "roll"}
    if "move" in legal:
        plays = gnubg.plays(state)
        allowed = set(state["legal_plays"])
        chosen = next((play for play in plays if play in allowed), plays[0] if plays else None)
        return {"action": "move", "play": chosen or state["legal_plays"][0]}
    raise RuntimeError(f"nothing to do among {sorted(legal)}")


def play_turn(api: Api, gnubg: Gnubg, match_id: int) -> None:
    """Act in the match for as long as it waits for us."""
    state = api.call("GET", f"/api/matches/{match_id}/")
    while state["status"] == "active" and state["legal_actions"]:
        action = decide(gnubg, state)
        try:
            state = api.call(
                "POST", f"/api/matches/{match_id}/actions/", {"seq": state["seq"], **action}
            )
        except ApiError as error:
            if error.status == 409:  # stale: the stream will tell us when it is our turn
                return
            if error.status == 400 and action["action"] == "move":
                print(f"refused {action['play']}: {error}; playing the first legal play")
                action["play"] = state["legal_plays"][0]
                state = api.call(
                    "POST", f"/api/matches/{match_id}/actions/", {"seq": state["seq"], **action}
                )
            else:
                raise
        print(f"match {match_id} seq {state['seq']}: {' '.join(map(str, action.values()))}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url")
    parser.add_argument("--token")
    parser.add_argument("--username")
    parser.add_argument("--password")
    parser.add_argument("--challenge", metavar="OPPONENT")
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--accept", action="store_true")
    parser.add_argument("--matches", type=int, default=0, help="stop after this many ended")
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--gnubg", default="/usr/games/gnubg")
    options = parser.parse_args(argv)

    api = Api(options.base_url, options.token)
    if not api.token:
        if not (options.username and options.password):
            parser.error("give --token, or --username and --password")
        body = {"username": options.username, "password": options.password}
        api.token = api.call("POST", "/api/auth/token/", body)["token"]
    gnubg = Gnubg(options.gnubg, options.plies)
    if options.challenge:
        body = {"opponent": options.challenge, "match_length": options.length, "rated": False}
        posted = api.call("POST", "/api/challenges/", body)
        print(f"challenged {options.challenge}: challenge {posted['id']}")

    ended = 0
    for kind, data in api.events():
        if kind == "challenge" and options.accept:
            api.call("POST", f"/api/challenges/{data['id']}/accept/", {})
        elif kind == "your_turn":
            play_turn(api, gnubg, data["match"])
        elif kind == "match_ended":
            ended += 1
            print(f"match {data['match']} ended: {data['winner']} won")
            if options.matches and ended >= options.matches:
                return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
