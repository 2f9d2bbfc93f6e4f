"""The board in words, for screen readers: each side's checkers point by point, every point
numbered as its owner counts it (the variant says how the two numberings meet)."""

from __future__ import annotations

from games.engine import BAR, Position
from games.engine.board import Board
from games.engine.variants import Variant, opponent_point


def describe(seen: Position | Board, variant: Variant, *, names: tuple[str, str]) -> str:
    """``seen`` from the side of ``names[0]``; a pinned checker (plakoto) is said to be pinned.

    >>> from games.engine.variants import FEVGA
    >>> describe(Board.starting(FEVGA), FEVGA, names=("Ann", "Bob")).split(";")[0]
    'Ann: 15 on 24'
    """
    counts = seen.points
    pinned = seen.pinned if isinstance(seen, Board) else (0,) * 26
    mine, theirs = [], []
    for point in range(24, 0, -1):
        top = counts[point]
        if top > 0:
            mine.append(f"{top} on {point}")
        elif top < 0 and pinned[point]:
            mine.append(f"{pinned[point]} pinned on {point}")
    for own in range(24, 0, -1):
        point = opponent_point(variant, own)
        top = counts[point]
        if top < 0:
            theirs.append(f"{-top} on {own}")
        elif top > 0 and pinned[point]:
            theirs.append(f"{pinned[point]} pinned on {own}")
    mine_off, theirs_off = seen.borne_off()
    pips = seen.pip_count()
    parts = []
    for name, where, bar, off, pip in (
        (names[0], mine, counts[BAR], mine_off, pips[0]),
        (names[1], theirs, counts[0], theirs_off, pips[1]),
    ):
        text = f"{name}: " + (", ".join(where) if where else "no checkers on points")
        if bar:
            text += f"; {bar} on the bar"
        if off:
            text += f"; {off} borne off"
        parts.append(text + f"; pip count {pip} (points in {name}'s own numbering).")
    return " ".join(parts)
