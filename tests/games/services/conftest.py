"""The match the service tests refuse things in."""

import pytest

from tests.games.services.matches import opened


@pytest.fixture
def bob_on_roll(dice, alice, bob):
    """Alice opened with 8/5 6/5; Bob is on roll and may double."""
    match = opened(dice, alice, bob)
    dice.add(6, 6, 6, 6)  # spare dice, should a refused roll be rolled before it is refused
    return match
