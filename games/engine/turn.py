"""A play being put together one checker at a time, as a player does on the board.

Each step must keep a legal play within reach: a move is offered only if the rest of the
roll can still be played out to one of the roll's legal plays. ``PartialPlay`` does it on
backgammon's ``Position`` (nackgammon, hypergammon and portes too), ``PartialVariantPlay`` on any
variant's ``Board``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from .board import Board
from .dice import Dice
from .errors import IllegalPlayError
from .legal import _single_moves, legal_plays
from .play import BAR, OFF, Move, Play, make_move
from .position import Position
from .variant_moves import _Search, _State, variant_plays


@dataclass(frozen=True)
class PartialPlay:
    """The moves made so far of ``dice`` from ``start``.

    >>> turn = PartialPlay(Position.starting(), Dice(6, 5))
    >>> sorted(turn.movable_points())
    [8, 13, 24]
    >>> turn = turn.with_move(turn.move_to(24, 18))
    >>> turn = turn.with_move(turn.move_to(18, 13))
    >>> turn.is_complete(), str(turn.play())
    (True, '24/13')
    """

    start: Position
    dice: Dice
    moves: tuple[Move, ...] = ()

    @cached_property
    def position(self) -> Position:
        """The board after the moves so far."""
        return self.start.apply(Play(self.moves))

    @cached_property
    def _finals(self) -> frozenset[Position]:
        return frozenset(self.start.apply(play) for play in legal_plays(self.start, self.dice))

    def remaining_dice(self) -> tuple[int, ...]:
        """The dice still to play, highest first."""
        left = Counter(self.dice.moves())
        left.subtract(move.die for move in self.moves)
        return tuple(sorted(left.elements(), reverse=True))

    def is_complete(self) -> bool:
        """The moves so far make one of the roll's legal plays (or none is possible)."""
        if not self._finals:
            return not self.moves
        return self.position in self._finals

    def next_moves(self) -> tuple[Move, ...]:
        """Every move that keeps a legal play within reach."""
        return self._next_moves

    @cached_property
    def _next_moves(self) -> tuple[Move, ...]:
        if self.is_complete():
            return ()
        dice = self.remaining_dice()
        reachable: dict[tuple[Position, tuple[int, ...]], bool] = {}
        return tuple(
            move
            for move in self._candidate_moves(self.position, dice)
            if self._can_finish(
                self.position.apply(Play((move,))), _without(dice, move.die), reachable
            )
        )

    def movable_points(self) -> frozenset[int]:
        """Points (25: the bar) holding a checker that may move now."""
        return frozenset(move.source for move in self.next_moves())

    def destinations(self, source: int) -> dict[int, Move]:
        """Where a checker on ``source`` may go now (0: off), each with the move that takes it.

        When two dice bear the checker off, the lower is used and the higher kept.
        """
        found: dict[int, Move] = {}
        for move in sorted(self.next_moves(), key=lambda m: m.die):
            if move.source == source:
                found.setdefault(move.destination, move)
        return found

    def move_to(self, source: int, destination: int) -> Move:
        """The move taking a checker from ``source`` to ``destination`` now."""
        move = self.destinations(source).get(destination)
        if move is not None:
            return move
        raise IllegalPlayError(
            f"A checker on the {_name(source)} cannot go to the {_name(destination)} now."
        )

    def quick_move(self, source: int) -> Move:
        """The move a double click makes: the checker on ``source`` by the higher die it can."""
        choices = [move for move in self.next_moves() if move.source == source]
        if not choices:
            raise IllegalPlayError(f"No checker on the {_name(source)} can move now.")
        return max(choices, key=lambda move: move.die)

    def with_move(self, move: Move) -> PartialPlay:
        if move not in self.next_moves():
            raise IllegalPlayError(f"{move} is not possible now.")
        return PartialPlay(self.start, self.dice, (*self.moves, move))

    def undo(self) -> PartialPlay:
        """The same turn without its last move."""
        return PartialPlay(self.start, self.dice, self.moves[:-1])

    def play(self) -> Play:
        if not self.is_complete():
            raise IllegalPlayError("The play is not finished: play the rest of the roll.")
        return Play(self.moves)

    def _candidate_moves(self, position: Position, dice: tuple[int, ...]) -> list[Move]:
        board = list(position.points)
        outside = board[BAR] + sum(n for n in board[7:BAR] if n > 0)
        moves: list[Move] = []
        for die in sorted(set(dice), reverse=True):
            moves.extend(_single_moves(board, die, outside))
        return moves

    def _can_finish(
        self,
        position: Position,
        dice: tuple[int, ...],
        reachable: dict[tuple[Position, tuple[int, ...]], bool],
    ) -> bool:
        if position in self._finals:
            return True
        key = (position, dice)
        if key not in reachable:
            reachable[key] = any(
                self._can_finish(position.apply(Play((move,))), _without(dice, move.die), reachable)
                for move in self._candidate_moves(position, dice)
            )
        return reachable[key]


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _name(point: int) -> str:
    return {BAR: "bar", 0: "off"}.get(point, f"{point} point")


