"""The queries (and in-process milliseconds) of each kind of action posted to the API with a
token, as the load test's clients post them: printed as a table (run with ``-s``) and held to
a ceiling. Seeded dice, from the opening to the end of a match."""

from __future__ import annotations

import os
import time
from collections import defaultdict
from typing import Any

import pytest
from celery import Task
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.dice.statistics import SITE, scope_of
from games.models import DicePairCount
from tests.games.api.conftest import actions, client_for, detail
from tests.games.factories import start_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not settings.ON_POSTGRES,
        reason="the ceilings are PostgreSQL's with Redis, as deployed: on the embedded default "
        "each push to the pages is itself written to SQLite (channels_lite)",
    ),
]

#: The most queries each action may cost over the API with a token, BEGIN and COMMIT counted.
#: The dice counters are no longer written by an action (games/dice/statistics.py counts the
#: logged rolls every minute): an action that rolls costs one query fewer than it did.
CEILINGS = {
    "roll": 6,
    "move": 7,
    "double": 7,
    "take": 7,
    "drop": 7,
    "resign": 7,
    "reject_resign": 7,
    "accept_resign": 7,
    "accept_resign (match over)": 18,
}


class Table:
    """Two players' clients acting in one match, counting each action's queries."""

    def __init__(self, match: Any, players: list[Any]) -> None:
        self.match = match
        self.clients = {user.username: client_for(user) for user in players}
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.millis: dict[str, list[float]] = defaultdict(list)

    def state(self, username: str) -> dict[str, Any]:
        response = self.clients[username].get(detail(self.match))
        assert response.status_code == 200, response.content
        data: dict[str, Any] = response.json()
        return data

    def to_act(self) -> tuple[str, dict[str, Any]]:
        anyone = self.state(self.match.first_player.username)
        return anyone["to_act"], self.state(anyone["to_act"])

    def post(
        self, username: str, state: dict[str, Any], action: str, **extra: Any
    ) -> dict[str, Any]:
        client = self.clients[username]
        body = {"seq": state["seq"], "action": action, **extra}
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.post(actions(self.match), body, format="json")
            elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, response.content
        after: dict[str, Any] = response.json()
        label = f"{action} (match over)" if after["status"] == "finished" else action
        self.queries[label].append(len(queries))
        if os.environ.get("ACTION_QUERIES_SQL"):
            print(f"--- {label}: {len(queries)}")
            for query in queries.captured_queries:
                print("   ", query["sql"][:300])
        self.millis[label].append(elapsed)
        return after

    def advance(self) -> None:
        """The player to act rolls or moves (the first legal play)."""
        who, state = self.to_act()
        if "roll" in state["legal_actions"]:
            self.post(who, state, "roll")
        else:
            self.post(who, state, "move", play=(state["legal_plays"] or [""])[0])

    def until(self, action: str) -> tuple[str, dict[str, Any]]:
        """Roll and move until the player to act may take ``action``."""
        for _ in range(200):
            who, state = self.to_act()
            if action in state["legal_actions"]:
                return who, state
            self.advance()
        raise AssertionError(f"{action} never came")


def test_queries_per_action(
    alice: Any, bob: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    dice.add_random(3000, seed=5)
    queued: list[str] = []
    # As in production, the web process only queues its tasks (tests run them eagerly).
    monkeypatch.setattr(Task, "apply_async", lambda task, *a, **k: queued.append(task.name))
    # The dice counters as a running site has them: every pair's row made.
    DicePairCount.objects.bulk_create(
        DicePairCount(scope=scope, first=first, second=second, count=0)
        for scope in (SITE, scope_of(alice.pk), scope_of(bob.pk))
        for first in range(1, 7)
        for second in range(1, 7)
    )
    match = start_match(alice, bob, length=5)
    table = Table(match, [alice, bob])
    for _ in range(3):
        table.advance()
    who, state = table.until("double")
    after = table.post(who, state, "double")
    taker = after["to_act"]
    table.post(taker, table.state(taker), "take")
    for _ in range(6):
        table.advance()
    who, state = table.until("double")
    after = table.post(who, state, "double")
    dropper = after["to_act"]
    table.post(dropper, table.state(dropper), "drop")
    who, state = table.until("resign")
    after = table.post(who, state, "resign", points=1)
    table.post(after["to_act"], table.state(after["to_act"]), "reject_resign")
    who, state = table.until("resign")
    after = table.post(who, state, "resign", points=1)
    table.post(after["to_act"], table.state(after["to_act"]), "accept_resign")
    while True:
        who, state = table.until("resign")
        after = table.post(who, state, "resign", points=3)
        answerer = after["to_act"]
        if table.post(answerer, table.state(answerer), "accept_resign")["status"] == "finished":
            break

    print("\naction                      queries (median, most)  ms (median)    n")
    for label, counts in table.queries.items():
        median, most = sorted(counts)[len(counts) // 2], max(counts)
        millis = sorted(table.millis[label])[len(counts) // 2]
        print(f"{label:28} {median:7} {most:7}  {millis:11.1f}  {len(counts):3}")
    for label, counts in table.queries.items():
        assert max(counts) <= CEILINGS[label], (label, counts)
