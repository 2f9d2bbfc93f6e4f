"""The events of a match log: what the server rolls and what the players and moderators do.

Each event is a frozen value that checks its own fields, writes itself as JSON-ready data with
``to_payload()``, and is read back with ``event_from_payload(kind, payload)``. Whether the rules
allow an event now is for ``MatchState.apply`` to say.

>>> event = Resign(1, 2)
>>> event.kind, event.to_payload()
('resign', {'player': 1, 'points': 2})
>>> event_from_payload(event.kind, event.to_payload()) == event
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from .dice import Dice, check_die
from .errors import IllegalActionError

if TYPE_CHECKING:
    from .board import Board
    from .play import Play
    from .position import Position
    from .variant_moves import VariantPlay

Payload: TypeAlias = dict[str, Any]

#: The points a resignation may offer (times the cube), with what each gives up.
RESIGNATIONS = {1: "a single game", 2: "a gammon", 3: "a backgammon"}


def opponent(player: int) -> int:
    """The other player."""
    return 1 - player


def check_player(value: object, role: str = "player") -> int:
    """Return ``value`` as player 0 or 1, or raise IllegalActionError naming its ``role``."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise IllegalActionError(f"a {role} is player 0 or player 1, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """The server's opening roll: ``dice[0]`` is player 0's die, ``dice[1]`` player 1's.

    Equal dice are rolled again; otherwise the higher die's player plays both numbers.
    """

    kind: ClassVar[str] = "opening_roll"
    dice: tuple[int, int]

    def __post_init__(self) -> None:
        if not isinstance(self.dice, tuple) or len(self.dice) != 2:
            raise IllegalActionError(
                f"an opening roll is two dice, one for each player, not {self.dice!r}"
            )
        for die in self.dice:
            check_die(die)

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"dice": list(self.dice)}


@dataclass(frozen=True, slots=True)
class _PlayerEvent:
    """An action taken by one player; the base of the events that carry only the player."""

    kind: ClassVar[str] = ""
    player: int

    def __post_init__(self) -> None:
        check_player(self.player)

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"player": self.player}


@dataclass(frozen=True, slots=True)
class Roll:
    """The player on roll rolls ``dice`` (rolled by the server)."""

    kind: ClassVar[str] = "roll"
    player: int
    dice: Dice

    def __post_init__(self) -> None:
        check_player(self.player)
        if not isinstance(self.dice, Dice):
            raise IllegalActionError(f"a roll is two dice, not {self.dice!r}")

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"player": self.player, "dice": [self.dice.first, self.dice.second]}


@dataclass(frozen=True, slots=True)
class ResolvedPlay:
    """The play a notation names, found for ``dice`` on the mover's board ``before`` (a
    Position, or a variant's Board): a Play, or a variant's play."""

    before: Position | Board
    dice: Dice
    play: Play | VariantPlay


@dataclass(frozen=True, slots=True)
class PlayMade:
    """The player on roll plays the roll, written in notation (``24/18 13/8``).

    The notation is resolved against the position and dice when the event is applied, so the
    event needs no board to be read from a log; any spelling ``parse_play`` accepts will do,
    and ``format_play(play)`` writes a Play canonically. An event made by
    ``MatchState.resolve_play`` carries the play found (``resolved``), which applying it to
    the same board and dice takes as it is, without reading the notation again; it is no
    part of the event's value.
    """

    kind: ClassVar[str] = "move"
    player: int
    notation: str
    resolved: ResolvedPlay | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_player(self.player)
        if not isinstance(self.notation, str):
            raise IllegalActionError(
                f"a play is written in notation such as '24/18 13/8', not {self.notation!r}"
            )

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"player": self.player, "play": self.notation}


@dataclass(frozen=True, slots=True)
class DoubleNamed:
    """After playing a 1-2 in full (acey-deucey), the player names the double ``number``-
    ``number`` and plays it as if rolled."""

    kind: ClassVar[str] = "name_double"
    player: int
    number: int

    def __post_init__(self) -> None:
        check_player(self.player)
        number = self.number
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 6:
            raise IllegalActionError(f"a double is named by a number from 1 to 6, not {number!r}")

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"player": self.player, "number": self.number}


