"""gnubg's second opinion on matches ended by a resignation over a roll not played: the .mat
shows that roll, and gnubg's import keeps it in some positions and drops it in others."""

from __future__ import annotations

import random

import pytest

from games.computer.gnubg import GnubgRun
from games.computer.review import review_match
from games.engine import (
    AcceptResignation,
    Dice,
    Event,
    MatchState,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
    format_play,
)
from games.engine.mat import export_mat
from tests.conftest import GNUBG, NO_GNUBG


def resigned_over_a_roll(seed: int) -> list[Event]:
    """A 1-point match of random plays that the player on roll resigns, dice rolled, on the
    seventh turn."""
    rng = random.Random(seed)
    state, events = MatchState.new(1), []

    def act(event: Event) -> None:
        nonlocal state
        state = state.apply(event)
        events.append(event)

    while state.phase == "opening":
        act(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
    plays = 0
    while not state.is_finished():
        turn = state.turn
        assert turn is not None
        if state.phase == "rolling":
            act(Roll(turn, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        elif plays == 6:
            act(Resign(turn, 1))
            act(AcceptResignation(1 - turn))
        else:
            plays += 1
            act(PlayMade(turn, format_play(rng.choice(state.legal_plays()))))
    return events


@pytest.mark.skipif(GNUBG is None, reason=NO_GNUBG)
@pytest.mark.parametrize("seed", [1, 4], ids=["gnubg-drops-the-roll", "gnubg-keeps-the-roll"])
def test_a_match_resigned_over_a_roll_gets_the_second_opinion(seed: int) -> None:
    events = resigned_over_a_roll(seed)
    assert isinstance(events[-1], AcceptResignation) and isinstance(events[-3], Roll)
    assert GNUBG is not None
    run = GnubgRun.start(export_mat(("alice", "bob"), 1, events), program=GNUBG, plies=0)
    try:
        review = review_match(1, events, plies=1, second_opinion=run.result)
    finally:
        run.stop()
    assert review.unavailable == {}
    assert list(review.engines) == ["bgsage", "gnubg"]
    assert any(decision.opinion("gnubg") is not None for decision in review.decisions)
