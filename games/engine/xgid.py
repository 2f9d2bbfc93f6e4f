"""eXtreme Gammon's XGID, both ways, and its conversion to and from GNU Backgammon's IDs.

Each reader rejects malformed text with an ``InvalidXgidError`` that says what is wrong.

XGIDs are written from the side of the bottom player, X. GNU Backgammon names its players 0 and
1 and draws player 1 (X) at the bottom; the conversions here take gnubg's player 1 to be X, as
gnubg's own XGID import does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InvalidPositionError, InvalidXgidError
from .gnubg import (
    PLAYING,
    MatchKey,
    check_cube,
    check_match,
    checked_dice,
    is_whole_in,
    match_id,
    match_key_from_id,
)
from .play import BAR
from .position import Position

_XG_BEAVERS = {"D": 0, "B": 1, "R": 2}
_WHOLE = re.compile(r"-?[0-9]+")
XG_MAX_CUBE = 10


@dataclass(frozen=True, slots=True, kw_only=True)
class XgidState:
    """What an XGID (eXtreme Gammon) records. XG writes everything from the bottom player's side.

    ``position`` is the board seen from X's side (X is the bottom player, who is not always on
    roll); ``position_on_roll()`` gives it from the side of the player on roll, as the rest of
    the engine sees boards. ``cube_owner`` is 1 (X), -1 (O) or 0 (centred); ``turn`` is 1 when
    X is on roll and -1 when O is. ``dice`` is None before the roll. ``doubled`` is XG's "D":
    the player on roll (``turn``) has doubled and the other must answer; ``beavers`` is 1 after a
    beaver ("B") and 2 after a raccoon ("R"). ``crawford_jacoby`` is XG's rules field: in a match
    1 marks the Crawford game; in money play it adds 1 for the Jacoby rule and 2 for beavers.
    ``match_length`` 0 is money play. ``max_cube`` is XG's last field (XG writes 10), kept as
    written. Impossible fields raise ``InvalidXgidError``.

    >>> XgidState(position=Position.starting(), dice=(3, 5)).dice
    (5, 3)
    """

    position: Position
    cube_value: int = 1
    cube_owner: int = 0
    turn: int = 1
    dice: tuple[int, int] | None = None
    doubled: bool = False
    beavers: int = 0
    score_x: int = 0
    score_o: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 10

    def __post_init__(self) -> None:
        error = InvalidXgidError
        if not isinstance(self.position, Position):
            raise error(f"an XGID's position is a Position, not {self.position!r}")
        check_cube(self.cube_value, error)
        if self.cube_owner not in (-1, 0, 1) or type(self.cube_owner) is not int:
            raise error(
                f"the cube's owner is 1 (X), -1 (O) or 0 (centred), not {self.cube_owner!r}"
            )
        if self.turn not in (-1, 1) or type(self.turn) is not int:
            raise error(f"the turn is 1 (X) or -1 (O), not {self.turn!r}")
        if self.dice is not None:
            object.__setattr__(self, "dice", checked_dice(self.dice, error, allow_unrolled=False))
        if type(self.doubled) is not bool:
            raise error(f"doubled is True or False, not {self.doubled!r}")
        if not is_whole_in(self.beavers, 0, 2):
            raise error(f"beavers is 0, 1 (beaver) or 2 (raccoon), not {self.beavers!r}")
        if self.beavers and not self.doubled:
            raise error("a beaver answers a double: beavers needs doubled")
        if self.doubled and self.dice is not None:
            raise error("the dice are not rolled while a double awaits an answer")
        check_match(self.match_length, (self.score_x, self.score_o), error)
        most = 1 if self.match_length else 3
        if not is_whole_in(self.crawford_jacoby, 0, most):
            raise error(
                f"the Crawford/Jacoby field is 0 to {most} in "
                f"{'a match' if self.match_length else 'money play'}, "
                f"not {self.crawford_jacoby!r}"
            )
        if not is_whole_in(self.max_cube, 0, 15):
            raise error(f"the cube limit is 0 to 15, not {self.max_cube!r}")

    def position_on_roll(self) -> Position:
        """The board from the side of the player on roll: ``position``, flipped if O is on roll."""
        return self.position if self.turn == 1 else self.position.flipped()


def xgid(state: XgidState) -> str:
    """The XGID of ``state``, with its ``XGID=`` prefix.

    >>> xgid(XgidState(position=Position.starting(), match_length=5))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10'
    """
    position = state.position
    chars = [_xg_char(-position.opponent_checkers(BAR))]
    chars.extend(_xg_char(count) for count in position.points[1:BAR])
    chars.append(_xg_char(position.checkers(BAR)))
    if state.doubled:
        dice = "DBR"[state.beavers]
    elif state.dice is None:
        dice = "00"
    else:
        dice = f"{state.dice[0]}{state.dice[1]}"
    fields = [
        "".join(chars),
        str(state.cube_value.bit_length() - 1),
        str(state.cube_owner),
        str(state.turn),
        dice,
        str(state.score_x),
        str(state.score_o),
        str(state.crawford_jacoby),
        str(state.match_length),
        str(state.max_cube),
    ]
    return "XGID=" + ":".join(fields)


def xgid_from_text(text: str) -> XgidState:
    """Read an XGID, with or without its ``XGID=`` prefix. Surrounding whitespace is ignored.

    The board is 26 characters: O's bar, X's points 1 to 24 and X's bar, with ``A`` to ``P``
    for 1 to 16 of X's checkers, ``a`` to ``p`` for O's and ``-`` for none.

    >>> state = xgid_from_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10")
    >>> state.position == Position.starting(), state.turn, state.dice, state.match_length
    (True, 1, None, 5)
    >>> xgid(state)
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10'
    >>> xgid_from_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidXgidError: not an XGID: 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:\
