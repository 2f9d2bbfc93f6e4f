"""Moves and plays: a move takes one checker by one die; a play is the whole roll's moves.

Points are numbered from the side of the player who moves: 24 down to 1, with
``BAR`` (25) for the bar and ``OFF`` (0) for bearing off.
"""

from __future__ import annotations

from dataclasses import dataclass

BAR = 25
OFF = 0


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, from ``source`` to ``destination``.

    ``die`` can exceed ``source - destination`` only when bearing off from a lower point.
    """

    source: int
    destination: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.source)}/{point_name(self.destination)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """The moves of one roll, in the order they are made. An empty play means no legal move."""

    moves: tuple[Move, ...] = ()

    def __str__(self) -> str:
        from .notation import format_play

        return format_play(self)

    def __len__(self) -> int:
        return len(self.moves)

    def dice_used(self) -> tuple[int, ...]:
        return tuple(move.die for move in self.moves)


def point_name(point: int) -> str:
    """``bar``, ``off`` or the point's number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def make_move(source: int, die: int, hit: bool = False) -> Move:
    """The shared Move for a checker on ``source`` moved by ``die``."""
    return _MOVES[_move_index(source, die, hit)]


def _move_index(source: int, die: int, hit: bool) -> int:
    return (source * 7 + die) * 2 + hit


_MOVES: list[Move] = [Move(0, 0, 1)] * _move_index(BAR + 1, 0, False)
for _source in range(1, BAR + 1):
    for _die in range(1, 7):
        for _hit in (False, True):
            _MOVES[_move_index(_source, _die, _hit)] = Move(
                _source, max(_source - _die, OFF), _die, _hit
            )