@dataclass(frozen=True)
class PartialVariantPlay:
    """A play of any variant being put together one checker at a time, as ``PartialPlay`` is
    for backgammon: the moves made so far of ``dice`` from the ``start`` board (the mover's
    side). A move that lands on a lone opposing checker is marked ``hit`` (in plakoto: it pins).

    >>> from .variants import FEVGA
    >>> turn = PartialVariantPlay(Board.starting(FEVGA), Dice(6, 5))
    >>> sorted(turn.movable_points())
    [24]
    >>> turn = turn.with_move(turn.move_to(24, 18))
    >>> sorted(turn.destinations(18))
    [13]
    >>> turn = turn.with_move(turn.move_to(18, 13))
    >>> turn.is_complete(), str(turn.play())
    (True, '24/13')
    """

    start: Board
    dice: Dice
    moves: tuple[Move, ...] = ()

    @cached_property
    def _search(self) -> _Search:
        return _Search(self.start, self.dice)

    @cached_property
    def _finals(self) -> frozenset[_State]:
        return frozenset(
            (play.after.points, play.after.pinned) for play in variant_plays(self.start, self.dice)
        )

    @cached_property
    def _state(self) -> _State:
        state: _State = (self.start.points, self.start.pinned)
        for move in self.moves:
            state = self._search._do(state, (move.source, move.destination))
        return state

    @property
    def position(self) -> Board:
        """The board after the moves so far."""
        return Board(self.start.variant, *self._state)

    def remaining_dice(self) -> tuple[int, ...]:
        """The dice still to play, highest first."""
        left = Counter(self.dice.moves())
        left.subtract(move.die for move in self.moves)
        return tuple(sorted(left.elements(), reverse=True))

    def is_complete(self) -> bool:
        """The moves so far make one of the roll's legal plays (or none is possible)."""
        if not self._finals:
            return not self.moves
        return self._state in self._finals

    def next_moves(self) -> tuple[Move, ...]:
        """Every move that keeps a legal play within reach."""
        return self._next_moves

    @cached_property
    def _next_moves(self) -> tuple[Move, ...]:
        if self.is_complete():
            return ()
        dice = self.remaining_dice()
        reachable: dict[tuple[_State, tuple[int, ...]], bool] = {}
        return tuple(
            move
            for move in self._candidate_moves(self._state, dice)
            if self._can_finish(
                self._search._do(self._state, (move.source, move.destination)),
                _without(dice, move.die),
                reachable,
            )
        )

    def movable_points(self) -> frozenset[int]:
        """Points (25: the bar) holding a checker that may move now."""
        return frozenset(move.source for move in self.next_moves())

    def destinations(self, source: int) -> dict[int, Move]:
        """Where a checker on ``source`` may go now (0: off), each with the move that takes it;
        when two dice bear the checker off, the lower is used."""
        found: dict[int, Move] = {}
        for move in sorted(self.next_moves(), key=lambda m: m.die):
            if move.source == source:
                found.setdefault(move.destination, move)
        return found

    def move_to(self, source: int, destination: int) -> Move:
        """The move taking a checker from ``source`` to ``destination`` now."""
        move = self.destinations(source).get(destination)
        if move is not None:
            return move
        raise IllegalPlayError(
            f"A checker on the {_name(source)} cannot go to the {_name(destination)} now."
        )

    def quick_move(self, source: int) -> Move:
        """The move a double click makes: the checker on ``source`` by the higher die it can."""
        choices = [move for move in self.next_moves() if move.source == source]
        if not choices:
            raise IllegalPlayError(f"No checker on the {_name(source)} can move now.")
        return max(choices, key=lambda move: move.die)

    def with_move(self, move: Move) -> PartialVariantPlay:
        if move not in self.next_moves():
            raise IllegalPlayError(f"{move} is not possible now.")
        return PartialVariantPlay(self.start, self.dice, (*self.moves, move))

    def undo(self) -> PartialVariantPlay:
        """The same turn without its last move."""
        return PartialVariantPlay(self.start, self.dice, self.moves[:-1])

    def play(self) -> Play:
        """The finished play; ``format_play`` writes it as ``PlayMade`` takes it."""
        if not self.is_complete():
            raise IllegalPlayError("The play is not finished: play the rest of the roll.")
        return Play(self.moves)

    def _candidate_moves(self, state: _State, dice: tuple[int, ...]) -> list[Move]:
        top = state[0]
        marks = self.start.variant.hits or self.start.variant.pins
        moves: list[Move] = []
        for die in sorted(set(dice), reverse=True):
            for source, destination in self._search._single_moves(state, die):
                hit = marks and destination != OFF and top[destination] == -1
                moves.append(make_move(source, die, hit))
        return moves

    def _can_finish(
        self,
        state: _State,
        dice: tuple[int, ...],
        reachable: dict[tuple[_State, tuple[int, ...]], bool],
    ) -> bool:
        if state in self._finals:
            return True
        key = (state, dice)
        if key not in reachable:
            reachable[key] = any(
                self._can_finish(
                    self._search._do(state, (move.source, move.destination)),
                    _without(dice, move.die),
                    reachable,
                )
                for move in self._candidate_moves(state, dice)
            )
        return reachable[key]
