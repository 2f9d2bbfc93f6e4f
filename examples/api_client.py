#!/usr/bin/env python3
"""A small client of the backgammon REST API that plays a whole match (standard library only).

    python examples/api_client.py BASE_URL USERNAME PASSWORD --challenge OPPONENT [--length N]
        [--variant V] [--match-format points|best_of_three] [--cube | --no-cube]
    python examples/api_client.py BASE_URL USERNAME PASSWORD --accept

It signs in for a token, then either challenges OPPONENT and waits until the challenge is
accepted, or accepts the first challenge to USERNAME (waiting for one if there is none yet); V is
any variant the API lists (backgammon, nackgammon, hypergammon, portes, plakoto, fevga,
long-nardi, or tavli for the three Greek games in rotation). Then
it plays: it polls the match with its ETag (304: nothing new) and, whenever it may act, rolls,
takes any double, accepts any resignation, and plays the first legal play. It never doubles.
It prints each action and the final score, and exits 0 when the match is over.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

POLL_SECONDS = 0.3
MAX_FAILURES_IN_A_ROW = 5


class ApiError(Exception):
    """An answer outside 2xx/304: ``status`` and the API's error body (code, message)."""

    def __init__(self, status: int, body: Any) -> None:
        self.status = status
        self.body = body if isinstance(body, dict) else {"message": str(body)}
        super().__init__(f"{status} {self.body.get('code', '')}: {self.body.get('message', '')}")


