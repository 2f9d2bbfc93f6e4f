"""A play being put together one checker at a time, as a player does on the board.

Each step must keep a legal play within reach: a move is offered only if the rest of the
roll can still be played out to one of the roll's legal plays. ``PartialPlay`` does it on
backgammon's ``Position`` (nackgammon, hypergammon and portes too), ``PartialVariantPlay`` on any
variant's ``Board``; both are a ``TurnInProgress``, which says what a turn is and leaves to each
how a board is held, which single moves it allows and what a move does to it. Outside the
engine both are a ``PlayInProgress`` (``MatchState.turn_begun`` gives the game's own), whose
``board`` is a ``Board`` in every variant.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Generic, Protocol, Self, TypeVar

from .board import Board
from .dice import Dice
from .errors import IllegalPlayError
from .legal import _single_moves, legal_plays
from .play import BAR, IN, OFF, Move, Play, make_move
from .position import Position
from .variant_moves import BoardState, PlaySearch, variant_plays
from .variants import BACKGAMMON, Variant

Held = TypeVar("Held", bound=Hashable)
"""How a partial play holds a board while it searches: a ``Position``, or a ``BoardState``."""


class PlayInProgress(Protocol):
    """A play being put together checker by checker, in any variant: what a page asks of it."""

    @property
    def moves(self) -> tuple[Move, ...]: ...

    @property
    def board(self) -> Board:
        """The board after the moves so far, from the mover's side."""
        ...

    def next_moves(self) -> tuple[Move, ...]: ...

    def movable_points(self) -> frozenset[int]: ...

    def destinations(self, source: int) -> dict[int, Move]: ...

    def move_to(self, source: int, destination: int) -> Move: ...

    def quick_move(self, source: int) -> Move: ...

    def with_move(self, move: Move) -> Self: ...

    def is_complete(self) -> bool: ...

    def undo(self) -> Self: ...

    def play(self) -> Play: ...


class TurnInProgress(Generic[Held]):
    """The moves made so far of ``dice`` from ``start``: what every partial play shares.

    A subclass says how it holds a board (``_held_start``, ``_after``), which single moves a
    held board allows (``_candidate_moves``) and which boards the roll's legal plays end in
    (``_final_boards``); it is a frozen dataclass with ``start``, ``dice`` and ``moves``.
    """

    dice: Dice
    moves: tuple[Move, ...]

    def _held_start(self) -> Held:
        raise NotImplementedError

    def _after(self, held: Held, move: Move) -> Held:
        raise NotImplementedError

    def _candidate_moves(self, held: Held, dice: tuple[int, ...]) -> list[Move]:
        raise NotImplementedError

    def _final_boards(self) -> frozenset[Held]:
        raise NotImplementedError

    @cached_property
    def _finals(self) -> frozenset[Held]:
        return self._final_boards()

    @cached_property
    def _held(self) -> Held:
        held = self._held_start()
        for move in self.moves:
            held = self._after(held, move)
        return held

    def remaining_dice(self) -> tuple[int, ...]:
        """The dice still to play, highest first."""
        left = Counter(self.dice.moves())
        left.subtract(move.die for move in self.moves)
        return tuple(sorted(left.elements(), reverse=True))

    def is_complete(self) -> bool:
        """The moves so far make one of the roll's legal plays (or none is possible)."""
        if not self._finals:
            return not self.moves
        return self._held in self._finals

    def next_moves(self) -> tuple[Move, ...]:
        """Every move that keeps a legal play within reach."""
        return self._next_moves

    @cached_property
    def _next_moves(self) -> tuple[Move, ...]:
        if self.is_complete():
            return ()
        dice = self.remaining_dice()
        reachable: dict[tuple[Held, tuple[int, ...]], bool] = {}
        return tuple(
            move
            for move in self._candidate_moves(self._held, dice)
            if self._can_finish(self._after(self._held, move), _without(dice, move.die), reachable)
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
            f"{_checker_on(source).capitalize()} cannot go to {_place(destination)} now."
        )

    def quick_move(self, source: int) -> Move:
        """The move a double click makes: the checker on ``source`` by the higher die it can."""
        choices = [move for move in self.next_moves() if move.source == source]
        if not choices:
            raise IllegalPlayError(f"No {_checker_on(source)[2:]} can move now.")
        return max(choices, key=lambda move: move.die)

    def with_move(self, move: Move) -> Self:
        """The same turn with ``move`` made next."""
        if move not in self.next_moves():
            raise IllegalPlayError(f"{move} is not possible now.")
        return dataclasses.replace(self, moves=(*self.moves, move))  # type: ignore[type-var]

    def undo(self) -> Self:
        """The same turn without its last move."""
        return dataclasses.replace(self, moves=self.moves[:-1])  # type: ignore[type-var]

    def play(self) -> Play:
        """The finished play (``format_play`` writes it as ``PlayMade`` takes it)."""
        if not self.is_complete():
            raise IllegalPlayError("The play is not finished: play the rest of the roll.")
        return Play(self.moves)

    def _can_finish(
        self, held: Held, dice: tuple[int, ...], reachable: dict[tuple[Held, tuple[int, ...]], bool]
    ) -> bool:
        if held in self._finals:
            return True
        key = (held, dice)
        if key not in reachable:
            reachable[key] = any(
                self._can_finish(self._after(held, move), _without(dice, move.die), reachable)
                for move in self._candidate_moves(held, dice)
            )
        return reachable[key]


