"""Position and match identifiers shared with other programs: GNU Backgammon's Position ID and
Match ID, and eXtreme Gammon's XGID.

Each comes in a pair, a writer and a reader, and each reader rejects malformed text with an
``InvalidPositionError`` that says what is wrong.

GNU Backgammon names its players 0 and 1 and draws player 1 (X) at the bottom; XGIDs are written
from the side of the bottom player, X. The conversions here take gnubg's player 1 to be X, as
gnubg's own XGID import does.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

from .errors import InvalidPositionError
from .play import BAR
from .position import CHECKERS, Position

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_POSITION_ID_LENGTH = 14
_POSITION_KEY_BITS = 80
_SLOTS_PER_SIDE = 25  # 24 points and the bar
_MATCH_ID_LENGTH = 12
_MATCH_KEY_BITS = 67  # 66 in the manual, and since 2011 a 67th: "Jacoby not in use"
MAX_CUBE = 2**15
MAX_SCORE = 2**15 - 1


def _base64_bits(text: str, length: int, kind: str) -> int:
    """The bits of a gnubg ID, first bit least significant, after checking its characters."""
    if len(text) != length:
        raise InvalidPositionError(
            f"not a {kind}: {text!r} has {len(text)} characters; a {kind} has {length}"
        )
    for char in text:
        if char not in _ALPHABET:
            raise InvalidPositionError(
                f"not a {kind}: {text!r} contains {char!r}, which is not a base64 character"
            )
    raw = base64.b64decode(text + "=" * (-length % 4))
    # A Position ID's 14 characters hold 84 bits for an 80-bit key: the last 4 must be zero.
    spare = length * 6 - len(raw) * 8
    if _ALPHABET.index(text[-1]) & ((1 << spare) - 1):
        raise InvalidPositionError(
            f"not a {kind}: the last character of {text!r} encodes bits past the key's end"
        )
    return int.from_bytes(raw, "little")


def _base64_text(bits: int, size: int, length: int) -> str:
    return base64.b64encode(bits.to_bytes(size, "little")).decode("ascii")[:length]


# --- Position ID -------------------------------------------------------------------------------


def position_id(position: Position) -> str:
    """GNU Backgammon's Position ID of ``position`` (14 characters).

    For each player, the player not on roll first, gnubg appends a 1 bit for each checker and
    then a 0 for each of their points 1 to 24 (their numbering) and then their bar; the bits are
    padded to 80, packed first bit least significant, and written in base64. (The manual's prose
    puts the player on roll first; the program, whose IDs everyone exchanges, does not.)

    >>> position_id(Position.starting())
    '4HPwATDgc/ABMA'
    >>> position_id(Position.from_checkers({1: 4, 3: 3, 4: 1}, {2: 1}))
    'AgAAPBcAAAAAAA'
    """
    points = position.points
    # The opponent's point p is slot BAR - p: their points 1 to 24 are the slots 24 down to 1.
    counts = [max(-points[slot], 0) for slot in range(BAR - 1, 0, -1)]
    counts.append(position.opponent_checkers(BAR))
    counts.extend(max(points[slot], 0) for slot in range(1, BAR))
    counts.append(position.checkers(BAR))
    bits = 0
    shift = 0
    for count in counts:
        bits |= ((1 << count) - 1) << shift
        shift += count + 1
    return _base64_text(bits, _POSITION_KEY_BITS // 8, _POSITION_ID_LENGTH)


def position_from_id(text: str) -> Position:
    """Read a GNU Backgammon Position ID; the position is seen from the side of the player on roll.

    Surrounding whitespace is ignored.

    >>> position_from_id("4HPwATDgc/ABMA") == Position.starting()
    True
    >>> position_from_id("4HPwATDgc/ABM")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidPositionError: not a Position ID: '4HPwATDgc/ABM' has 13 \
