"""Moves and plays: a move takes one checker by one die; a play is the whole roll's moves.

Points are numbered from the side of the player who moves: 24 down to 1, with
``BAR`` (25) for the bar, ``OFF`` (0) for bearing off and, in acey-deucey, ``IN`` (26) for the
checkers waiting off the board to enter (a move ``in/22`` enters one, as ``bar/22`` does).

A play is written in the standard notation by ``format_play``, canonically: one checker's moves
are joined into one path (``24/13``, showing a stop only where it hits: ``24/20*/16``), paths
run from the highest point down, and repeated paths are counted (``8/5(2)``). Reading notation
needs the position and the roll, so it lives in ``notation``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

BAR = 25
OFF = 0
IN = 26
"""Where a checker waits to enter the board (acey-deucey); it enters as from the bar."""


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die, from ``source`` to ``destination``.

    ``die`` can exceed ``source - destination`` only when bearing off from a lower point, or
    when a waiting checker enters (``IN`` to ``25 - die``).
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
    if point == IN:
        return "in"
    return str(point)


def format_play(play: Play) -> str:
    """The canonical notation of ``play``.

    >>> format_play(Play((make_move(13, 5), make_move(24, 6))))
    '24/18 13/8'
    >>> format_play(Play((make_move(24, 4), make_move(20, 4), make_move(16, 4))))
    '24/12'
    >>> format_play(Play((make_move(24, 4), make_move(20, 4, True), make_move(16, 4))))
    '24/16*/12'
    >>> format_play(Play((make_move(24, 4, True), make_move(20, 4))))
    '24/20*/16'
    >>> format_play(Play((make_move(8, 3), make_move(8, 3))))
    '8/5(2)'
    >>> format_play(Play())
    ''
    """
    paths: list[list[tuple[int, bool]]] = []
    for move in play.moves:
        path = next((p for p in reversed(paths) if p[-1][0] == move.source != OFF), None)
        if path is None:
            paths.append([(move.source, False), (move.destination, move.hit)])
        else:
            path.append((move.destination, move.hit))
    counted = Counter(_path_text(path) for path in paths)
    ends = {_path_text(path): (path[0][0], path[-1][0]) for path in paths}
    ordered = sorted(
        counted, key=lambda text: (-ends[text][0], -ends[text][1], "*" not in text, text)
    )
    return " ".join(text if counted[text] == 1 else f"{text}({counted[text]})" for text in ordered)


def _path_text(path: list[tuple[int, bool]]) -> str:
    stops = [path[0]] + [stop for stop in path[1:-1] if stop[1]] + [path[-1]]
    return "/".join(point_name(point) + ("*" if hit else "") for point, hit in stops)


def make_move(source: int, die: int, hit: bool = False) -> Move:
    """The shared Move for a checker on ``source`` moved by ``die``."""
    return _MOVES[_move_index(source, die, hit)]


def _move_index(source: int, die: int, hit: bool) -> int:
    return (source * 7 + die) * 2 + hit


_MOVES: list[Move] = [Move(0, 0, 1)] * _move_index(IN + 1, 0, False)
for _source in range(1, IN + 1):
    for _die in range(1, 7):
        for _hit in (False, True):
            _MOVES[_move_index(_source, _die, _hit)] = Move(
                _source, max(min(_source, BAR) - _die, OFF), _die, _hit
            )
