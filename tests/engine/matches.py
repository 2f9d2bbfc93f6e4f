"""Matches built for the tests of the match rules: the state after some events, or changed."""

import dataclasses

from games.engine.events import Event, OpeningRoll, PlayMade
from games.engine.match import MatchState, fold


def match(length: int, *events: Event) -> MatchState:
    return fold(length, events)


def player_1_on_roll(length: int = 5, *events: Event) -> MatchState:
    """Player 0 opened with 3-1 (8/5 6/5); player 1 is on roll."""
    return match(length, OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5"), *events)


def at(state: MatchState, **changes: object) -> MatchState:
    return dataclasses.replace(state, **changes)  # type: ignore[arg-type]