characters; a Position ID has 14
    """
    text = text.strip()
    bits = _base64_bits(text, _POSITION_ID_LENGTH, "Position ID")
    sides: list[list[int]] = []
    shift = 0
    for who in ("the opponent", "the player on roll"):
        counts: list[int] = []
        total = 0
        for _ in range(_SLOTS_PER_SIDE):
            count = 0
            while bits >> shift & 1:
                count += 1
                shift += 1
            total += count
            # 15 checkers a side fit in 80 bits with every separator, so an ID short of
            # separators always shows up here, as too many checkers.
            if total > CHECKERS:
                raise InvalidPositionError(
                    f"not a Position ID: {text!r} gives {who} more than {CHECKERS} checkers"
                )
            counts.append(count)
            shift += 1
        sides.append(counts)
    if bits >> shift:
        raise InvalidPositionError(
            f"not a Position ID: {text!r} has checkers after the player on roll's bar"
        )
    theirs, mine = sides
    for point in range(1, BAR):
        if mine[point - 1] and theirs[BAR - point - 1]:
            raise InvalidPositionError(
                f"not a Position ID: {text!r} puts both players on the {point} point"
            )
    return Position.from_checkers(
        {point: count for point, count in enumerate(mine, 1) if count},
        {point: count for point, count in enumerate(theirs, 1) if count},
    )


# --- Match ID ----------------------------------------------------------------------------------

NO_GAME, PLAYING, GAME_OVER, RESIGNED, DROPPED = range(5)


@dataclass(frozen=True, slots=True)
class MatchKey:
    """What GNU Backgammon's Match ID records, with its own players 0 and 1.

    ``player_on_roll`` is the player who rolls or rolled (gnubg's "dice owner"); ``turn`` is the
    player who must act now, which differs while a double or a resignation awaits an answer.
    ``cube_owner`` is None for a centred cube. ``game_state`` is ``NO_GAME``, ``PLAYING``,
    ``GAME_OVER``, ``RESIGNED`` or ``DROPPED``. ``resigned`` offers 0 (nothing), 1 (a single
    game), 2 (a gammon) or 3 (a backgammon). ``dice`` is (0, 0) before the roll and is kept high
    die first, as gnubg writes it. ``match_length`` 0 is a money game. ``jacoby`` says whether
    the Jacoby rule is in use; gnubg records it in a bit added in 2011, so older IDs read as
    Jacoby in use.

    >>> MatchKey(1, None, 1, False, PLAYING, 1, False, 0, (2, 5), 9, (2, 4)).dice
    (5, 2)
    """

    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    crawford: bool
    game_state: int
    turn: int
    doubled: bool
    resigned: int
    dice: tuple[int, int]
    match_length: int
    score: tuple[int, int]
    jacoby: bool = False

    def __post_init__(self) -> None:
        _check_cube(self.cube_value)
        if self.cube_owner not in (None, 0, 1) or type(self.cube_owner) is bool:
            raise InvalidPositionError(
                f"the cube's owner is player 0, 1 or None, not {self.cube_owner!r}"
            )
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1) or type(getattr(self, name)) is not int:
                raise InvalidPositionError(f"{name} is player 0 or 1, not {getattr(self, name)!r}")
        for name in ("crawford", "doubled", "jacoby"):
            if type(getattr(self, name)) is not bool:
                raise InvalidPositionError(f"{name} is True or False, not {getattr(self, name)!r}")
        if not _is_int_in(self.game_state, 0, DROPPED):
            raise InvalidPositionError(f"the game state is 0 to 4, not {self.game_state!r}")
        if not _is_int_in(self.resigned, 0, 3):
            raise InvalidPositionError(
                f"a resignation offers 0 (none) to 3 (a backgammon), not {self.resigned!r}"
            )
        object.__setattr__(self, "dice", _checked_dice(self.dice, allow_unrolled=True))
        _check_match(self.match_length, self.score, "a score")
        if self.crawford and self.match_length == 0:
            raise InvalidPositionError("a money game has no Crawford game")


def match_id(key: MatchKey) -> str:
    """GNU Backgammon's Match ID of ``key`` (12 characters).

    >>> match_id(MatchKey(2, 0, 1, False, PLAYING, 1, False, 0, (5, 2), 9, (2, 4), jacoby=True))
    'QYkqASAAIAAA'
    """
    owner = 3 if key.cube_owner is None else key.cube_owner
    fields = (
        (key.cube_value.bit_length() - 1, 4),
        (owner, 2),
        (key.player_on_roll, 1),
        (key.crawford, 1),
        (key.game_state, 3),
        (key.turn, 1),
        (key.doubled, 1),
        (key.resigned, 2),
        (key.dice[0], 3),
        (key.dice[1], 3),
        (key.match_length, 15),
        (key.score[0], 15),
        (key.score[1], 15),
        (not key.jacoby, 1),
    )
    bits = 0
    shift = 0
    for value, width in fields:
        bits |= int(value) << shift
        shift += width
    return _base64_text(bits, 9, _MATCH_ID_LENGTH)


def match_key_from_id(text: str) -> MatchKey:
    """Read a GNU Backgammon Match ID. Surrounding whitespace is ignored.

    >>> key = match_key_from_id("QYkqASAAIAAA")
    >>> key.cube_value, key.cube_owner, key.player_on_roll, key.dice, key.match_length, key.score
    (2, 0, 1, (5, 2), 9, (2, 4))
    """
    text = text.strip()
    bits = _base64_bits(text, _MATCH_ID_LENGTH, "Match ID")
    if bits >> _MATCH_KEY_BITS:
        raise InvalidPositionError(
            f"not a Match ID: {text!r} sets bits past the 67th, which gnubg leaves at zero"
        )
    values: list[int] = []
    shift = 0
    for width in (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1):
        values.append(bits >> shift & ((1 << width) - 1))
        shift += width
    log_cube, owner, on_roll, crawford, state, turn, doubled, resigned, die1, die2 = values[:10]
    length, score0, score1, not_jacoby = values[10:]
    if owner == 2:
        raise InvalidPositionError(
            f"not a Match ID: {text!r} gives the cube's owner as 2 (0, 1 or 3 for centred)"
        )
    if state > DROPPED:
        raise InvalidPositionError(f"not a Match ID: {text!r} has game state {state} (0 to 4)")
    try:
        return MatchKey(
            cube_value=1 << log_cube,
            cube_owner=None if owner == 3 else owner,
            player_on_roll=on_roll,
            crawford=bool(crawford),
            game_state=state,
            turn=turn,
            doubled=bool(doubled),
            resigned=resigned,
            dice=(die1, die2),
            match_length=length,
            score=(score0, score1),
            jacoby=not not_jacoby,
        )
    except InvalidPositionError as error:
        raise InvalidPositionError(f"not a Match ID: {text!r}: {error}") from None


# --- XGID --------------------------------------------------------------------------------------

_XG_BEAVERS = {"D": 0, "B": 1, "R": 2}
_WHOLE = re.compile(r"-?[0-9]+")


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
    written.

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
        if not isinstance(self.position, Position):
            raise InvalidPositionError(f"an XGID's position is a Position, not {self.position!r}")
        _check_cube(self.cube_value)
        if self.cube_owner not in (-1, 0, 1) or type(self.cube_owner) is not int:
            raise InvalidPositionError(
                f"the cube's owner is 1 (X), -1 (O) or 0 (centred), not {self.cube_owner!r}"
            )
        if self.turn not in (-1, 1) or type(self.turn) is not int:
            raise InvalidPositionError(f"the turn is 1 (X) or -1 (O), not {self.turn!r}")
        if self.dice is not None:
            object.__setattr__(self, "dice", _checked_dice(self.dice, allow_unrolled=False))
        if type(self.doubled) is not bool:
            raise InvalidPositionError(f"doubled is True or False, not {self.doubled!r}")
        if not _is_int_in(self.beavers, 0, 2):
            raise InvalidPositionError(
                f"beavers is 0, 1 (beaver) or 2 (raccoon), not {self.beavers!r}"
            )
        if self.beavers and not self.doubled:
            raise InvalidPositionError("a beaver answers a double: beavers needs doubled")
        if self.doubled and self.dice is not None:
            raise InvalidPositionError("the dice are not rolled while a double awaits an answer")
        _check_match(self.match_length, (self.score_x, self.score_o), "a score")
        most = 1 if self.match_length else 3
        if not _is_int_in(self.crawford_jacoby, 0, most):
            raise InvalidPositionError(
                f"the Crawford/Jacoby field is 0 to {most} in "
                f"{'a match' if self.match_length else 'money play'}, "
                f"not {self.crawford_jacoby!r}"
            )
        if not _is_int_in(self.max_cube, 0, 15):
            raise InvalidPositionError(f"the cube limit is 0 to 15, not {self.max_cube!r}")

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
    """
    text = text.strip()
    body = text[5:] if text[:5].upper() == "XGID=" else text
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidPositionError(
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
            raise InvalidPositionError(
                f"not an XGID: {text!r} has {field!r} for the {name}, not a whole number"
            )
        numbers[name] = int(field)
    if not 0 <= numbers["cube"] <= 15:
        raise InvalidPositionError(
            f"not an XGID: {text!r} gives the cube as 2**{numbers['cube']} (2**0 to 2**15)"
        )
    doubled = dice in _XG_BEAVERS
    if doubled or dice == "00":
        rolled = None
    elif len(dice) == 2 and all(d in "123456" for d in dice):
        rolled = (int(dice[0]), int(dice[1]))
    else:
        raise InvalidPositionError(
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
    except InvalidPositionError as error:
        raise InvalidPositionError(f"not an XGID: {text!r}: {error}") from None


def _xg_position(board: str, text: str) -> Position:
    if len(board) != 26:
        raise InvalidPositionError(
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
            raise InvalidPositionError(f"not an XGID: {text!r}: {whose} checkers")
        else:
            raise InvalidPositionError(
                f"not an XGID: {text!r} has {char!r} on the board; use A-P, a-p or -"
            )
    try:
        return Position.from_checkers(x_checkers, o_checkers)
    except InvalidPositionError as error:
        raise InvalidPositionError(f"not an XGID: {text!r}: {error}") from None


def _xg_char(count: int) -> str:
    """X's ``count`` checkers as ``A``-``P``, O's (a negative count) as ``a``-``p``."""
    if count > 0:
        return chr(ord("A") + count - 1)
    if count < 0:
        return chr(ord("a") - count - 1)
    return "-"


# --- Between gnubg and XG ----------------------------------------------------------------------

XG_MAX_CUBE = 10


def xgid_from_gnubg(position_text: str, match_text: str) -> str:
    """The XGID of a gnubg Position ID and Match ID; gnubg's player 1 is X, the bottom player.

    The resignation and game state have no place in an XGID and are dropped; the rules field
    carries the Crawford flag in a match and the Jacoby flag in money play.

    >>> xgid_from_gnubg("4HPwATDgc/ABMA", "8IhuACAACAAE")
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10'
    """
    key = match_key_from_id(match_text)
    on_roll = position_from_id(position_text)
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
    and the other must answer. gnubg IDs cannot record a beaver, so "B" and "R" are refused.

    >>> gnubg_from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10")
    ('4HPwATDgc/ABMA', '8IluACAACAAE')
    """
    state = xgid_from_text(text)
    if state.beavers:
        raise InvalidPositionError(
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
    return position_id(state.position_on_roll()), match_id(key)


# --- Checks shared by the keys -----------------------------------------------------------------


def _is_int_in(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _check_cube(value: int) -> None:
    if not _is_int_in(value, 1, MAX_CUBE) or value & (value - 1):
        raise InvalidPositionError(
            f"the cube shows a power of two from 1 to {MAX_CUBE}, not {value!r}"
        )


def _checked_dice(dice: object, *, allow_unrolled: bool) -> tuple[int, int]:
    """``dice`` high die first; (0, 0) stands for no roll when ``allow_unrolled``."""
    if not (isinstance(dice, tuple) and len(dice) == 2 and all(type(d) is int for d in dice)):
        raise InvalidPositionError(f"dice are a pair of whole numbers, not {dice!r}")
    first, second = dice
    if allow_unrolled and first == second == 0:
        return (0, 0)
    if not (1 <= first <= 6 and 1 <= second <= 6):
        unrolled = " or (0, 0) before the roll" if allow_unrolled else ""
        raise InvalidPositionError(f"dice show 1 to 6{unrolled}, not {dice!r}")
    return (first, second) if first >= second else (second, first)


def _check_match(length: int, score: tuple[int, int], what: str) -> None:
    if not _is_int_in(length, 0, MAX_SCORE):
        raise InvalidPositionError(f"a match length is 0 (money) to {MAX_SCORE}, not {length!r}")
    if not (isinstance(score, tuple) and len(score) == 2):
        raise InvalidPositionError(f"{what} is a pair of whole numbers, not {score!r}")
    most = length or MAX_SCORE
    for points in score:
        if not _is_int_in(points, 0, most):
            raise InvalidPositionError(
                f"{what} is 0 to {most}{' in this match' if length else ''}, not {points!r}"
            )
