"""Matches for the format tests: random ones played out by the engine, and what a .mat keeps.

A .mat file records rolls, plays, cube actions and each game's result; it has no place for a
tied opening roll, a rejected resignation or a moderator's decision. ``as_recorded`` reduces a
log to what the format keeps, so a log and its round trip through a .mat file can be compared.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.engine import (
    AcceptResignation,
    Dice,
    Double,
    Drop,
    Event,
    MatchAborted,
    MatchAwarded,
    MatchRules,
    MatchState,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    format_play,
    parse_play,
)

Recorded = tuple[object, ...]


def random_match(
    seed: int, match_length: int, *, max_events: int = 20_000, rules: MatchRules | None = None
) -> list[Event]:
    """The events of a match (by ``rules``: backgammon's unless given, one of the variants
    that hit) played to its end with random dice and random decisions.

    Plays are half random and half racing (fewest pips left), so games end; cube actions,
    resignations (accepted and rejected) and tied opening rolls all happen.
    """
    rng = random.Random(seed)
    state = MatchState.new(match_length, rules)
    events: list[Event] = []
    while not state.is_finished() and len(events) < max_events:
        event = _random_event(rng, state)
        state = state.apply(event)
        events.append(event)
    return events


def _random_event(rng: random.Random, state: MatchState) -> Event:
    turn = state.turn
    if state.phase == "opening":
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    assert turn is not None
    if state.phase == "rolling":
        if state.can_double(turn) and rng.random() < 0.08:
            return Double(turn)
        if rng.random() < 0.003:
            return Resign(turn, rng.randint(1, 3))
        return Roll(turn, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    if state.phase == "moving":
        if rng.random() < 0.003:
            return Resign(turn, rng.randint(1, 3))
        plays = state.legal_plays()
        position = state.position_for(turn)
        if rng.random() < 0.5:
            play = rng.choice(plays)
        else:
            play = min(plays, key=lambda p: position.apply(p).pip_count()[0])
        return PlayMade(turn, format_play(play))
    if state.phase == "doubled":
        return Take(1 - turn) if rng.random() < 0.6 else Drop(1 - turn)
    assert state.phase == "resigned"
    if rng.random() < 0.7:
        return AcceptResignation(1 - turn)
    return RejectResignation(1 - turn)


def as_recorded(
    match_length: int, events: Iterable[Event], rules: MatchRules | None = None
) -> list[Recorded]:
    """What a .mat file keeps of ``events``: rolls with their plays as resolved (canonical
    notation), cube actions, and resignations accepted, each with its player."""
    state = MatchState.new(match_length, rules)
    kept: list[Recorded] = []
    for event in events:
        before = state
        state = state.apply(event)
        if isinstance(event, OpeningRoll):
            if state.dice is not None:
                kept.append(("opening", state.turn, state.dice.high, state.dice.low))
        elif isinstance(event, Roll):
            kept.append(("roll", event.player, event.dice.first, event.dice.second))
        elif isinstance(event, PlayMade):
            assert before.dice is not None
            play = parse_play(event.notation, before.position_for(event.player), before.dice)
            kept.append(("play", event.player, format_play(play)))
        elif isinstance(event, Double | Take | Drop):
            kept.append((event.kind, event.player))
        elif isinstance(event, AcceptResignation):
            assert before.resignation is not None
            kept.append(("resigned", 1 - event.player, before.resignation))
        elif not isinstance(event, Resign | RejectResignation | MatchAwarded | MatchAborted):
            raise AssertionError(f"unexpected event {event!r}")
    return kept
