"""Reading a Jellyfish/GNU Backgammon .mat file back into a match (``mat`` writes them), in
the spellings other programs write too, checking every action against the rules.

gnubg's ``; [Variation "NackGammon"]`` header (and ``HyperGammon (3)``) makes the match a
nackgammon (hypergammon) one; a variation we do not play is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NoReturn

from .dice import Dice
from .errors import EngineError
from .events import (
    AcceptResignation,
    Double,
    Drop,
    Event,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
    Take,
    opponent,
)
from .match import MatchState
from .variants import GNUBG_STANDARD, MATCH_VARIANTS, MatchRules
from .words import points as in_points


class MatFileError(EngineError):
    """A .mat file that cannot be read, or whose match breaks the rules; names the line."""

    def __init__(self, line_number: int | None, reason: str) -> None:
        self.line_number = line_number
        self.reason = reason
        super().__init__(reason if line_number is None else f"line {line_number}: {reason}")


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match read from a .mat file: its players (left column first), its length, its rules
    events and the state they lead to; ``tags`` are the header's ``; [Name "value"]`` lines."""

    names: tuple[str, str]
    match_length: int
    events: tuple[Event, ...]
    state: MatchState
    tags: tuple[tuple[str, str], ...] = ()


#: A lone action further right than this (from the turn's number or the line's start) stands
#: in the second player's column.
_TURN_RIGHT = 6
_LINE_RIGHT = 20
_TAG = re.compile(r'^;\s*\[\s*(?P<name>[^"\]]+?)\s+"(?P<value>[^"]*)"\s*\]$')
_LENGTH = re.compile(r"^(?P<length>\d+)\s+points?\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^game\s+(?P<number>\d+)$", re.IGNORECASE)
_SCORES = re.compile(
    r"^(?P<first>.*?)\s*:\s*(?P<first_score>\d+)(?:\s*\([^)]*\))?"
    r"\s+(?P<second>.*?)\s*:\s*(?P<second_score>\d+)(?:\s*\([^)]*\))?$"
)
_TURN = re.compile(r"^(?P<number>\d+)\)(?P<rest>.*)$")
_POINT = r"(?:bar|b|off|\d{1,2})\*?"
_ACTION = re.compile(
    rf"(?P<roll>\d\d):(?P<moves>(?:\s*{_POINT}(?:/{_POINT})+(?:\(\d\))?)*)"
    r"|(?P<double>doubles?\s*=>\s*(?P<cube>\d+))"
    r"|(?P<take>takes|accepts)\b"
    r"|(?P<drop>drops|passes|refuses|rejects)\b"
    r"|(?P<wins>wins\s+(?P<points>\d+)\s+points?(?:\s+and\s+the\s+match)?)",
    re.IGNORECASE,
)


def parse_mat(text: str) -> MatchRecord:
    r"""The match a Jellyfish/GNU Backgammon .mat file records, checked against the rules.

    Every roll, play and cube action is applied to a ``MatchState``, so what comes back is a
    match the engine accepts; anything it refuses raises ``MatFileError`` naming the line.
    The spellings other programs write are read too: bear-offs as ``6/0`` or ``6/off``, the
    bar as ``25`` or ``bar``, columns padded with spaces or tabs, a game's result on its last
    turn's line or below it. A ``Wins`` line for a game not yet over is a resignation, which
    these rules let only the player on roll make.

    >>> record = parse_mat(" 1 point match\n Game 1\n alice : 0   bob : 0\n  1)    31: 8/5 6/5\n")
    >>> record.names, record.match_length, record.events
    (('alice', 'bob'), 1, (OpeningRoll(dice=(3, 1)), PlayMade(player=0, notation='8/5 6/5')))
    """
    return _MatReader().read(text)


