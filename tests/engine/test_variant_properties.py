"""Invariants of every variant's legal plays over boards met in random play (hypothesis picks
the variant, the game and the roll): no checker is made or lost, the pips travelled are the
dice used, and no play leaves a die unused that a fuller play would use. Any variant still in
progress is held to them too (Gul Bara's climbing doubles are one double a call)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Dice
from games.engine.board import Board
from games.engine.selfplay import variant_self_play_pairs
from games.engine.variant_moves import variant_plays
from games.engine.variants import VARIANTS, VARIANTS_IN_PROGRESS

OFF = 0
PLAYED = {**VARIANTS, **{variant.name: variant for variant in VARIANTS_IN_PROGRESS}}


def _in_play(board: Board) -> tuple[int, int]:
    """Each side's checkers on the board, on a bar, pinned or waiting to enter."""
    mine = board.mine(25) + sum(board.mine(point) for point in range(1, 25))
    theirs = board.theirs(0) + sum(board.theirs(point) for point in range(1, 25))
    return mine + board.waiting[0], theirs + board.waiting[1]


def _pips(board: Board) -> int:
    return board.pip_count()[0]


boards = st.builds(
    lambda name, seed, step: variant_self_play_pairs(PLAYED[name], step + 1, seed)[step][0],
    st.sampled_from(sorted(PLAYED)),
    st.integers(0, 10_000),
    st.integers(0, 60),
)
rolls = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=60, deadline=None)
@given(boards, rolls)
def test_no_checker_is_made_or_lost(board, dice):
    mine, theirs = _in_play(board)
    for play in variant_plays(board, dice):
        borne_off = sum(1 for _source, destination in play.moves if destination == OFF)
        assert _in_play(play.after) == (mine - borne_off, theirs), play.notation


@settings(max_examples=60, deadline=None)
@given(boards, rolls)
def test_the_pips_travelled_are_the_dice_used(board, dice):
    for play in variant_plays(board, dice):
        travelled = _pips(board) - _pips(play.after)
        used = sum(play.dice)
        bore_off = any(destination == OFF for _source, destination in play.moves)
        if bore_off:
            assert 0 < travelled <= used, play.notation
        else:
            assert travelled == used, play.notation
        assert len(play.dice) == len(play.moves)


@settings(max_examples=60, deadline=None)
@given(boards, rolls)
def test_no_play_leaves_a_die_unused_that_a_fuller_play_would_use(board, dice):
    plays = variant_plays(board, dice)
    if not plays:
        return
    lengths = {len(play.moves) for play in plays}
    assert len(lengths) == 1, f"plays of {sorted(lengths)} moves on {board.text()} {dice}"
    if lengths == {1} and dice.first != dice.second:
        higher = max(dice.first, dice.second)
        if any(play.dice[0] == higher for play in plays):
            assert all(play.dice[0] == higher for play in plays), board.text()
