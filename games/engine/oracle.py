"""bgsage as an independent oracle for legal plays.

bgsage is loaded here only, lazily: the rules themselves never depend on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import Board
from .dice import Dice
from .legal import legal_plays
from .position import Position
from .variant_moves import variant_plays


def _bgsage() -> Any:
    import bgsage  # type: ignore[import-untyped, unused-ignore]

    return bgsage


def our_results(position: Position, dice: Dice) -> set[tuple[int, ...]]:
    """The positions our legal plays reach; the unchanged board when nothing can move."""
    return {position.apply(play).points for play in legal_plays(position, dice)} or {
        position.points
    }


def oracle_results(position: Position, dice: Dice) -> set[tuple[int, ...]]:
    """The positions bgsage's possible_moves reaches (it returns the board itself when stuck)."""
    boards = _bgsage().possible_moves(list(position.points), dice.first, dice.second)
    return {tuple(board) for board in boards} or {position.points}


def disagreements(
    pairs: Iterable[tuple[Position, Dice]],
) -> list[tuple[Position, Dice, set[tuple[int, ...]], set[tuple[int, ...]]]]:
    """Every pair where our resulting positions and bgsage's differ, with both sets."""
    found = []
    for position, dice in pairs:
        ours, theirs = our_results(position, dice), oracle_results(position, dice)
        if ours != theirs:
            found.append((position, dice, ours, theirs))
    return found


def variant_disagreements(
    pairs: Iterable[tuple[Board, Dice]],
) -> list[tuple[Board, Dice, set[tuple[int, ...]], set[tuple[int, ...]]]]:
    """As ``disagreements``, for boards of a hitting variant (nackgammon, hypergammon, ...)
    and the family's generic generator."""
    found = []
    for board, dice in pairs:
        ours = {play.after.points for play in variant_plays(board, dice)} or {board.points}
        boards = _bgsage().possible_moves(list(board.points), dice.first, dice.second)
        theirs = {tuple(b) for b in boards} or {board.points}
        if ours != theirs:
            found.append((board, dice, ours, theirs))
    return found
