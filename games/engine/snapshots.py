"""A match state as JSON-ready data and back: what the service stores beside a match's log.

``snapshot(state)`` writes only dicts, lists, text, whole numbers, booleans and None;
``state_from_snapshot(data)`` rebuilds an equal ``MatchState`` from it, or from its JSON, and
refuses malformed data with an ``InvalidSnapshotError`` that names the field. The log stays the
truth: a snapshot only saves folding it again.

The position is stored as its 26 slots from player 0's side (``Position.points``), the last
play both as notation for people and as its moves ``[source, destination, die, hit]``, from
which it is rebuilt exactly.

A match of another variant writes its rules (``"rules"``: variant, match format, cube), the
variant of the game on the board (``"game_variant"``) and, for plakoto, fevga and long nardi, its
board as the text board from player 0's side (``"board"``, docs/variants.md §1.1) in place of
``"position"``; a backgammon match writes none of them, so its snapshot reads exactly as before
variants. Acey-deucey's board is a text board too (with its waiting checkers), and while the
dice to play are a double named after a 1-2 the snapshot says ``"dice_named": true``. A Gul
Bara game's snapshot counts each player's turns in ``"turns_taken"`` (once one is taken). A drawn
game has no winner and 0 points.

>>> from .events import OpeningRoll, PlayMade
>>> from .match import fold
>>> state = fold(3, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")])
>>> data = snapshot(state)
>>> data["phase"], data["turn"], data["score"], data["dice"]
('rolling', 1, [0, 0], None)
>>> data["last_play"]
{'player': 0, 'dice': [3, 1], 'play': '8/5 6/5', 'moves': [[8, 5, 3, False], [6, 5, 1, False]]}
>>> state_from_snapshot(data) == state
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeGuard, TypeVar, get_args

from .board import Board
from .dice import Dice
from .errors import EngineError, InvalidSnapshotError
from .match import (
    MAX_MATCH_LENGTH,
    NO_POSITION,
    GameEnding,
    GameRecord,
    LastPlay,
    MatchState,
    Phase,
)
from .play import BAR, IN, OFF, Move, Play, format_play, make_move
from .position import Position
from .variants import MatchRules, Variant

SNAPSHOT_VERSION = 1

_T = TypeVar("_T")

_PHASES: dict[str, Phase] = {phase: phase for phase in get_args(Phase)}
_PHASES_BEFORE_RESIGNATION: dict[str, Phase] = {
    "rolling": "rolling",
    "moving": "moving",
    "naming": "naming",
}
_GAME_ENDINGS: dict[str, GameEnding] = {ending: ending for ending in get_args(GameEnding)}
# The cube is doubled only while below the points still needed, so below twice the longest match.
_CUBE_VALUES = tuple(1 << n for n in range((2 * MAX_MATCH_LENGTH - 1).bit_length()))


def snapshot(state: MatchState) -> dict[str, object]:
    """``state`` as JSON-ready data, with a ``version`` for the reader.

    >>> snapshot(MatchState.new(5))["position"][:7]
    [0, -2, 0, 0, 0, 0, 5]
    """
    last_play = state.last_play
    board: dict[str, object] = (
        {"position": list(state.position.points)}
        if state.board is None
        else {"board": state.board.text()}
    )
    return {
        "version": SNAPSHOT_VERSION,
        "match_length": state.match_length,
        "score": list(state.score),
        "game_number": state.game_number,
        "crawford": state.crawford,
        "crawford_played": state.crawford_played,
        "cube_value": state.cube_value,
        "cube_owner": state.cube_owner,
        "phase": state.phase,
        "turn": state.turn,
        "dice": None if state.dice is None else [state.dice.first, state.dice.second],
        **board,
        "resignation": state.resignation,
        "phase_before_resignation": state.phase_before_resignation,
        "games": [
            {
                "number": game.number,
                "winner": game.winner,
                "points": game.points,
                "result": game.result,
                "crawford": game.crawford,
            }
            for game in state.games
        ],
        "winner": state.winner,
        "aborted": state.aborted,
        "end_reason": state.end_reason,
        "last_play": None
        if last_play is None
        else {
            "player": last_play.player,
            "dice": [last_play.dice.first, last_play.dice.second],
            "play": format_play(last_play.play),
            "moves": [
                [move.source, move.destination, move.die, move.hit] for move in last_play.play.moves
            ],
        },
        # Written only while an offer stands, so that snapshots from before offers read alike.
        **({} if state.end_offered_by is None else {"end_offered_by": state.end_offered_by}),
        **({"dice_named": True} if state.dice_named else {}),
        **({} if state.turns_taken == (0, 0) else {"turns_taken": list(state.turns_taken)}),
        **(
            {}
            if state.rules == MatchRules()
            else {"rules": state.rules.payload(), "game_variant": state.game_variant.name}
        ),
    }


def state_from_snapshot(data: Mapping[str, object]) -> MatchState:
    """The ``MatchState`` that ``snapshot`` wrote as ``data``.

    Missing, unknown, wrong-typed or contradictory fields raise an ``InvalidSnapshotError``.

    >>> state_from_snapshot(snapshot(MatchState.new(5))) == MatchState.new(5)
    True
    >>> state_from_snapshot({"version": 2})
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidSnapshotError: this engine reads snapshots of version 1, not 2
    """
    fields = _Fields(None, data)
    version = fields.value("version")
    if type(version) is not int or version != SNAPSHOT_VERSION:
        raise InvalidSnapshotError(
            f"this engine reads snapshots of version {SNAPSHOT_VERSION}, not {version!r}"
        )
    rules = _rules(fields.mapping("rules")) if "rules" in data else MatchRules()
    games = tuple(_game_record(game) for game in fields.mappings("games"))
    variant = _game_variant(fields, rules) if "rules" in data else rules.match_variant.games[0]
    if variant.holds_position:
        position, board = fields.position("position"), None
    else:
        position, board = NO_POSITION, fields.board("board", variant)
    state = MatchState(
        match_length=fields.number("match_length", 1, MAX_MATCH_LENGTH),
        score=fields.counts("score"),
        game_number=fields.number("game_number", 1),
        crawford=fields.flag("crawford"),
        crawford_played=fields.flag("crawford_played"),
        cube_value=fields.cube_value("cube_value"),
        cube_owner=fields.optional("cube_owner", fields.player),
        phase=fields.choice("phase", _PHASES),
        turn=fields.optional("turn", fields.player),
        dice=fields.optional("dice", fields.dice),
        position=position,
        resignation=fields.optional("resignation", lambda name: fields.number(name, 1, 3)),
        phase_before_resignation=fields.optional(
            "phase_before_resignation",
            lambda name: fields.choice(name, _PHASES_BEFORE_RESIGNATION),
        ),
        games=games,
        winner=fields.optional("winner", fields.player),
        aborted=fields.flag("aborted"),
        end_reason=fields.optional("end_reason", fields.text),
        last_play=fields.optional("last_play", lambda name: _last_play(fields.mapping(name))),
        end_offered_by=(fields.player("end_offered_by") if "end_offered_by" in data else None),
        rules=rules,
        board=board,
        dice_named=fields.flag("dice_named") if "dice_named" in data else False,
        turns_taken=fields.counts("turns_taken") if "turns_taken" in data else (0, 0),
    )
    fields.check_nothing_left()
    _check_consistent(state)
    return state


def _rules(fields: _Fields) -> MatchRules:
    variant = fields.text("variant")
    match_format = fields.text("match_format")
    cube = fields.flag("cube")
    fields.check_nothing_left()
    try:
        rules = MatchRules.of(variant, match_format, cube)
    except EngineError as error:
        raise InvalidSnapshotError(f"the snapshot's 'rules' are not a match's: {error}") from error
    if rules == MatchRules():
        raise InvalidSnapshotError("the snapshot's 'rules' are backgammon's: write none")
    return rules


def _game_variant(fields: _Fields, rules: MatchRules) -> Variant:
    """The variant of the game on the board: the match's own, or one of Tavli's rotation."""
    games = rules.match_variant.games
    return fields.choice("game_variant", {variant.name: variant for variant in games})


def _game_record(fields: _Fields) -> GameRecord:
    number = fields.number("number", 1)
    result = fields.choice("result", _GAME_ENDINGS)
    drawn = result == "draw"
    record = GameRecord(
        number=number,
        winner=fields.optional("winner", fields.player) if drawn else fields.player("winner"),
        points=fields.number("points", 0, 0) if drawn else fields.number("points", 1),
        result=result,
        crawford=fields.flag("crawford"),
    )
    fields.check_nothing_left()
    if drawn and record.winner is not None:
        raise _contradiction(f"game {number} is a draw and has no winner")
    return record


def _last_play(fields: _Fields) -> LastPlay:
    player = fields.player("player")
    dice = fields.dice("dice")
    notation = fields.text("play")
    moves = fields.items("moves")
    if len(moves) > 4:
        raise fields.wrong("moves", "at most four moves", moves)
    play = Play(tuple(_move(fields, f"moves[{index}]", move) for index, move in enumerate(moves)))
    fields.check_nothing_left()
    if notation != format_play(play):
        raise InvalidSnapshotError(
            f"the snapshot's 'last_play' says {notation!r}, but its moves are {format_play(play)!r}"
        )
    return LastPlay(player, dice, play)


def _move(fields: _Fields, name: str, value: object) -> Move:
    if isinstance(value, list | tuple) and len(value) == 4:
        source, destination, die, hit = value
        if (
            _is_number(source, OFF + 1, IN)
            and _is_number(die, 1, 6)
            and isinstance(hit, bool)
            and type(destination) is int
            and destination == max(min(source, BAR) - die, OFF)
        ):
            return make_move(source, die, hit)
    raise fields.wrong(name, "a checker's move [source, destination, die, hit]", value)


def _check_consistent(state: MatchState) -> None:
    """Refuse fields that contradict each other, so that the rules never meet such a state."""
    phase = state.phase
    waiting = phase in ("opening", "finished")
    if (state.turn is None) != waiting:
        needs = "no player" if waiting else "a player"
        raise _contradiction(f"the phase {phase!r} needs {needs} on turn, not {state.turn!r}")
    resigned = phase == "resigned"
    if (state.resignation is None) == resigned:
        raise _contradiction(
            f"the phase {phase!r} does not fit the resignation {state.resignation!r}"
        )
    if (state.phase_before_resignation is None) == resigned:
        raise _contradiction(
            f"the phase {phase!r} does not fit the phase before resignation "
            f"{state.phase_before_resignation!r}"
        )
    moving = (state.phase_before_resignation if resigned else phase) == "moving"
    if (state.dice is None) == moving:
        raise _contradiction(f"the phase {phase!r} does not fit the dice {state.dice!r}")
    if state.dice_named and (state.dice is None or not state.game_variant.one_two_names_a_double):
        raise _contradiction("only the dice of a double named after a 1-2 are named")
    if state.turns_taken != (0, 0) and not state.game_variant.doubles_climb_from_turn:
        raise _contradiction("turns are counted only where a game's doubles climb")
    finished = phase == "finished"
    if state.aborted and not finished:
        raise _contradiction(f"the phase {phase!r} does not fit aborted {state.aborted!r}")
    if (state.winner is not None) != (finished and not state.aborted):
        raise _contradiction(
            f"the phase {phase!r}, aborted {state.aborted!r}, does not fit the winner "
            f"{state.winner!r}"
        )
    if state.end_offered_by is not None and finished:
        raise _contradiction("a finished match has no offer to end it")
    if state.board is None:
        try:
            Board(state.game_variant, state.position.points)
        except EngineError as error:
            raise _contradiction(
                f"the position is no {state.game_variant.name} board: {error}"
            ) from error
    if state.end_reason is not None and not finished:
        raise _contradiction(f"the phase {phase!r} has no end reason, not {state.end_reason!r}")


def _contradiction(message: str) -> InvalidSnapshotError:
    return InvalidSnapshotError(f"the snapshot contradicts itself: {message}")


def _is_number(value: object, low: int, high: int | None = None) -> TypeGuard[int]:
    return type(value) is int and value >= low and (high is None or value <= high)


class _Fields:
    """Reads one mapping of a snapshot field by field, saying which is missing or wrong.

    ``path`` names the mapping inside the snapshot (``last_play``, ``games[2]``); None for the
    snapshot itself.
    """

    def __init__(self, path: str | None, data: object) -> None:
        if not isinstance(data, Mapping):
            where = "a snapshot" if path is None else f"the snapshot's {path!r}"
            raise InvalidSnapshotError(f"{where} is a mapping, not {data!r}")
        self.prefix = "" if path is None else f"{path}."
        self.data: Mapping[object, object] = data
        self.read: set[str] = set()

    def value(self, name: str) -> object:
        if name not in self.data:
            raise InvalidSnapshotError(f"the snapshot has no {self.prefix + name!r} field")
        self.read.add(name)
        return self.data[name]

    def wrong(self, name: str, expected: str, value: object) -> InvalidSnapshotError:
        return InvalidSnapshotError(
            f"the snapshot's {self.prefix + name!r} is {expected}, not {value!r}"
        )

    def check_nothing_left(self) -> None:
        unknown = sorted(repr(f"{self.prefix}{key}") for key in self.data if key not in self.read)
        if unknown:
            raise InvalidSnapshotError(f"the snapshot has no field {', '.join(unknown)}")

    def optional(self, name: str, read: Callable[[str], _T]) -> _T | None:
        """None, or the field as ``read`` reads it."""
        return None if self.value(name) is None else read(name)

    def number(self, name: str, low: int, high: int | None = None) -> int:
        value = self.value(name)
        if type(value) is not int or not _is_number(value, low, high):
            span = f"from {low} up" if high is None else f"from {low} to {high}"
            raise self.wrong(name, f"a whole number {span}", value)
        return value

    def player(self, name: str) -> int:
        value = self.value(name)
        if type(value) is not int or value not in (0, 1):
            raise self.wrong(name, "player 0 or 1", value)
        return value

    def flag(self, name: str) -> bool:
        value = self.value(name)
        if not isinstance(value, bool):
            raise self.wrong(name, "true or false", value)
        return value

    def text(self, name: str) -> str:
        value = self.value(name)
        if not isinstance(value, str):
            raise self.wrong(name, "text", value)
        return value

    def choice(self, name: str, options: Mapping[str, _T]) -> _T:
        value = self.value(name)
        if not isinstance(value, str) or value not in options:
            raise self.wrong(name, f"one of {', '.join(map(repr, options))}", value)
        return options[value]

    def cube_value(self, name: str) -> int:
        value = self.value(name)
        if type(value) is not int or value not in _CUBE_VALUES:
            raise self.wrong(name, f"a power of two from 1 to {_CUBE_VALUES[-1]}", value)
        return value

    def counts(self, name: str) -> tuple[int, int]:
        value = self.value(name)
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise self.wrong(name, "two whole numbers from 0 up", value)
        if not all(_is_number(points, 0) for points in value):
            raise self.wrong(name, "two whole numbers from 0 up", value)
        return value[0], value[1]

    def dice(self, name: str) -> Dice:
        value = self.value(name)
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or not all(_is_number(die, 1, 6) for die in value)
        ):
            raise self.wrong(name, "a list of two dice from 1 to 6", value)
        return Dice(value[0], value[1])

    def position(self, name: str) -> Position:
        value = self.value(name)
        if not isinstance(value, list | tuple):
            raise self.wrong(name, "a list of the board's 26 slots", value)
        try:
            return Position(tuple(value))
        except EngineError as error:
            raise InvalidSnapshotError(
                f"the snapshot's {self.prefix + name!r} is not a board: {error}"
            ) from error

    def board(self, name: str, variant: Variant) -> Board:
        value = self.text(name)
        try:
            return Board.parse(variant, value)
        except EngineError as error:
            raise InvalidSnapshotError(
                f"the snapshot's {self.prefix + name!r} is not a {variant.name} board: {error}"
            ) from error

    def items(self, name: str) -> list[object]:
        value = self.value(name)
        if not isinstance(value, list | tuple):
            raise self.wrong(name, "a list", value)
        return list(value)

    def mapping(self, name: str) -> _Fields:
        return _Fields(self.prefix + name, self.value(name))

    def mappings(self, name: str) -> list[_Fields]:
        return [
            _Fields(f"{self.prefix}{name}[{index}]", item)
            for index, item in enumerate(self.items(name))
        ]
