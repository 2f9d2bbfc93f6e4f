"""Fixtures for the admin tests: a superuser and matches (the moderator, the players and the
signed-in browsers are tests/conftest.py's)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Match
from tests.games.factories import act, start_match


@pytest.fixture
def superuser(db: Any) -> Any:
    return get_user_model().objects.create_superuser("root", "root@example.com", None)


@pytest.fixture
def matches(dice: Any, alice: Any, bob: Any) -> dict[str, Match]:
    """A rated correspondence match under way, an unrated live one, and a finished one."""
    dice.add(3, 1)
    rated = start_match(alice, bob, rated=True)
    rated = act(rated, alice, "move", play="8/5 6/5")
    dice.add(1, 2)
    live = start_match(
        bob, alice, rated=False, time_control={"kind": "live", "minutes": 5, "increment_seconds": 2}
    )
    dice.add(3, 1)
    finished = start_match(alice, bob, length=1, rated=False)
    finished = act(finished, alice, "resign", points=1)
    finished = act(finished, bob, "accept_resign")
    return {"rated": rated, "live": live, "finished": finished}


def action(client: Client, name: str, matches: list[Match], **fields: str) -> Any:
    """Post the match changelist's action ``name`` for ``matches``, as its form does."""
    data: dict[str, Any] = {"action": name, "_selected_action": [str(m.pk) for m in matches]}
    if fields:
        data.update(apply="yes", **fields)
    else:
        data["index"] = "0"
    return client.post("/admin/games/match/", data, follow=bool(fields))
