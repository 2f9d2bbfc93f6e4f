"""Fixtures for the chat tests: a match between Alice and Bob (Alice to move 3-1), and a way
to put messages in it. The players, Carol, the moderator and the dice are tests/conftest.py's."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import ChatMessage, Match
from tests.games.factories import start_match


@pytest.fixture
def match(dice: Any, alice: Any, bob: Any) -> Match:
    """Alice opened with 3-1 and is to move."""
    dice.add(3, 1)
    return start_match(alice, bob)


def say(match: Match, author: Any, text: str) -> ChatMessage:
    return services.chat_send(match_id=match.pk, author=author, text=text)


@pytest.fixture
def chat_rate(settings: Any) -> Any:
    """Set the players' chat limit: ``chat_rate("2/m/user")``."""

    def set_rate(rate: str) -> None:
        settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "chat_message": rate}

    return set_rate
