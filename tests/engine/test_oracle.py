"""Cross-check against bgsage's possible_moves, an independent implementation of the rules."""

import pytest
from hypothesis import given, settings

from games.engine import BAR
from games.engine.oracle import disagreements
from games.engine.selfplay import self_play_pairs

from .test_properties import dice, positions

pytest.importorskip("bgsage", reason="bgsage is the oracle; it is in requirements.txt")


@pytest.mark.slow
def test_self_play_sample_agrees_with_bgsage():
    pairs = self_play_pairs(3000, seed=7)
    assert sum(1 for position, _ in pairs if position.points[BAR]) > 300
    assert sum(1 for position, _ in pairs if position.can_bear_off()) > 300
    found = disagreements(pairs)
    assert found == [], f"{len(found)} disagreements, first: {found[:1]}"


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(positions(), dice)
def test_random_positions_agree_with_bgsage(position, roll):
    assert disagreements([(position, roll)]) == []