0:0:0:5' has 9 colon-separated fields; an XGID has 10
    """
    text = text.strip()
    body = text[5:] if text[:5].upper() == "XGID=" else text
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidXgidError(
            f"not an XGID: {text!r} has {len(fields)} colon-separated fields; an XGID has 10"
        )
    board, cube, owner, turn, dice, score_x, score_o, rules, length, max_cube = fields
    position = _xg_position(board, text)
    numbers: dict[str, int] = {}
    for name, field in (
        ("cube", cube),
        ("cube owner", owner),
        ("turn", turn),
        ("X's score", score_x),
        ("O's score", score_o),
        ("Crawford/Jacoby", rules),
        ("match length", length),
        ("cube limit", max_cube),
    ):
        if not _WHOLE.fullmatch(field):
            raise InvalidXgidError(
                f"not an XGID: {text!r} has {field!r} for the {name}, not a whole number"
            )
        numbers[name] = int(field)
    if not 0 <= numbers["cube"] <= 15:
        raise InvalidXgidError(
            f"not an XGID: {text!r} gives the cube as 2**{numbers['cube']} (2**0 to 2**15)"
        )
    doubled = dice in _XG_BEAVERS
    if doubled or dice == "00":
        rolled = None
    elif len(dice) == 2 and all(d in "123456" for d in dice):
        rolled = (int(dice[0]), int(dice[1]))
    else:
        raise InvalidXgidError(
            f"not an XGID: {text!r} has dice {dice!r}; write 00, D, B, R or two dice like 52"
        )
    try:
        return XgidState(
            position=position,
            cube_value=1 << numbers["cube"],
            cube_owner=numbers["cube owner"],
            turn=numbers["turn"],
            dice=rolled,
            doubled=doubled,
            beavers=_XG_BEAVERS.get(dice, 0),
            score_x=numbers["X's score"],
            score_o=numbers["O's score"],
            crawford_jacoby=numbers["Crawford/Jacoby"],
            match_length=numbers["match length"],
            max_cube=numbers["cube limit"],
        )
    except InvalidXgidError as error:
        raise InvalidXgidError(f"not an XGID: {text!r}: {error}") from None


def _xg_position(board: str, text: str) -> Position:
    if len(board) != 26:
        raise InvalidXgidError(
            f"not an XGID: {text!r} describes the board in {len(board)} characters, not 26"
        )
    x_checkers: dict[int, int] = {}
    o_checkers: dict[int, int] = {}
    for slot, char in enumerate(board):
        # Slot i is X's point i (O's point 25 - i); slot 0 is O's bar and slot 25 X's.
        if char == "-":
            continue
        if "A" <= char <= "P" and slot != 0:
            x_checkers[slot] = ord(char) - ord("A") + 1
        elif "a" <= char <= "p" and slot != BAR:
            o_checkers[BAR - slot] = ord(char) - ord("a") + 1
        elif char.isalpha() and char.lower() <= "p":
            whose = "O's bar holds only O's (a-p)" if slot == 0 else "X's bar holds only X's (A-P)"
            raise InvalidXgidError(f"not an XGID: {text!r}: {whose} checkers")
        else:
            raise InvalidXgidError(
                f"not an XGID: {text!r} has {char!r} on the board; use A-P, a-p or -"
            )
    try:
        return Position.from_checkers(x_checkers, o_checkers)
    except InvalidPositionError as error:
        raise InvalidXgidError(f"not an XGID: {text!r}: {error}") from None


def _xg_char(count: int) -> str:
    """X's ``count`` checkers as ``A``-``P``, O's (a negative count) as ``a``-``p``."""
    if count > 0:
        return chr(ord("A") + count - 1)
    if count < 0:
        return chr(ord("a") - count - 1)
    return "-"


# --- Between gnubg and XG ----------------------------------------------------------------------


def xgid_from_gnubg(position_text: str, match_text: str) -> str:
    """The XGID of a gnubg Position ID and Match ID; gnubg's player 1 is X, the bottom player.

    The resignation and game state have no place in an XGID and are dropped; the rules field
    carries the Crawford flag in a match and the Jacoby flag in money play. A bad Position ID
    raises ``InvalidPositionError``, a bad Match ID ``InvalidMatchIdError``.

    >>> xgid_from_gnubg("4HPwATDgc/ABMA", "8IhuACAACAAE")
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10'
    """
    key = match_key_from_id(match_text)
    on_roll = Position.from_position_id(position_text)
    rules = int(key.crawford if key.match_length else key.jacoby)
    state = XgidState(
        position=on_roll if key.player_on_roll == 1 else on_roll.flipped(),
        cube_value=key.cube_value,
        cube_owner={None: 0, 1: 1, 0: -1}[key.cube_owner],
        turn=1 if key.player_on_roll == 1 else -1,
        dice=None if key.doubled or key.dice == (0, 0) else key.dice,
        doubled=key.doubled,
        score_x=key.score[1],
        score_o=key.score[0],
        crawford_jacoby=rules,
        match_length=key.match_length,
        max_cube=XG_MAX_CUBE,
    )
    return xgid(state)


def gnubg_from_xgid(text: str) -> tuple[str, str]:
    """The gnubg (Position ID, Match ID) of an XGID, as gnubg's own XGID import makes them.

    X is gnubg's player 1; the game is in play; with XG's "D" the player on roll has doubled
    and the other must answer. gnubg IDs cannot record a beaver, so "B" and "R" are refused
    (``InvalidXgidError``).

    >>> gnubg_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10")
    ('4HPwATDgc/ABMA', '8IluACAACAAE')
    """
    state = xgid_from_text(text)
    if state.beavers:
        raise InvalidXgidError(
            f"a gnubg Match ID cannot record the beaver or raccoon in {text.strip()!r}"
        )
    on_roll = 1 if state.turn == 1 else 0
    if state.match_length:
        crawford, jacoby = state.crawford_jacoby == 1, False
    else:
        crawford, jacoby = False, state.crawford_jacoby in (1, 3)
    key = MatchKey(
        cube_value=state.cube_value,
        cube_owner={0: None, 1: 1, -1: 0}[state.cube_owner],
        player_on_roll=on_roll,
        crawford=crawford,
        game_state=PLAYING,
        turn=1 - on_roll if state.doubled else on_roll,
        doubled=state.doubled,
        resigned=0,
        dice=state.dice or (0, 0),
        match_length=state.match_length,
        score=(state.score_o, state.score_x),
        jacoby=jacoby,
    )
    return state.position_on_roll().position_id(), match_id(key)