class Api:
    """JSON over HTTP with the token, retrying throttled requests."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.token: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        query: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any, Any]:
        """Send one request: (status, JSON body or None, response headers)."""
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(url, data=data, method=method)
            request.add_header("Accept", "application/json")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            if self.token:
                request.add_header("Authorization", f"Token {self.token}")
            for name, value in (headers or {}).items():
                request.add_header(name, value)
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status, _json(response.read()), response.headers
            except urllib.error.HTTPError as error:
                if error.code == 304:
                    return 304, None, error.headers
                if error.code == 429:  # throttled: wait as told, then send it again
                    time.sleep(float(error.headers.get("Retry-After") or 1))
                    continue
                raise ApiError(error.code, _json(error.read())) from None

    def get(self, path: str, **query: Any) -> Any:
        return self.request("GET", path, query=query)[1]

    def post(self, path: str, body: Any = None) -> Any:
        return self.request("POST", path, body=body)[1]


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return raw.decode(errors="replace")


def _rows(page: Any) -> list[dict[str, Any]]:
    """The items of a list answer, paginated ({"results": [...]}) or not."""
    return page["results"] if isinstance(page, dict) else page


# --- Starting a match ---------------------------------------------------------------------------


def sign_in(api: Api, username: str, password: str) -> None:
    api.token = api.post("/api/auth/token/", {"username": username, "password": password})["token"]
    print(f"signed in as {username}")


def challenge(api: Api, opponent: str, length: int, rules: dict[str, Any] | None = None) -> int:
    """Challenge ``opponent`` to a match by ``rules`` (variant, match_format, cube: the
    API's defaults for those not given) and wait until the match starts; its id."""

    def matches_with_opponent() -> set[int]:
        page = api.get("/api/matches/", mine=1, player=opponent, status="active", page_size=100)
        return {match["id"] for match in _rows(page)}

    before = matches_with_opponent()
    body = {"opponent": opponent, "match_length": length, **(rules or {})}
    posted = api.post("/api/challenges/", body)
    print(
        f"challenged {opponent} to {match_words(posted)} "
        f"(challenge {posted['id']}, cube {'on' if posted['cube'] else 'off'})"
    )
    # The list shows open challenges only: ours leaves it when accepted (or declined).
    while any(
        row["id"] == posted["id"]
        for row in _rows(api.get("/api/challenges/", direction="outgoing", page_size=100))
    ):
        time.sleep(POLL_SECONDS)
    new = matches_with_opponent() - before
    if not new:
        raise SystemExit(f"the challenge to {opponent} was declined or cancelled")
    match_id = min(new)
    print(f"{opponent} accepted: match {match_id}")
    return match_id


def accept_first_challenge(api: Api) -> int:
    """Accept the first challenge to us, waiting for one; the new match's id."""
    print("waiting for a challenge")
    while True:
        for row in _rows(api.get("/api/challenges/", direction="incoming")):
            try:
                match = api.post(f"/api/challenges/{row['id']}/accept/")
            except ApiError as error:  # taken back meanwhile: look again
                print(f"could not accept challenge {row['id']}: {error}")
                continue
            words = match_words(row)
            print(f"accepted {row['challenger']}'s challenge to {words}: match {match['id']}")
            return int(match["id"])
        time.sleep(POLL_SECONDS)


def match_words(challenge: dict[str, Any]) -> str:
    """``a 5-point plakoto match``, ``a best-of-three tavli match``."""
    if challenge["match_format"] == "best_of_three":
        return f"a best-of-three {challenge['variant']} match"
    return f"a {challenge['match_length']}-point {challenge['variant']} match"


# --- Playing ------------------------------------------------------------------------------------


def choose(state: dict[str, Any]) -> dict[str, Any] | None:
    """What to do now, or None while it is not our decision. Never doubles."""
    legal = state["legal_actions"]
    if "roll" in legal:
        return {"action": "roll"}
    if "take" in legal:
        return {"action": "take"}
    if "accept_resign" in legal:
        return {"action": "accept_resign"}
    if "move" in legal:
        plays = state["legal_plays"]
        return {"action": "move", "play": plays[0] if plays else ""}
    return None


def describe(action: dict[str, Any], after: dict[str, Any]) -> str:
    """One line for an action we took, from the state it led to."""
    me = after["players"][after["you"]]
    if action["action"] == "roll":
        if after["phase"] == "moving" and after["turn"] == me and after["dice"]:
            return f"roll {after['dice'][0]}-{after['dice'][1]}"
        last = after["last_play"]
        if last and last["player"] == me:  # the server played the only possible play for us
            dice = f"{last['dice'][0]}-{last['dice'][1]}"
            return f"roll {dice}, played for us: {last['play'] or '(no move possible)'}"
        return "roll"
    if action["action"] == "move":
        return f"move {action['play'] or '(no move possible)'}"
    return action["action"]


def score_line(state: dict[str, Any]) -> str:
    (first, second), (a, b) = state["players"], state["score"]
    return f"{first} {a} - {second} {b}"


def play(api: Api, match_id: int) -> dict[str, Any]:
    """Play the match to its end; its final state."""
    path = f"/api/matches/{match_id}/"
    games_seen = 0

    def read(state: dict[str, Any] | None, etag: str | None) -> tuple[dict[str, Any], str | None]:
        """The match now: the state we have while the server answers 304 to its ETag."""
        status, body, headers = api.request(
            "GET", path, headers={"If-None-Match": etag} if etag else None
        )
        if status == 304 and state is not None:
            return state, etag
        return body, headers.get("ETag")

    def report_games(state: dict[str, Any]) -> None:
        nonlocal games_seen
        for game in state["games"][games_seen:]:
            if game["winner"] is None:
                print(f"game {game['number']}: drawn; {score_line(state)}")
                continue
            print(
                f"game {game['number']}: {game['winner']} wins {game['points']} "
                f"({game['result']}); {score_line(state)}"
            )
        games_seen = len(state["games"])

    state, etag = read(None, None)
    failures = 0
    while True:
        report_games(state)
        if state["status"] == "finished":
            return state
        action = choose(state)
        if action is None:  # the opponent's turn: wait, then ask whether anything changed
            time.sleep(POLL_SECONDS)
            state, etag = read(state, etag)
            continue
        try:
            _, after, headers = api.request(
                "POST", path + "actions/", body={"seq": state["seq"], **action}
            )
        except ApiError as error:
            failures += 1
            if error.status != 409:  # 409: the match moved on; anything else is a surprise
                print(f"seq {state['seq']}: {action['action']} refused: {error}")
            if failures >= MAX_FAILURES_IN_A_ROW:
                raise
            state, etag = read(None, None)  # read the match again, then decide again
            continue
        failures = 0
        print(f"seq {state['seq']}: {describe(action, after)}")
        state, etag = after, headers.get("ETag")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("username")
    parser.add_argument("password")
    start = parser.add_mutually_exclusive_group(required=True)
    start.add_argument("--challenge", metavar="OPPONENT", help="challenge this player")
    start.add_argument("--accept", action="store_true", help="accept the first challenge to you")
    parser.add_argument("--length", type=int, default=5, help="match length in points (5)")
    parser.add_argument("--variant", help="the rules of the match you challenge to (backgammon)")
    parser.add_argument(
        "--match-format",
        choices=["points", "best_of_three"],
        help="tavli: to --length points (the default) or the best of three games",
    )
    parser.add_argument(
        "--cube",
        action=argparse.BooleanOptionalAction,
        help="play with the doubling cube or not (as the variant is played)",
    )
    args = parser.parse_args(argv)
    rules = {
        name: value
        for name, value in (
            ("variant", args.variant),
            ("match_format", args.match_format),
            ("cube", args.cube),
        )
        if value is not None
    }

    api = Api(args.base_url)
    try:
        sign_in(api, args.username, args.password)
        if args.challenge:
            match_id = challenge(api, args.challenge, args.length, rules)
        else:
            match_id = accept_first_challenge(api)
        final = play(api, match_id)
    except ApiError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except urllib.error.URLError as error:
        print(f"error: cannot reach {args.base_url}: {error.reason}", file=sys.stderr)
        return 1
    print(f"match {match_id} finished: {score_line(final)}; winner: {final['winner']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