class _MatReader:
    """Reads a .mat file line by line, folding each action into the match as it goes."""

    def __init__(self) -> None:
        self.tags: list[tuple[str, str]] = []
        self.names: tuple[str, str] | None = None
        self.state: MatchState | None = None
        self.events: list[Event] = []
        self.line_number: int | None = None
        self.game_number = 0  # the game being read; 0 before the first
        self.scores_due = False
        self.unplayed: tuple[int, int] | None = None  # the line and player of a roll not played

    def read(self, text: str) -> MatchRecord:
        for self.line_number, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
            line = raw.expandtabs(8).rstrip()
            content = line.strip()
            if not content:
                continue
            if content.startswith((";", "#")):
                tag = _TAG.match(content)
                if tag is not None:
                    self.tags.append((tag["name"], tag["value"]))
                continue
            self._read_line(line, content)
        self.line_number = None
        if self.state is None:
            self._fail("this is not a .mat file: it has no line like ' 5 point match'")
        if self.names is None:
            self._fail("the file has no games: a game starts with a line like ' Game 1'")
        return MatchRecord(
            self.names, self.state.match_length, tuple(self.events), self.state, tuple(self.tags)
        )

    def _fail(self, reason: str) -> NoReturn:
        raise MatFileError(self.line_number, reason)

    def _read_line(self, line: str, content: str) -> None:
        length = _LENGTH.match(content)
        if length is not None:
            self._start_match(int(length["length"]))
            return
        if self.state is None:
            self._fail(f"expected a line like ' 5 point match' before {content!r}")
        game = _GAME.match(content)
        if game is not None:
            self._start_game(int(game["number"]))
            return
        if self.game_number == 0:
            self._fail(f"expected a line like ' Game 1' before {content!r}")
        if self.scores_due:
            self._read_scores(content)
            return
        turn = _TURN.match(content)
        if turn is not None:
            rest = turn["rest"]
            self._read_actions(rest, right=len(rest) - len(rest.lstrip()) > _TURN_RIGHT)
        else:
            self._read_actions(content, right=len(line) - len(content) > _LINE_RIGHT)

    def _start_match(self, length: int) -> None:
        if self.state is not None:
            self._fail("a second match starts here; import one match at a time")
        if length == 0:
            self._fail("this is a money session (a '0 point match'); only matches can be imported")
        try:
            self.state = MatchState.new(length, self._rules())
        except EngineError as error:
            self._fail(str(error))

    def _rules(self) -> MatchRules:
        """The rules the header's ``Variation`` tag names; backgammon's without one."""
        named = [value for name, value in self.tags if name.lower() == "variation"]
        if not named:
            return MatchRules()
        variants = {
            kind.gnubg_variation.lower(): name
            for name, kind in MATCH_VARIANTS.items()
            if kind.gnubg_variation is not None
        }
        variant = variants.get(named[-1].lower())
        if variant is None:
            known = ", ".join(
                f'"{kind.gnubg_variation}"'
                for kind in MATCH_VARIANTS.values()
                if kind.gnubg_variation not in (None, GNUBG_STANDARD)
            )
            self._fail(
                f'the variation "{named[-1]}" is not played here; a .mat file is a backgammon '
                f"match or one of {known}"
            )
        return MatchRules.of(variant)

    def _start_game(self, number: int) -> None:
        state = self._state()
        self._check_nothing_unplayed()
        if state.is_finished():
            self._fail(f"game {number} starts after the match was won")
        if state.phase != "opening":
            self._fail(
                f"game {number} starts before game {state.game_number} is over: "
                "a game ends with a line like 'Wins 1 point'"
            )
        if number != state.game_number:
            self._fail(f"expected game {state.game_number} here, not game {number}")
        self.game_number = number
        self.scores_due = True

    def _read_scores(self, content: str) -> None:
        state = self._state()
        scores = _SCORES.match(content)
        if scores is None:
            self._fail(
                f"expected the players and their scores, like ' alice : 0    bob : 0', "
                f"not {content!r}"
            )
        names = (scores["first"].strip(), scores["second"].strip())
        if not all(names):
            self._fail(f"a player has no name in {content!r}")
        if self.names is None:
            self.names = names
        elif names != self.names:
            self._fail(
                f"the players are {self.names[0]} and {self.names[1]}, "
                f"not {names[0]} and {names[1]}"
            )
        score = (int(scores["first_score"]), int(scores["second_score"]))
        if score != state.score:
            self._fail(
                f"the score is {score[0]}-{score[1]} here, but the games before make it "
                f"{state.score[0]}-{state.score[1]}"
            )
        self.scores_due = False

    def _read_actions(self, text: str, *, right: bool) -> None:
        """The one or two actions of a line, the first player's on the left."""
        found = []
        end = 0
        for action in _ACTION.finditer(text):
            if text[end : action.start()].strip():
                break
            found.append(action)
            end = action.end()
        if text[end:].strip():
            self._fail(f"cannot read {text[end:].strip()!r}")
        if len(found) > 2:
            self._fail("a line holds at most two actions, one for each player")
        if len(found) == 2:
            self._act(0, found[0])
            self._act(1, found[1])
        elif found:
            self._act(1 if right else 0, found[0], lone=True)

    def _act(self, column: int, action: re.Match[str], *, lone: bool = False) -> None:
        state = self._state()
        if action["wins"]:
            self._game_won(column, int(action["points"]))
            return
        self._check_nothing_unplayed()
        if len(state.games) >= self.game_number:
            self._fail(f"game {self.game_number} is already over")
        to_act = state.player_to_act()
        # A lone action's column only matters when the rules do not say whose turn it is.
        player = to_act if lone and to_act is not None else column
        if action["roll"]:
            self._rolled(player, action["roll"], " ".join(action["moves"].split()))
        elif action["double"]:
            offered = int(action["cube"])
            if offered != state.cube_value * 2:
                self._fail(
                    f"the cube is at {state.cube_value}: a double offers {state.cube_value * 2}, "
                    f"not {offered}"
                )
            self._apply(Double(player))
        elif action["take"]:
            self._apply(Take(player))
        else:
            self._apply(Drop(player))

    def _rolled(self, player: int, roll: str, moves: str) -> None:
        faces = (int(roll[0]), int(roll[1]))
        if not all(1 <= face <= 6 for face in faces):
            self._fail(f"{roll} is not a roll of two dice")
        dice = Dice(*faces)
        if self._state().phase == "opening":
            if dice.is_double():
                self._fail(f"the opening roll cannot be a double, as {roll} is")
            high, low = dice.high, dice.low
            self._apply(OpeningRoll((high, low) if player == 0 else (low, high)))
        else:
            self._apply(Roll(player, dice))
        if moves:
            self._apply(PlayMade(player, moves))
        elif self._state().phase == "moving":
            # No play written for a roll that can be played: the player resigned after
            # rolling, if a Wins line for the opponent follows; otherwise it is an error.
            assert self.line_number is not None
            self.unplayed = (self.line_number, player)

    def _check_nothing_unplayed(self) -> None:
        if self.unplayed is not None:
            self.line_number, player = self.unplayed
            self._apply(PlayMade(player, ""))

    def _game_won(self, column: int, points: int) -> None:
        state = self._state()
        if len(state.games) < self.game_number:
            self._resigned(column, points)
        self.unplayed = None
        record = self._state().games[-1]
        if record.number != self.game_number:
            self._fail(f"game {self.game_number} was won already")
        assert record.winner is not None, "a backgammon game is never drawn"
        if record.points != points:
            self._fail(
                f"{self._name(record.winner)} won game {record.number} for "
                f"{in_points(record.points)}, not {in_points(points)}"
            )

    def _resigned(self, winner: int, points: int) -> None:
        state = self._state()
        loser = opponent(winner)
        if state.phase == "doubled" and state.turn == winner and points == state.cube_value:
            self._apply(Drop(loser))
            return
        if state.phase not in ("rolling", "moving") or state.turn != loser:
            self._fail(
                f"{self._name(winner)} wins game {self.game_number} before it is over, which "
                f"would be {self._name(loser)}'s resignation; only the player on roll can resign"
            )
        offered, rest = divmod(points, state.cube_value)
        if rest or offered not in (1, 2, 3):
            self._fail(
                f"with the cube at {state.cube_value} a resignation gives 1, 2 or 3 times it, "
                f"not {in_points(points)}"
            )
        self._apply(Resign(loser, offered))
        self._apply(AcceptResignation(winner))

    def _apply(self, event: Event) -> None:
        try:
            self.state = self._state().apply(event)
        except EngineError as error:
            self._fail(str(error))
        self.events.append(event)

    def _state(self) -> MatchState:
        assert self.state is not None
        return self.state

    def _name(self, player: int) -> str:
        return self.names[player] if self.names is not None else f"player {player}"