@dataclass(frozen=True)
class PartialPlay(TurnInProgress[Position]):
    """The moves made so far of ``dice`` from ``start``, on backgammon's ``Position``, in a
    game of ``variant`` (one that hits: backgammon, nackgammon, hypergammon, portes).

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
    variant: Variant = BACKGAMMON

    @property
    def position(self) -> Position:
        """The board after the moves so far."""
        return self._held

    @property
    def board(self) -> Board:
        """The board after the moves so far, as every variant's board is held."""
        return Board(self.variant, self._held.points)

    def _held_start(self) -> Position:
        return self.start

    def _after(self, held: Position, move: Move) -> Position:
        return held.apply(Play((move,)))

    def _final_boards(self) -> frozenset[Position]:
        return frozenset(self.start.apply(play) for play in legal_plays(self.start, self.dice))

    def _candidate_moves(self, held: Position, dice: tuple[int, ...]) -> list[Move]:
        board = list(held.points)
        outside = board[BAR] + sum(n for n in board[7:BAR] if n > 0)
        moves: list[Move] = []
        for die in sorted(set(dice), reverse=True):
            moves.extend(_single_moves(board, die, outside))
        return moves


@dataclass(frozen=True)
class PartialVariantPlay(TurnInProgress[BoardState]):
    """A play of any variant being put together one checker at a time: the moves made so far
    of ``dice`` from the ``start`` board (the mover's side). A move that lands on a lone
    opposing checker is marked ``hit`` (in plakoto: it pins).

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
    def _search(self) -> PlaySearch:
        return PlaySearch(self.start, self.dice)

    @property
    def board(self) -> Board:
        """The board after the moves so far."""
        return self._search.board_of(self._held)

    def _held_start(self) -> BoardState:
        return self._search.state(self.start)

    def _after(self, held: BoardState, move: Move) -> BoardState:
        return self._search.after_move(held, (move.source, move.destination))

    def _final_boards(self) -> frozenset[BoardState]:
        search = self._search
        return frozenset(search.state(play.after) for play in variant_plays(self.start, self.dice))

    def _candidate_moves(self, held: BoardState, dice: tuple[int, ...]) -> list[Move]:
        top = held[0]
        marks = self.start.variant.hits or self.start.variant.pins
        moves: list[Move] = []
        for die in sorted(set(dice), reverse=True):
            for source, destination in self._search.single_moves(held, die):
                hit = marks and destination != OFF and top[destination] == -1
                moves.append(make_move(source, die, hit))
        return moves


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


def _checker_on(point: int) -> str:
    """A checker where it stands, in words: ``a checker on the bar``, ``a checker waiting to
    enter``.

    >>> _checker_on(IN), _checker_on(BAR), _checker_on(8)
    ('a checker waiting to enter', 'a checker on the bar', 'a checker on the 8 point')
    """
    if point == IN:
        return "a checker waiting to enter"
    return f"a checker on {_place(point)}"


def _place(point: int) -> str:
    return {BAR: "the bar", OFF: "off the board"}.get(point, f"the {point} point")
