"""A board of any variant, seen from the side of the player on roll, and its text form.

The text board (docs/variants.md, §1.1) is 24 tokens for the mover's points 1..24, then `` | ``
and four counts: the mover's and the opponent's checkers borne off, the mover's and the
opponent's checkers on the bar; in a variant whose checkers enter from off the board
(acey-deucey) two more: the mover's and the opponent's checkers waiting to enter. A token is
``0``, ``N`` (the mover's), ``-N`` (the opponent's) or, in plakoto, ``NpM``: N signed checkers on
top pinning M of the other colour.

>>> from .variants import PLAKOTO
>>> start = Board.starting(PLAKOTO)
>>> start.text()
'-15 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0'
>>> Board.parse(PLAKOTO, "-14 1p1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 14 | 0 0 0 0").mine(2)
1
>>> from .variants import ACEY_DEUCEY
>>> Board.starting(ACEY_DEUCEY).text()
'0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 | 0 0 0 0 15 15'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidPositionError
from .play import BAR
from .position import Position
from .variants import Variant, opponent_point

_TOKEN = re.compile(r"^(?:0|(-?[1-9][0-9]*)(?:p([1-9][0-9]*))?)$")
_COUNT = re.compile(r"^(?:0|[1-9][0-9]*)$")


@dataclass(frozen=True, slots=True)
class Board:
    """Checkers of a variant's game, from the mover's side; a value, like Position.

    ``points`` has Position's 26 slots: ``points[1..24]`` count the checkers on top of each
    point (positive: the mover's, negative: the opponent's), ``points[25]`` the mover's bar and
    ``points[0]`` the opponent's. ``pinned[p]`` counts checkers of the other colour pinned
    beneath the top ones (plakoto only). ``waiting`` counts the checkers not yet entered,
    (the mover's, the opponent's), in a variant whose checkers enter from off the board
    (acey-deucey). Checkers neither on the board nor waiting have been borne off.
    """

    variant: Variant
    points: tuple[int, ...]
    pinned: tuple[int, ...] = (0,) * 26
    waiting: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        points, pinned, variant, waiting = self.points, self.pinned, self.variant, self.waiting
        if waiting != (0, 0):
            if not variant.enters_from_off_board:
                raise InvalidPositionError(
                    f"in {variant.name} no checker waits to enter: all start on the board"
                )
            if len(waiting) != 2 or not all(type(n) is int and n >= 0 for n in waiting):
                raise InvalidPositionError("checkers waiting to enter are counted 0 or more a side")
        if len(points) != 26 or len(pinned) != 26:
            raise InvalidPositionError("a board has 26 slots: bar, 24 points, bar")
        if not all(type(n) is int for n in points + pinned):
            raise InvalidPositionError("a board counts checkers in whole numbers")
        if points[0] < 0 or points[BAR] < 0:
            raise InvalidPositionError("a bar cannot hold fewer than no checkers")
        if not variant.hits and (points[0] or points[BAR]):
            raise InvalidPositionError(f"{variant.name} has no bar: nothing is ever hit")
        for point in range(26):
            beneath = pinned[point]
            if not beneath:
                continue
            if not variant.pins:
                raise InvalidPositionError(f"{variant.name} has no pins")
            if point in (0, BAR) or points[point] == 0 or beneath != 1:
                raise InvalidPositionError(
                    f"on point {point}: only one lone checker can be pinned, under another colour"
                )
        for side, count, wait in zip(
            ("the mover", "the opponent"), self._on_board(), waiting, strict=True
        ):
            if count + wait > variant.checkers:
                waits = f" and {wait} waiting to enter" if wait else ""
                raise InvalidPositionError(
                    f"{side} has {count} checkers on the board{waits}; {variant.name} has "
                    f"{variant.checkers} a side"
                )

    @classmethod
    def starting(cls, variant: Variant) -> Board:
        """The variant's starting board, the mover to play: in a variant whose checkers enter
        from off the board, those ``start`` does not place wait to enter."""
        points = [0] * 26
        for point, count in variant.start:
            points[point] += count
            points[opponent_point(variant, point)] -= count
        if not variant.enters_from_off_board:
            return cls(variant, tuple(points))
        waiting = variant.checkers - sum(count for _, count in variant.start)
        return cls(variant, tuple(points), waiting=(waiting, waiting))

    @classmethod
    def from_position(cls, variant: Variant, position: Position) -> Board:
        if not variant.hits or variant.enters_from_off_board:
            raise InvalidPositionError(f"a Position ID describes no {variant.name} board")
        return cls(variant, position.points)

    @classmethod
    def parse(cls, variant: Variant, text: str) -> Board:
        """Read a text board, or a Position ID where the variant hits (backgammon's family)."""
        text = text.strip()
        if "|" not in text and variant.hits:
            return cls.from_position(variant, Position.from_position_id(text))
        main, bar, counts = text.partition("|")
        tokens, numbers = main.split(), counts.split()
        enters = variant.enters_from_off_board
        if not bar or len(tokens) != 24 or len(numbers) != (6 if enters else 4):
            raise InvalidPositionError(
                "a board is 24 point tokens, then | and "
                + (
                    "six counts: borne off (mover, opponent), on the bar (mover, opponent), "
                    "waiting to enter (mover, opponent)"
                    if enters
                    else "four counts: borne off (mover, opponent), on the bar (mover, opponent)"
                )
            )
        points, pinned = [0] * 26, [0] * 26
        for point, token in enumerate(tokens, 1):
            match = _TOKEN.match(token)
            if match is None:
                raise InvalidPositionError(
                    f"point {point}: cannot read {token!r}; write 0, N, -N or, in plakoto, NpM"
                )
            points[point] = int(match[1] or 0)
            pinned[point] = int(match[2] or 0)
        for number in numbers:
            if not _COUNT.match(number):
                raise InvalidPositionError(f"cannot read {number!r} as a count of checkers")
        mine_off, theirs_off, mine_bar, theirs_bar, *waiting = (int(n) for n in numbers)
        points[BAR], points[0] = mine_bar, theirs_bar
        mine_waiting, theirs_waiting = waiting or (0, 0)
        board = cls(variant, tuple(points), tuple(pinned), (mine_waiting, theirs_waiting))
        for side, in_play, off in zip(
            ("the mover", "the opponent"), board._in_play(), (mine_off, theirs_off), strict=True
        ):
            if in_play + off != variant.checkers:
                raise InvalidPositionError(
                    f"{side} has {in_play} checkers in play and {off} borne off; "
                    f"{variant.name} has {variant.checkers} a side"
                )
        return board

    def text(self) -> str:
        """The text board."""
        tokens = []
        for point in range(1, 25):
            top, beneath = self.points[point], self.pinned[point]
            tokens.append(f"{top}p{beneath}" if beneath else str(top))
        mine_off, theirs_off = self.borne_off()
        counts = f"{mine_off} {theirs_off} {self.points[BAR]} {self.points[0]}"
        if self.variant.enters_from_off_board:
            counts += f" {self.waiting[0]} {self.waiting[1]}"
        return f"{' '.join(tokens)} | {counts}"

    def __str__(self) -> str:
        return self.text()

    def mine(self, point: int) -> int:
        """The mover's checkers on ``point`` (1..24), pinned or not; 25 is the mover's bar."""
        top = self.points[point]
        if point == BAR:
            return top
        return top if top > 0 else self.pinned[point] if top < 0 else 0

    def theirs(self, point: int) -> int:
        """The opponent's checkers on ``point`` (1..24), pinned or not; 0 is their bar."""
        top = self.points[point]
        if point == 0:
            return top
        return -top if top < 0 else self.pinned[point] if top > 0 else 0

    def _on_board(self) -> tuple[int, int]:
        mine = self.points[BAR] + sum(self.mine(p) for p in range(1, 25))
        theirs = self.points[0] + sum(self.theirs(p) for p in range(1, 25))
        return mine, theirs

    def _in_play(self) -> tuple[int, int]:
        """Checkers not borne off: on the board, on the bar or waiting to enter."""
        mine, theirs = self._on_board()
        return mine + self.waiting[0], theirs + self.waiting[1]

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (the mover's, the opponent's)."""
        mine, theirs = self._in_play()
        return self.variant.checkers - mine, self.variant.checkers - theirs

    def pip_count(self) -> tuple[int, int]:
        """Pips each side needs to bear off every checker: (the mover's, the opponent's).

        A checker counts its distance from off in its owner's numbering (docs/variants.md §9.1):
        a point's own number, 25 from the bar or waiting to enter.

        >>> from .variants import ACEY_DEUCEY, FEVGA
        >>> Board.starting(FEVGA).pip_count(), Board.starting(ACEY_DEUCEY).pip_count()
        ((360, 360), (375, 375))
        """
        mine_bar = self.points[BAR] + self.waiting[0]
        theirs_bar = self.points[0] + self.waiting[1]
        mine = 25 * mine_bar + sum(self.mine(p) * p for p in range(1, 25))
        theirs = 25 * theirs_bar + sum(
            self.theirs(p) * opponent_point(self.variant, p) for p in range(1, 25)
        )
        return mine, theirs

    def flipped(self) -> Board:
        """The same board seen from the opponent's side."""
        points, pinned = [0] * 26, [0] * 26
        points[0], points[BAR] = self.points[BAR], self.points[0]
        for point in range(1, 25):
            theirs = opponent_point(self.variant, point)
            points[theirs] = -self.points[point]
            pinned[theirs] = self.pinned[point]
        waiting = (self.waiting[1], self.waiting[0])
        return Board(self.variant, tuple(points), tuple(pinned), waiting)

    def to_position(self) -> Position:
        """The board as a backgammon Position (hitting variants with every checker on the
        board from the start: the same 26 slots)."""
        if not self.variant.hits or self.variant.enters_from_off_board:
            raise InvalidPositionError(f"a {self.variant.name} board has no Position ID")
        return Position(self.points)

    def position_id(self) -> str:
        return self.to_position().position_id()
