"""The bgsage seam: plays in our notation, best first, and cube decisions at the match score."""

from __future__ import annotations

import pytest

from games.computer.sage import MatchContext, cube_decision, rank_plays
from games.engine import Dice, MatchState, OpeningRoll, Position, legal_plays


@pytest.mark.parametrize(
    ("roll", "best"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7")],
)
def test_the_known_best_opening_plays_come_first(roll, best):
    ranked = rank_plays(Position.starting(), Dice(*roll), MatchContext(away=5, opponent_away=5))
    assert ranked[0].notation == best
    assert ranked[0].loss == 0
    assert [r.equity for r in ranked] == sorted((r.equity for r in ranked), reverse=True)
    assert len(ranked) == len(legal_plays(Position.starting(), Dice(*roll)))


def test_no_legal_play_ranks_nothing():
    closed_out = Position.from_checkers({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
    assert rank_plays(closed_out, Dice(6, 6)) == []


def test_nobody_doubles_or_drops_at_the_start():
    cube = cube_decision(Position.starting(), MatchContext(away=5, opponent_away=5))
    assert not cube.should_double()
    assert cube.should_take()
    assert cube.double_loss(doubled=False) == 0
    assert cube.double_loss(doubled=True) > 0.1


def test_the_context_is_the_deciders():
    state = MatchState.new(5).apply(OpeningRoll((1, 3)))
    context = MatchContext.of(state, 1)
    assert (context.away, context.opponent_away, context.cube_owner) == (5, 5, "centered")