@dataclass(frozen=True, slots=True)
class Double(_PlayerEvent):
    """The player on roll, before rolling, offers the cube at twice its value."""

    kind: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Take(_PlayerEvent):
    """The doubled player takes: the cube doubles and passes to them."""

    kind: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Drop(_PlayerEvent):
    """The doubled player drops, losing the game for the cube's value before the double."""

    kind: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Resign(_PlayerEvent):
    """The player on roll offers to lose ``points`` (1 single, 2 gammon, 3 backgammon) x cube."""

    kind: ClassVar[str] = "resign"
    points: int

    def __post_init__(self) -> None:
        check_player(self.player)
        if isinstance(self.points, bool) or self.points not in RESIGNATIONS:
            raise IllegalActionError(
                "a resignation offers 1 (a single game), 2 (a gammon) or 3 (a backgammon) "
                f"points, not {self.points!r}"
            )

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"player": self.player, "points": self.points}


@dataclass(frozen=True, slots=True)
class AcceptResignation(_PlayerEvent):
    """The resigner's opponent accepts: the game ends for the points offered."""

    kind: ClassVar[str] = "accept_resign"


@dataclass(frozen=True, slots=True)
class RejectResignation(_PlayerEvent):
    """The resigner's opponent rejects: play resumes exactly where it was."""

    kind: ClassVar[str] = "reject_resign"


@dataclass(frozen=True, slots=True)
class MatchAwarded:
    """A moderator's award: the match ends at once, ``winner`` winning it."""

    kind: ClassVar[str] = "match_awarded"
    winner: int
    reason: str

    def __post_init__(self) -> None:
        check_player(self.winner, "winner")
        if not isinstance(self.reason, str):
            raise IllegalActionError(f"an award's reason is text, not {self.reason!r}")

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"winner": self.winner, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class TimedOut(_PlayerEvent):
    """``player`` let their time run out: the opponent wins the match."""

    kind: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Abort(_PlayerEvent):
    """``player`` ends the match with no winner.

    The rules engine records it whenever the match is not over; when a player may abort (before
    anyone has moved, or against the computer) is the service's to decide.
    """

    kind: ClassVar[str] = "abort"


@dataclass(frozen=True, slots=True)
class OfferEnd(_PlayerEvent):
    """``player`` offers to end the match with no winner; the offer stands until answered."""

    kind: ClassVar[str] = "offer_end"


@dataclass(frozen=True, slots=True)
class AcceptEnd(_PlayerEvent):
    """The opponent of the player who offered to end the match agrees: it ends with no winner."""

    kind: ClassVar[str] = "accept_end"


@dataclass(frozen=True, slots=True)
class DeclineEnd(_PlayerEvent):
    """The opponent of the player who offered to end the match declines: play goes on."""

    kind: ClassVar[str] = "decline_end"


@dataclass(frozen=True, slots=True)
class MatchAborted:
    """The match ends with no winner."""

    kind: ClassVar[str] = "match_aborted"
    reason: str

    def __post_init__(self) -> None:
        if not isinstance(self.reason, str):
            raise IllegalActionError(f"an abort's reason is text, not {self.reason!r}")

    def to_payload(self) -> Payload:
        """The event as JSON-ready data."""
        return {"reason": self.reason}


Event: TypeAlias = (
    OpeningRoll
    | Roll
    | PlayMade
    | DoubleNamed
    | Double
    | Take
    | Drop
    | Resign
    | AcceptResignation
    | RejectResignation
    | MatchAwarded
    | TimedOut
    | Abort
    | OfferEnd
    | AcceptEnd
    | DeclineEnd
    | MatchAborted
)

EVENT_TYPES: dict[str, type[Event]] = {
    event_type.kind: event_type
    for event_type in (
        OpeningRoll,
        Roll,
        PlayMade,
        DoubleNamed,
        Double,
        Take,
        Drop,
        Resign,
        AcceptResignation,
        RejectResignation,
        MatchAwarded,
        TimedOut,
        Abort,
        OfferEnd,
        AcceptEnd,
        DeclineEnd,
        MatchAborted,
    )
}


