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
from .variants import MatchRules
from .words import points as in_points

LEFT_WIDTH = 28

#: The variants gnubg plays besides backgammon, by the name its ``Variation`` tag gives them;
#: our hypergammon is gnubg's 3-chequer one.
VARIATIONS = {"nackgammon": "NackGammon", "hypergammon": "HyperGammon (3)"}


class NoMatFormError(EngineError):
    """A match of a variant the .mat format cannot hold."""


def has_mat_form(rules: MatchRules) -> bool:
    """Whether a match by ``rules`` can be written as a .mat file: backgammon, nackgammon and
    hypergammon (gnubg's variants), with the cube or without."""
    return rules.variant == "backgammon" or rules.variant in VARIATIONS


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
    if rules.variant in VARIATIONS:
        lines[:0] = [f'; [Variation "{VARIATIONS[rules.variant]}"]', ""]
    state = MatchState.new(match_length, rules)
    game: _Game | None = None
    pending_dice: tuple[int, int] | None = None
    for event in events:
        before = state
        state = state.apply(event)
        if game is None and state.phase != "opening":
            game = _Game(names, before.score, before.game_number)
        if isinstance(event, OpeningRoll) and state.dice is not None:
            pending_dice = (state.dice.high, state.dice.low)
        elif isinstance(event, Roll):
            pending_dice = (event.dice.first, event.dice.second)
            danced = state.last_play is not None and not state.last_play.play.moves
            if danced and state.turn != event.player:
                _cell(game, event.player, f"{_dice(pending_dice)}: ")
        elif isinstance(event, PlayMade):
            played = _played(before, event)
            _cell(game, event.player, f"{_dice(pending_dice)}: {_moves(played)}")
        elif isinstance(event, Double):
            _cell(game, event.player, f" Doubles => {before.cube_value * 2}")
        elif isinstance(event, Take):
            _cell(game, event.player, " Takes")
        elif isinstance(event, Drop):
            _cell(game, event.player, " Drops")
        elif isinstance(event, AcceptResignation) and before.phase_before_resignation == "moving":
            # The resigner had rolled: their dice, with no play, before the win.
            _cell(game, opponent(event.player), f"{_dice(pending_dice)}: ")
        if game is not None and len(state.games) > len(before.games):
            record = state.games[-1]
            assert record.winner is not None, "a backgammon game is never drawn"
            game.win(record.winner, record.points)
            lines += game.lines
            game = None
    if game is not None:
        game.flush()
        lines += game.lines + [""]
    return "\n".join(lines) + "\n"


class _Game:
    def __init__(self, names: tuple[str, str], score: tuple[int, int], number: int) -> None:
        left = f"{names[0]} : {score[0]}"
        self.lines = [f" Game {number}", f" {left:<31}{names[1]} : {score[1]}"]
        self.turn = 0
        self.column = 0
        self.current = ""

    def add(self, player: int, text: str) -> None:
        if player != self.column:
            self.add(self.column, "")
        if player == 0:
            self.turn += 1
            self.current = f"{self.turn:3d}) {text:<{LEFT_WIDTH - 1}} "
            self.column = 1
        else:
            if not self.current:
                self.turn += 1
                self.current = f"{self.turn:3d}) {'':<{LEFT_WIDTH}}"
            self.lines.append((self.current + text).rstrip())
            self.current = ""
            self.column = 0

    def flush(self) -> None:
        if self.current:
            self.lines.append(self.current.rstrip())
            self.current = ""

    def win(self, winner: int, points: int) -> None:
        # As gnubg writes it, and as its import needs it: a win in the second column goes
        # on the line of the first player's last action, if that line is still open.
        wins = f" Wins {in_points(points)}"
        if winner == 1 and self.current:
            self.lines.append(self.current + wins)
            self.current = ""
        else:
            self.flush()
            self.lines.append(" " * (5 if winner == 0 else 5 + LEFT_WIDTH) + wins)
        self.lines.append("")


def _cell(game: _Game | None, player: int, text: str) -> None:
    if game is not None:
        game.add(player, text)


def _played(before: MatchState, event: PlayMade) -> Play:
    assert before.dice is not None
    return parse_play(event.notation, before.position_for(event.player), before.dice)


def _moves(play: Play) -> str:
    return " ".join(
        f"{move.source}/{move.destination}{'*' if move.hit else ''}" for move in play.moves
    )


def _dice(dice: tuple[int, int] | None) -> str:
    return "" if dice is None else f"{dice[0]}{dice[1]}"
