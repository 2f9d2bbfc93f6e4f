"""Why a written play breaks a rule of its variant, named in the player's words.

The move generator only knows that a play is not among the roll's legal plays; a player wants
to know which rule it breaks: the checker it moves is pinned, bearing off waits for a pinned
checker, fevga's runner has not yet passed the opponent's start, long nardi's head gives one
checker a turn, a six-point block stands in front of every opposing checker. Each rule that is
a flag of the Variant is found by playing the roll again without that one rule: if the play is
legal then, that rule is what refuses it.

>>> from .variants import FEVGA
>>> board = Board.starting(FEVGA)
>>> print(why_play_breaks_a_rule(board, Dice(6, 5), "24/18 24/19"))
In fevga the first checker to leave your 24 point must pass your opponent's start (reach ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .board import Board
from .dice import Dice
from .errors import EngineError
from .notation import parse_paths
from .play import OFF
from .variant_moves import find_play
from .variants import Variant

_Rule = tuple[str, Callable[[Variant], str]]

#: The variants' flags a play can break (each lifted by False), with what each says.
_RULES: tuple[_Rule, ...] = (
    (
        "runner_must_pass_opponent_start",
        lambda v: (
            f"In {_named(v)} the first checker to leave your 24 point must pass your "
            "opponent's start (reach your 11 point or lower) before a second checker leaves."
        ),
    ),
    (
        "courier_must_reach_home",
        lambda v: (
            f"In {_named(v)} the courier, the first checker to leave your 24 point, must reach "
            "your home (your 6 point or lower) before a second checker leaves."
        ),
    ),
    (
        "one_from_head",
        lambda v: (
            f"In {_named(v)} only one checker may leave the head (your 24 point) a turn; two "
            "only on your first turn, with 6-6, 4-4 or 3-3."
        ),
    ),
    (
        "forbid_full_start_quarter",
        lambda v: (
            f"In {_named(v)} you may not hold all six points of your starting quarter "
            "(19 to 24) at once."
        ),
    ),
    (
        "forbid_prime_with_no_one_ahead",
        lambda v: (
            f"In {_named(v)} you may not build a block of six points in a row in front of all "
            "your opponent's checkers: at least one of theirs must stand ahead of the block."
        ),
    ),
    (
        "prime_needs_last_two_points",
        lambda v: (
            f"In {_named(v)} you may hold six points in a row in front of your opponent only "
            "once you hold your 1 and 2 points."
        ),
    ),
)


def why_play_breaks_a_rule(board: Board, dice: Dice, notation: str) -> str | None:
    """Why the play written as ``notation`` of ``dice`` on ``board`` (the mover's side) breaks
    a rule of the board's variant; None when no one rule explains it (the move generator's own
    message then says what is wrong).

    >>> from .variants import PLAKOTO
    >>> board = Board.parse(PLAKOTO, "-14 " + "0 " * 11 + "-1p1 " + "0 " * 10 + "14 | 0 0 0 0")
    >>> why_play_breaks_a_rule(board, Dice(6, 5), "13/7 24/19")
    'The checker on the 13 point is pinned: a pinned checker cannot move until it is released.'
    """
    try:
        paths = parse_paths(notation)
    except EngineError:
        return None
    for path in paths:
        source = path.source
        if not 1 <= source <= 24:
            continue
        if board.points[source] < 0 and board.mine(source):
            return (
                f"The checker on the {source} point is pinned: a pinned checker cannot move "
                "until it is released."
            )
        if board.mine(source) == 0:
            return f"You have no checker on the {source} point."
    variant = board.variant
    bears_off = any(path.stops[-1][0] == OFF for path in paths)
    pinned = [p for p in range(1, 25) if board.points[p] < 0 and board.pinned[p]]
    if variant.pins and bears_off and pinned:
        return (
            f"You cannot bear off while your checker on the {pinned[0]} point is pinned: in "
            f"{_named(variant)} bearing off waits until every checker of yours is free."
        )
    for field, message in _RULES:
        if not getattr(variant, field):
            continue
        lifted: dict[str, Any] = {field: False}
        without = dataclasses.replace(variant, **lifted)
        try:
            find_play(Board(without, board.points, board.pinned), dice, notation)
        except EngineError:
            continue
        return message(variant)
    return None


def _named(variant: Variant) -> str:
    """A variant as a sentence names it: ``fevga``, ``long nardi``."""
    return variant.title.lower()
