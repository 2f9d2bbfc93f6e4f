"""GNU Backgammon's identifiers as bits: the Position ID's runs of checkers and the Match ID.

gnubg writes both as base64 of a key packed first bit least significant. This module does not
know the Position class: ``Position.position_id()`` and ``Position.from_position_id()`` hand it
checker counts and take counts back, so the board and its identifier never import each other.

GNU Backgammon names its players 0 and 1 and draws player 1 (X) at the bottom.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import EngineError, InvalidMatchIdError, InvalidPositionError

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_POSITION_ID_LENGTH = 14
_POSITION_KEY_BITS = 80
_SLOTS_PER_SIDE = 25  # 24 points and the bar
_MATCH_ID_LENGTH = 12
_MATCH_KEY_BITS = 67  # 66 in the manual, and since 2011 a 67th: "Jacoby not in use"
MAX_CUBE = 2**15
MAX_SCORE = 2**15 - 1


def _base64_bits(text: str, length: int, kind: str, error: type[EngineError]) -> int:
    """The bits of a gnubg ID, first bit least significant, after checking its characters."""
    if len(text) != length:
        raise error(f"not a {kind}: {text!r} has {len(text)} characters; a {kind} has {length}")
    for char in text:
        if char not in _ALPHABET:
            raise error(
                f"not a {kind}: {text!r} contains {char!r}, which is not a base64 character"
            )
    raw = base64.b64decode(text + "=" * (-length % 4))
    # A Position ID's 14 characters hold 84 bits for an 80-bit key: the last 4 must be zero.
    spare = length * 6 - len(raw) * 8
    if _ALPHABET.index(text[-1]) & ((1 << spare) - 1):
        raise error(f"not a {kind}: the last character of {text!r} encodes bits past the key's end")
    return int.from_bytes(raw, "little")


def _base64_text(bits: int, size: int, length: int) -> str:
    return base64.b64encode(bits.to_bytes(size, "little")).decode("ascii")[:length]


# --- Position ID -------------------------------------------------------------------------------


def position_id_of_counts(counts: Sequence[int]) -> str:
    """The Position ID of 50 checker counts: the opponent's points 1 to 24 and bar, each in
    their own numbering, then the same for the player on roll.

    For each player, the player not on roll first, gnubg appends a 1 bit for each checker and
    then a 0 for each of their points 1 to 24 and then their bar; the bits are padded to 80,
    packed first bit least significant, and written in base64. (The manual's prose puts the
    player on roll first; the program, whose IDs everyone exchanges, does not.)

    >>> start = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0]
    >>> position_id_of_counts(start + start)
    '4HPwATDgc/ABMA'
    """
    bits = 0
    shift = 0
    for count in counts:
        bits |= ((1 << count) - 1) << shift
        shift += count + 1
    return _base64_text(bits, _POSITION_KEY_BITS // 8, _POSITION_ID_LENGTH)


def counts_of_position_id(text: str, checkers: int) -> tuple[list[int], list[int]]:
    """The checker counts a Position ID holds: (the opponent's, the player on roll's), each
    their points 1 to 24 and then their bar in their own numbering.

    Raises ``InvalidPositionError`` when ``text`` is not a Position ID of a board where each
    side has at most ``checkers`` checkers.

    >>> opponent, player = counts_of_position_id("4HPwATDgc/ABMA", 15)
    >>> opponent == player, player[5], player[7], player[12], player[23], player[24]
    (True, 5, 3, 5, 2, 0)
    """
    bits = _base64_bits(text, _POSITION_ID_LENGTH, "Position ID", InvalidPositionError)
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
            if total > checkers:
                raise InvalidPositionError(
                    f"not a Position ID: {text!r} gives {who} more than {checkers} checkers"
                )
            counts.append(count)
            shift += 1
        sides.append(counts)
    if bits >> shift:
        raise InvalidPositionError(
            f"not a Position ID: {text!r} has checkers after the player on roll's bar"
        )
    theirs, mine = sides
    for point in range(1, _SLOTS_PER_SIDE):
        if mine[point - 1] and theirs[_SLOTS_PER_SIDE - point - 1]:
            raise InvalidPositionError(
                f"not a Position ID: {text!r} puts both players on the {point} point"
            )
    return theirs, mine


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
    Jacoby in use. Impossible fields raise ``InvalidMatchIdError``.

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
        error = InvalidMatchIdError
        check_cube(self.cube_value, error)
        if self.cube_owner not in (None, 0, 1) or type(self.cube_owner) is bool:
            raise error(f"the cube's owner is player 0, 1 or None, not {self.cube_owner!r}")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1) or type(getattr(self, name)) is not int:
                raise error(f"{name} is player 0 or 1, not {getattr(self, name)!r}")
        for name in ("crawford", "doubled", "jacoby"):
            if type(getattr(self, name)) is not bool:
                raise error(f"{name} is True or False, not {getattr(self, name)!r}")
        if not is_whole_in(self.game_state, 0, DROPPED):
            raise error(f"the game state is 0 to 4, not {self.game_state!r}")
        if not is_whole_in(self.resigned, 0, 3):
            raise error(f"a resignation offers 0 (none) to 3 (a backgammon), not {self.resigned!r}")
        dice = checked_dice(self.dice, error, allow_unrolled=True)
        object.__setattr__(self, "dice", dice)
        check_match(self.match_length, self.score, error)
        if self.crawford and self.match_length == 0:
            raise error("a money game has no Crawford game")


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
    >>> match_id(key)
    'QYkqASAAIAAA'
    >>> match_key_from_id("QYkqASAAIAA")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidMatchIdError: not a Match ID: 'QYkqASAAIAA' has 11 characters; \
a Match ID has 12
    """
    text = text.strip()
    bits = _base64_bits(text, _MATCH_ID_LENGTH, "Match ID", InvalidMatchIdError)
    if bits >> _MATCH_KEY_BITS:
        raise InvalidMatchIdError(
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
        raise InvalidMatchIdError(
            f"not a Match ID: {text!r} gives the cube's owner as 2 (0, 1 or 3 for centred)"
        )
    if state > DROPPED:
        raise InvalidMatchIdError(f"not a Match ID: {text!r} has game state {state} (0 to 4)")
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
    except InvalidMatchIdError as error:
        raise InvalidMatchIdError(f"not a Match ID: {text!r}: {error}") from None


# --- Checks the Match ID shares with the XGID --------------------------------------------------


def is_whole_in(value: object, low: int, high: int) -> bool:
    """``value`` is an int (not a bool) from ``low`` to ``high``."""
    return type(value) is int and low <= value <= high


def check_cube(value: int, error: type[EngineError]) -> None:
    """Raise ``error`` unless the cube shows a power of two from 1 to ``MAX_CUBE``."""
    if not is_whole_in(value, 1, MAX_CUBE) or value & (value - 1):
        raise error(f"the cube shows a power of two from 1 to {MAX_CUBE}, not {value!r}")


def checked_dice(
    dice: object, error: type[EngineError], *, allow_unrolled: bool
) -> tuple[int, int]:
    """``dice`` high die first; (0, 0) stands for no roll when ``allow_unrolled``."""
    if not (isinstance(dice, tuple) and len(dice) == 2 and all(type(d) is int for d in dice)):
        raise error(f"dice are a pair of whole numbers, not {dice!r}")
    first, second = dice
    if allow_unrolled and first == second == 0:
        return (0, 0)
    if not (1 <= first <= 6 and 1 <= second <= 6):
        unrolled = " or (0, 0) before the roll" if allow_unrolled else ""
        raise error(f"dice show 1 to 6{unrolled}, not {dice!r}")
    return (first, second) if first >= second else (second, first)


def check_match(length: int, score: tuple[int, int], error: type[EngineError]) -> None:
    """Raise ``error`` unless ``length`` is 0 (money) to ``MAX_SCORE`` and ``score`` fits it."""
    if not is_whole_in(length, 0, MAX_SCORE):
        raise error(f"a match length is 0 (money) to {MAX_SCORE}, not {length!r}")
    if not (isinstance(score, tuple) and len(score) == 2):
        raise error(f"a score is a pair of whole numbers, not {score!r}")
    most = length or MAX_SCORE
    for points in score:
        if not is_whole_in(points, 0, most):
            raise error(
                f"a score is 0 to {most}{' in this match' if length else ''}, not {points!r}"
            )
