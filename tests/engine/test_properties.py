"""Invariants of legal plays over random positions (hypothesis)."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BAR, CHECKERS, Dice, Position, legal_plays
from games.engine.notation import parse_play
from games.engine.play import format_play


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal-looking board: up to 15 checkers a side, on points, the bar or borne off.

    Half the draws keep the player's checkers home, so bear-offs are well represented.
    """
    home_only = draw(st.booleans())
    highest = 6 if home_only else BAR
    points = [0] * 26
    for slot in draw(st.lists(st.integers(0, highest), min_size=CHECKERS, max_size=CHECKERS)):
        if slot:
            points[slot] += 1
    for slot in draw(st.lists(st.integers(0, BAR), min_size=CHECKERS, max_size=CHECKERS)):
        if slot == BAR:
            points[0] += 1
        elif slot and points[slot] <= 0:
            points[slot] -= 1
    return Position(tuple(points))


dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


def totals(position: Position) -> tuple[int, int]:
    off = position.borne_off()
    mine = sum(n for n in position.points[1:] if n > 0) + off[0]
    theirs = position.points[0] - sum(n for n in position.points[1:BAR] if n < 0) + off[1]
    return mine, theirs


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(positions(), dice)
def test_checkers_are_conserved_and_points_hold_one_colour(position, roll):
    for play in legal_plays(position, roll):
        after = position.apply(play)
        assert totals(after) == totals(position) == (CHECKERS, CHECKERS)
        for point in range(1, BAR):
            # A point the opponent held keeps their checkers unless hit from a single blot.
            if position.points[point] < -1:
                assert after.points[point] == position.points[point]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(positions(), dice)
def test_plays_end_in_distinct_positions_and_use_the_dice(position, roll):
    plays = legal_plays(position, roll)
    results = [position.apply(play) for play in plays]
    assert len(set(results)) == len(results)
    lengths = {len(play.moves) for play in plays}
    # Plays differ in length only when a shorter one bears off the last checker.
    for play in plays:
        if len(play.moves) < max(lengths):
            assert position.apply(play).borne_off()[0] == CHECKERS
    for play in plays:
        pips = position.pip_count()[0] - position.apply(play).pip_count()[0]
        assert 0 < pips <= sum(roll.moves())
        used = Counter(move.die for move in play.moves)
        assert not used - Counter(roll.moves())


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(positions(), dice)
def test_every_plays_position_is_reached_by_its_notation(position, roll):
    plays = legal_plays(position, roll)
    for play in plays[:: max(1, len(plays) // 25)]:
        parsed = parse_play(format_play(play), position, roll)
        assert position.apply(parsed) == position.apply(play)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_flipping_twice_is_the_same_position(position):
    assert position.flipped().flipped() == position
    mine, theirs = position.pip_count()
    assert position.flipped().pip_count() == (theirs, mine)
