"""The events of a match log: every kind, written as JSON-ready payloads and read back."""

import json

import pytest

from games.engine import Dice, EngineError, InvalidDiceError
from games.engine.errors import IllegalActionError
from games.engine.events import (
    EVENT_TYPES,
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Double,
    DoubleNamed,
    Drop,
    Event,
    MatchAborted,
    MatchAwarded,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimedOut,
    event_from_payload,
)

ALL_EVENTS: list[Event] = [
    OpeningRoll((3, 1)),
    Roll(1, Dice(6, 6)),
    PlayMade(0, "bar/22* 13/8"),
    DoubleNamed(0, 4),
    Double(1),
    Take(0),
    Drop(0),
    Resign(1, 3),
    AcceptResignation(0),
    RejectResignation(1),
    MatchAwarded(1, "no show"),
    TimedOut(0),
    MatchAborted("moderator"),
    Abort(1),
    OfferEnd(0),
    AcceptEnd(1),
    DeclineEnd(1),
]


def test_every_event_kind_is_covered():
    assert {event.kind for event in ALL_EVENTS} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", ALL_EVENTS, ids=lambda event: event.kind)
def test_events_round_trip_through_json_payloads(event):
    payload = json.loads(json.dumps(event.to_payload()))
    assert event_from_payload(event.kind, payload) == event


def test_payload_fields_are_json_ready():
    assert Roll(0, Dice(6, 5)).to_payload() == {"player": 0, "dice": [6, 5]}
    assert OpeningRoll((2, 4)).to_payload() == {"dice": [2, 4]}
    assert PlayMade(1, "24/18 13/8").to_payload() == {"player": 1, "play": "24/18 13/8"}
    assert Resign(0, 2).to_payload() == {"player": 0, "points": 2}


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        ("castle", {}, "there is no event 'castle'"),
        ("roll", {"dice": [6, 5]}, "the roll event needs a 'player' field"),
        ("roll", {"player": 2, "dice": [6, 5]}, "'player' is player 0 or 1, not 2"),
        ("roll", {"player": True, "dice": [6, 5]}, "not True"),
        ("roll", {"player": "0", "dice": [6, 5]}, "not '0'"),
        ("roll", {"player": 0, "dice": [6]}, "'dice' is a list of two dice"),
        ("roll", {"player": 0, "dice": "65"}, "'dice' is a list of two dice"),
        ("opening_roll", {"dice": [6, 7]}, "a die shows 1 to 6, not 7"),
        ("move", {"player": 0}, "needs a 'play' field"),
        ("name_double", {"player": 0, "number": 7}, "a number from 1 to 6, not 7"),
        ("name_double", {"player": 0, "number": "4"}, "'number' is a whole number"),
        ("name_double", {"player": 0}, "needs a 'number' field"),
        ("move", {"player": 0, "play": ["24/18"]}, "'play' is text"),
        ("resign", {"player": 0, "points": "2"}, "'points' is a whole number"),
        ("double", {"player": 0, "cube": 2}, "the double event has no field 'cube'"),
        ("match_awarded", {"winner": None, "reason": "x"}, "'winner' is player 0 or 1"),
        ("match_aborted", {"reason": 3}, "'reason' is text"),
        ("take", ["player", 0], "payload is a mapping"),
    ],
)
def test_bad_payloads_are_refused_with_a_clear_message(kind, payload, message):
    with pytest.raises(EngineError, match=message):
        event_from_payload(kind, payload)


def test_events_check_their_own_fields():
    with pytest.raises(IllegalActionError, match="player 0 or player 1"):
        Double(2)
    with pytest.raises(InvalidDiceError):
        OpeningRoll((0, 3))
    with pytest.raises(IllegalActionError, match="in notation"):
        PlayMade(0, None)  # type: ignore[arg-type]
