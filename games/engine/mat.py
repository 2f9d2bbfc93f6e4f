"""Writing a match in the Jellyfish .mat format that GNU Backgammon and other programs import
(``mat_reader`` reads it back).

Each game lists its turns in two columns, the first player's on the left: ``62: 24/18 13/11``
for a roll and its play (points in the mover's own numbering, 25 for the bar and 0 for off, one
checker move at a time), `` Doubles => 2``, `` Takes``, `` Drops``, and ``Wins 2 points`` under
the winner when the game ends. Resignation offers and moderators' decisions have no place in the
format: an accepted resignation shows as the game's win (after the resigner's roll, with no play,
if they had rolled), an award or abort ends the file.

Nackgammon and hypergammon matches are written as gnubg writes them: a ``; [Variation "..."]``
line above the match, which gnubg's import reads to set up the variant's board. The other
variants have no .mat form (``variant_record`` writes them as text).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import EngineError
from .events import (
    AcceptResignation,
    Double,
    Drop,
    Event,
    OpeningRoll,
    PlayMade,
    Roll,
    Take,
    opponent,
)
from .match import MatchState
from .notation import parse_play
from .play import Play
from .variants import GNUBG_STANDARD, MatchRules
from .words import points as in_points

LEFT_WIDTH = 28


class NoMatFormError(EngineError):
    """A match of a variant the .mat format cannot hold."""


def has_mat_form(rules: MatchRules) -> bool:
    """Whether a match by ``rules`` can be written as a .mat file: backgammon, nackgammon and
    hypergammon (gnubg's variants), with the cube or without."""
    return rules.match_variant.gnubg_variation is not None


def export_mat(
    names: tuple[str, str],
    match_length: int,
    events: Iterable[Event],
    rules: MatchRules | None = None,
) -> str:
    """The .mat text of a match by ``rules`` (backgammon's unless given) whose rules events are
    ``events``, first to last. A variant without a .mat form raises ``NoMatFormError``.

    >>> from .events import OpeningRoll, PlayMade
    >>> print(export_mat(("alice", "bob"), 1, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")]))
     1 point match
    <BLANKLINE>
     Game 1
     alice : 0                      bob : 0
      1) 31: 8/5 6/5
    <BLANKLINE>
    <BLANKLINE>
    >>> export_mat(("alice", "bob"), 1, [], MatchRules.of("nackgammon")).splitlines()[:3]
    ['; [Variation "NackGammon"]', '', ' 1 point match']
    """
    rules = MatchRules() if rules is None else rules
    if not has_mat_form(rules):
        raise NoMatFormError(f"a {rules.title} match has no .mat form")
    lines = [f" {match_length} point match", ""]
    variation = rules.match_variant.gnubg_variation
    if variation != GNUBG_STANDARD:
        lines[:0] = [f'; [Variation "{variation}"]', ""]
    for game in move_list(match_length, events, rules):
        lines += _game_lines(game, names)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class MoveCell:
    """One player's part of a line of a move list: ``62: 24/18 13/11``, `` Doubles => 2``,
    `` Takes``, `` Drops``; ``event`` is the index, among the events given, of what it shows."""

    text: str
    event: int


@dataclass(frozen=True, slots=True)
class GameMoves:
    """A game of a move list: its lines, the first player's cell on the left, and its result
    (``winner`` None while it is under way, or when the match ended in it otherwise);
    ``start`` is the index of its first event (its first opening roll)."""

    number: int
    score: tuple[int, int]
    lines: tuple[tuple[MoveCell | None, MoveCell | None], ...]
    winner: int | None = None
    points: int = 0
    start: int = 0


def move_list(
    match_length: int, events: Iterable[Event], rules: MatchRules | None = None
) -> list[GameMoves]:
    """The match as players read it, game by game in two columns, in .mat's notation: what
    ``export_mat`` writes, for every variant (a variant without gnubg's numbering keeps its
    plays' own notation)."""
    return list(MoveList.new(match_length, rules).extended(events).games())


@dataclass(frozen=True, slots=True)
class MoveList:
    """A match's move list as far as its first ``length`` events, which the events after them
    extend without reading the first ones again.

    ``finished`` holds the games that ended; ``under_way`` the game being played (None between
    games); ``state`` is the match after those events, ``dice`` the roll the next play is of,
    ``start`` the index of the first event of the game about to begin or under way.
    """

    state: MatchState
    finished: tuple[GameMoves, ...] = ()
    under_way: GameMoves | None = None
    dice: tuple[int, int] | None = None
    start: int | None = None
    length: int = 0

    @classmethod
    def new(cls, match_length: int, rules: MatchRules | None = None) -> MoveList:
        """The list of a match not yet begun.

        >>> from .events import OpeningRoll, PlayMade
        >>> listed = MoveList.new(1).extended([OpeningRoll((3, 1))])
        >>> listed.extended([PlayMade(0, "8/5 6/5")]).games()[0].lines[0][0].text
        '31: 8/5 6/5'
        """
        return cls(MatchState.new(match_length, MatchRules() if rules is None else rules))

    def games(self) -> tuple[GameMoves, ...]:
        """Every game so far, the one under way last."""
        return self.finished if self.under_way is None else (*self.finished, self.under_way)

    def extended(self, events: Iterable[Event]) -> MoveList:
        """The list with ``events``, the match's next events, added: their indexes continue
        from ``length``."""
        state, dice, start, length = self.state, self.dice, self.start, self.length
        finished = list(self.finished)
        game = None if self.under_way is None else _Game.resumed(self.under_way)
        for index, event in enumerate(events, start=self.length):
            before = state
            state = state.apply(event)
            start = index if start is None else start
            if game is None and state.phase != "opening":
                game = _Game(before.game_number, before.score, start)
            if isinstance(event, OpeningRoll) and state.dice is not None:
                dice = (state.dice.high, state.dice.low)
            elif isinstance(event, Roll):
                dice = (event.dice.first, event.dice.second)
                danced = state.last_play is not None and not state.last_play.play.moves
                if danced and state.turn != event.player:
                    _cell(game, event.player, f"{_dice(dice)}: ", index)
            elif isinstance(event, PlayMade):
                _cell(game, event.player, f"{_dice(dice)}: {_moves(before, event)}", index)
            elif isinstance(event, Double):
                _cell(game, event.player, f" Doubles => {before.cube_value * 2}", index)
            elif isinstance(event, Take):
                _cell(game, event.player, " Takes", index)
            elif isinstance(event, Drop):
                _cell(game, event.player, " Drops", index)
            elif (
                isinstance(event, AcceptResignation) and before.phase_before_resignation == "moving"
            ):
                # The resigner had rolled: their dice, with no play, before the win.
                _cell(game, opponent(event.player), f"{_dice(dice)}: ", index)
            if game is not None and len(state.games) > len(before.games):
                record = state.games[-1]
                finished.append(game.done(record.winner, record.points))
                game, start = None, None
            length = index + 1
        return MoveList(
            state,
            tuple(finished),
            None if game is None else game.done(None, 0),
            dice,
            start,
            length,
        )


class _Game:
    def __init__(self, number: int, score: tuple[int, int], start: int) -> None:
        self.number, self.score, self.start = number, score, start
        self.lines: list[tuple[MoveCell | None, MoveCell | None]] = []

    @classmethod
    def resumed(cls, game: GameMoves) -> _Game:
        resumed = cls(game.number, game.score, game.start)
        resumed.lines = list(game.lines)
        return resumed

    def add(self, player: int, cell: MoveCell) -> None:
        open_line = bool(self.lines) and self.lines[-1][1] is None and self.lines[-1][0] is not None
        if player == 0:
            self.lines.append((cell, None))
        elif open_line:
            self.lines[-1] = (self.lines[-1][0], cell)
        else:
            self.lines.append((None, cell))

    def done(self, winner: int | None, points: int) -> GameMoves:
        return GameMoves(self.number, self.score, tuple(self.lines), winner, points, self.start)


def _cell(game: _Game | None, player: int, text: str, event: int) -> None:
    if game is not None:
        game.add(player, MoveCell(text, event))


def _game_lines(game: GameMoves, names: tuple[str, str]) -> list[str]:
    left = f"{names[0]} : {game.score[0]}"
    lines = [f" Game {game.number}", f" {left:<31}{names[1]} : {game.score[1]}"]
    rows = [
        f"{turn:3d}) {'' if first is None else first.text:<{LEFT_WIDTH - 1}} "
        + ("" if second is None else second.text)
        for turn, (first, second) in enumerate(game.lines, start=1)
    ]
    rows = [row.rstrip() for row in rows]
    if game.winner is None:
        return [*lines, *rows, ""]
    wins = f" Wins {in_points(game.points)}"
    # As gnubg writes it, and as its import needs it: a win in the second column goes on the
    # line of the first player's last action, if that line is still open.
    if game.winner == 1 and game.lines and game.lines[-1][1] is None:
        first = game.lines[-1][0]
        assert first is not None
        rows[-1] = f"{len(game.lines):3d}) {first.text:<{LEFT_WIDTH - 1}} " + wins
    else:
        rows.append(" " * (5 if game.winner == 0 else 5 + LEFT_WIDTH) + wins)
    return [*lines, *rows, ""]


def _moves(before: MatchState, event: PlayMade) -> str:
    """A play as .mat writes it, one checker move at a time; a variant whose board gnubg does
    not number keeps its own notation."""
    if before.board is not None:
        return event.notation
    assert before.dice is not None
    play: Play = parse_play(event.notation, before.position_for(event.player), before.dice)
    return " ".join(
        f"{move.source}/{move.destination}{'*' if move.hit else ''}" for move in play.moves
    )


def _dice(dice: tuple[int, int] | None) -> str:
    return "" if dice is None else f"{dice[0]}{dice[1]}"