def event_from_payload(kind: str, payload: Mapping[str, object]) -> Event:
    """The event of ``kind`` that ``payload`` (as written by ``to_payload``) describes.

    Missing, unknown or wrong-typed fields raise an ``EngineError`` that names them.

    >>> event_from_payload("move", {"player": 1, "play": "24/18 13/8"})
    PlayMade(player=1, notation='24/18 13/8')
    >>> event_from_payload("roll", {"player": 0, "dice": [6, 5]})
    Roll(player=0, dice=Dice(first=6, second=5))
    """
    event_type = EVENT_TYPES.get(kind)
    if event_type is None:
        raise IllegalActionError(
            f"there is no event {kind!r}; the events are {', '.join(sorted(EVENT_TYPES))}"
        )
    if not isinstance(payload, Mapping):
        raise IllegalActionError(f"the {kind} event's payload is a mapping, not {payload!r}")
    reader = _PayloadReader(kind, payload)
    event = _READERS[kind](reader)
    reader.check_nothing_left()
    return event


_READERS: dict[str, Callable[[_PayloadReader], Event]] = {
    "opening_roll": lambda fields: OpeningRoll(fields.dice()),
    "roll": lambda fields: Roll(fields.player(), Dice(*fields.dice())),
    "move": lambda fields: PlayMade(fields.player(), fields.text("play")),
    "name_double": lambda fields: DoubleNamed(fields.player(), fields.whole_number("number")),
    "double": lambda fields: Double(fields.player()),
    "take": lambda fields: Take(fields.player()),
    "drop": lambda fields: Drop(fields.player()),
    "resign": lambda fields: Resign(fields.player(), fields.whole_number("points")),
    "accept_resign": lambda fields: AcceptResignation(fields.player()),
    "reject_resign": lambda fields: RejectResignation(fields.player()),
    "match_awarded": lambda fields: MatchAwarded(fields.player("winner"), fields.text("reason")),
    "timeout": lambda fields: TimedOut(fields.player()),
    "abort": lambda fields: Abort(fields.player()),
    "offer_end": lambda fields: OfferEnd(fields.player()),
    "accept_end": lambda fields: AcceptEnd(fields.player()),
    "decline_end": lambda fields: DeclineEnd(fields.player()),
    "match_aborted": lambda fields: MatchAborted(fields.text("reason")),
}
assert set(_READERS) == set(EVENT_TYPES)


class _PayloadReader:
    """Reads a payload's fields one by one, saying which is missing or wrong."""

    def __init__(self, kind: str, payload: Mapping[str, object]) -> None:
        self.kind = kind
        self.payload = payload
        self.read: set[str] = set()

    def _field(self, name: str) -> object:
        if name not in self.payload:
            raise IllegalActionError(f"the {self.kind} event needs a {name!r} field")
        self.read.add(name)
        return self.payload[name]

    def player(self, name: str = "player") -> int:
        value = self._field(name)
        if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
            raise IllegalActionError(
                f"the {self.kind} event's {name!r} is player 0 or 1, not {value!r}"
            )
        return value

    def dice(self) -> tuple[int, int]:
        value = self._field("dice")
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise IllegalActionError(
                f"the {self.kind} event's 'dice' is a list of two dice, not {value!r}"
            )
        return check_die(value[0]), check_die(value[1])

    def text(self, name: str) -> str:
        value = self._field(name)
        if not isinstance(value, str):
            raise IllegalActionError(f"the {self.kind} event's {name!r} is text, not {value!r}")
        return value

    def whole_number(self, name: str) -> int:
        value = self._field(name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalActionError(
                f"the {self.kind} event's {name!r} is a whole number, not {value!r}"
            )
        return value

    def check_nothing_left(self) -> None:
        unknown = sorted(set(self.payload) - self.read)
        if unknown:
            raise IllegalActionError(
                f"the {self.kind} event has no field {', '.join(map(repr, unknown))}"
            )
