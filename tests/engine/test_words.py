"""Every event of a match in words: each kind of event the engine knows has its words."""

import dataclasses
import inspect

import pytest

from games.engine import events
from games.engine.dice import Dice
from games.engine.events import (
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
)
from games.engine.match import MatchState, fold
from games.engine.position import Position
from games.engine.variants import MatchRules
from games.engine.words import EventWords, event_words

NAMES = ("alice", "bob")
OPENED = (OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5"))
ACEY_ONE_TWO = (OpeningRoll((3, 1)), Roll(0, Dice(2, 1)))


def match(*logged: Event, length: int = 5) -> MatchState:
    return fold(length, logged)


def about_to_win(theirs: dict[int, int] | None = None, **changes: object) -> MatchState:
    """Alice to play 6-5 with her last checker on her 1-point; bob has borne off none and
    has his checkers on ``theirs`` (all on his 6-point unless said)."""
    state = match(*OPENED, Roll(1, Dice(6, 5)), PlayMade(1, "24/13"))
    position = Position.from_checkers({1: 1}, theirs or {6: 15})
    return dataclasses.replace(  # type: ignore[arg-type]
        state, phase="moving", turn=0, dice=Dice(6, 5), position=position, **changes
    )


#: Each kind of event, told after the state it follows: (before, event, who, words).
EXAMPLES: list[tuple[MatchState, Event, int | None, str]] = [
    (
        match(),
        OpeningRoll((3, 1)),
        None,
        "opening roll 3-1 (alice 3, bob 1) — alice starts, playing 3-1",
    ),
    (match(), OpeningRoll((4, 4)), None, "opening roll 4-4 (alice 4, bob 4): a tie, rolled again"),
    (match(*OPENED), Roll(1, Dice(5, 6)), 1, "rolled 6-5"),
    (
        dataclasses.replace(  # type: ignore[arg-type]
            match(*OPENED),
            position=Position.from_checkers(
                {1: 3, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 2}, {25: 1, 13: 14}
            ),
        ),
        Roll(1, Dice(6, 6)),
        1,
        "rolled 6-6 and cannot move",
    ),
    (match(OpeningRoll((3, 1))), PlayMade(0, "8/5 6/5"), 0, "played 3-1: 8/5 6/5"),
    (
        about_to_win(),
        PlayMade(0, "1/off"),
        0,
        "played 6-5: 1/off; alice wins game 1, a gammon (2 points)",
    ),
    (
        about_to_win({19: 1, 6: 14}),
        PlayMade(0, "1/off"),
        0,
        "played 6-5: 1/off; alice wins game 1, a backgammon (3 points)",
    ),
    (
        about_to_win(score=(2, 0)),
        PlayMade(0, "1/off"),
        0,
        "played 6-5: 1/off; alice wins game 1, a gammon (2 points); game 2 is the Crawford game",
    ),
    (
        about_to_win(score=(3, 4), cube_value=2, cube_owner=0),
        PlayMade(0, "1/off"),
        0,
        "played 6-5: 1/off; alice wins game 1, a gammon (4 points) and the match, 7-4",
    ),
    (
        fold(5, ACEY_ONE_TWO, MatchRules.of("acey-deucey")),
        PlayMade(0, "in/24 in/23"),
        0,
        "played 2-1: in/24 in/23; names a double",
    ),
    (
        fold(5, (*ACEY_ONE_TWO, PlayMade(0, "in/24 in/23")), MatchRules.of("acey-deucey")),
        DoubleNamed(0, 4),
        0,
        "named 4-4",
    ),
    (
        fold(
            5,
            (*ACEY_ONE_TWO, PlayMade(0, "in/24 in/23"), DoubleNamed(0, 4)),
            MatchRules.of("acey-deucey"),
        ),
        PlayMade(0, "in/21(4)"),
        0,
        "played 4-4: in/21(4); rolls again",
    ),
    (match(*OPENED), Double(1), 1, "doubled to 2"),
    (match(*OPENED, Double(1)), Take(0), 0, "took; the cube is at 2"),
    (match(*OPENED, Double(1)), Drop(0), 0, "dropped; bob wins game 1 (1 point)"),
    (match(*OPENED), Resign(1, 1), 1, "offered to resign a single game (1 point)"),
    (match(*OPENED), Resign(1, 2), 1, "offered to resign a gammon (2 points)"),
    (
        match(*OPENED, Double(1), Take(0), Roll(1, Dice(2, 1)), PlayMade(1, "6/4 6/5")),
        Resign(0, 3),
        0,
        "offered to resign a backgammon (6 points)",
    ),
    (
        match(*OPENED, Resign(1, 2)),
        AcceptResignation(0),
        0,
        "accepted the resignation; alice wins game 1 (2 points)",
    ),
    (match(*OPENED, Resign(1, 1)), RejectResignation(0), 0, "rejected the resignation"),
    (match(*OPENED), TimedOut(1), 1, "ran out of time: alice wins the match, 0-0"),
    (match(*OPENED), Abort(0), 0, "ended the match without a winner, 0-0"),
    (match(*OPENED), OfferEnd(0), 0, "offered to end the match without a winner"),
    (match(*OPENED, OfferEnd(0)), AcceptEnd(1), 1, "agreed to end the match without a winner"),
    (match(*OPENED, OfferEnd(0)), DeclineEnd(1), 1, "declined to end the match: play goes on"),
    (
        match(*OPENED),
        MatchAwarded(1, "alice left"),
        None,
        "awarded the match to bob: alice left",
    ),
    (match(*OPENED), MatchAborted("a bug"), None, "ended the match without a winner: a bug"),
]


def event_kinds() -> set[type]:
    """Every kind of event defined in games/engine/events.py."""
    return {
        value
        for _, value in inspect.getmembers(events, inspect.isclass)
        if value.__module__ == events.__name__
        and dataclasses.is_dataclass(value)
        and getattr(value, "kind", "")
    }


def test_every_kind_of_event_has_words():
    told = {type(event) for _, event, _, _ in EXAMPLES}
    missing = sorted(kind.__name__ for kind in event_kinds() - told)
    assert not missing, f"give these events words in games/engine/words.py: {missing}"


@pytest.mark.parametrize(
    ("before", "event", "player", "words"),
    EXAMPLES,
    ids=[f"{event.kind}-{index}" for index, (_, event, _, _) in enumerate(EXAMPLES)],
)
def test_an_event_in_words(before, event, player, words):
    assert event_words(event, before, before.apply(event), NAMES) == EventWords(player, words)


def test_a_play_the_server_made_for_its_player_says_so():
    before = match(OpeningRoll((3, 1)))
    event = PlayMade(0, "8/5 6/5")
    said = event_words(event, before, before.apply(event), NAMES, server_played=True)
    assert said.words == "played 3-1: 8/5 6/5 (the only legal play, made by the server)"


def test_a_server_made_play_that_ends_the_game_says_both_in_order():
    before = about_to_win()
    event = PlayMade(0, "1/off")
    said = event_words(event, before, before.apply(event), NAMES, server_played=True)
    assert said.words == (
        "played 6-5: 1/off (the only legal play, made by the server); "
        "alice wins game 1, a gammon (2 points)"
    )


def test_a_thing_that_is_no_event_has_no_words():
    with pytest.raises(AssertionError):
        event_words("timeout", match(), match(), NAMES)  # type: ignore[arg-type]
