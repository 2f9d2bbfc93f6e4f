"""Positions from random self-play: the fixed sample the benchmark and the oracle checks use."""

from __future__ import annotations

import random

from .board import Board
from .dice import Dice
from .legal import legal_plays
from .position import Position
from .variant_moves import game_end, variant_plays
from .variants import Variant


def self_play_pairs(count: int, seed: int = 2026) -> list[tuple[Position, Dice]]:
    """``count`` (position, roll) pairs met in games where both sides play at random.

    Half the plays are chosen at random, which hits often and puts checkers on the bar; the
    other half run, taking the play that leaves the fewest pips, which brings games home
    quickly, so bear-offs (with opponents still back) are common too. Every game is played
    to the last checker.
    """
    rng = random.Random(seed)
    pairs: list[tuple[Position, Dice]] = []
    position = Position.starting()
    while len(pairs) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((position, dice))
        plays = legal_plays(position, dice)
        if plays:
            if rng.random() < 0.5:
                position = position.apply(rng.choice(plays))
            else:
                position = min((position.apply(play) for play in plays), key=_pips_left)
        position = Position.starting() if position.outcome() else position.flipped()
    return pairs


def _pips_left(position: Position) -> int:
    return position.pip_count()[0]


def variant_self_play_pairs(
    variant: Variant, count: int, seed: int = 2026
) -> list[tuple[Board, Dice]]:
    """``count`` (board, roll) pairs of ``variant``, met as ``self_play_pairs`` meets them."""
    rng = random.Random(seed)
    pairs: list[tuple[Board, Dice]] = []
    board = Board.starting(variant)
    while len(pairs) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        pairs.append((board, dice))
        plays = variant_plays(board, dice)
        if plays:
            if rng.random() < 0.5:
                board = rng.choice(plays).after
            else:
                board = min((play.after for play in plays), key=_board_pips_left)
        board = Board.starting(variant) if game_end(board) else board.flipped()
    return pairs


def _board_pips_left(board: Board) -> int:
    return sum(point * board.mine(point) for point in range(1, 26))
