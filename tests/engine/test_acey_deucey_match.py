"""Acey-deucey's match rules (docs/variants.md §4.2): the opening, the 1-2 roll with its named
double and extra roll, the rest of a 1-2 or a named double lost when it cannot be played in
full, and the board with its waiting checkers through the snapshot, the log and the record."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Dice, MatchRules, MatchState
from games.engine.board import Board
from games.engine.errors import IllegalActionError, InvalidSnapshotError
from games.engine.events import (
    DoubleNamed,
    Event,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
    event_from_payload,
)
from games.engine.match import NO_POSITION, fold
from games.engine.snapshots import snapshot, state_from_snapshot
from games.engine.text_record import export_text_record
from games.engine.variants import ACEY_DEUCEY, BACKGAMMON, VARIANTS
from tests.engine.matches import at

RULES = MatchRules.of("acey-deucey")
NAMES = ("alice", "bob")
#: Alice won the opening roll and rolled 1-2.
ONE_TWO = (OpeningRoll((3, 1)), Roll(0, Dice(2, 1)))


def acey(tokens: dict[int, int], counts: str) -> Board:
    """A board from player 0's side: signed checkers by point, then the six counts."""
    text = " ".join(str(tokens.get(point, 0)) for point in range(1, 25))
    return Board.parse(ACEY_DEUCEY, f"{text} | {counts}")


def state_at(board: Board, **changes: object) -> MatchState:
    return at(MatchState.new(5, RULES), board=board, **changes)


def round_trip(state: MatchState) -> MatchState:
    return state_from_snapshot(json.loads(json.dumps(snapshot(state))))


# --- The match and its opening ---------------------------------------------------------------


def test_the_rules_no_cube_and_resignations_of_one_two_or_three_points():
    assert not RULES.cube and not RULES.crawford
    state = MatchState.new(5, RULES)
    assert state.resignation_offers() == (1, 2, 3)
    assert state.board == Board.starting(ACEY_DEUCEY) and state.position == NO_POSITION
    assert state.pip_counts() == (375, 375) and state.position_id(0) is None


def test_the_opening_roll_decides_who_starts_and_the_starter_rolls_both_dice():
    state = fold(5, [OpeningRoll((3, 1))], RULES)
    assert (state.phase, state.turn, state.dice) == ("rolling", 0, None)
    assert state.legal_actions(0) == ("roll", "resign")
    state = state.apply(Roll(0, Dice(5, 5)))
    assert (state.phase, state.dice) == ("moving", Dice(5, 5))
    assert "in/20(4)" in state.legal_play_notations()


def test_the_opening_tie_is_rolled_again():
    assert fold(5, [OpeningRoll((4, 4))], RULES).phase == "opening"


# --- The 1-2 ---------------------------------------------------------------------------------


def test_a_one_two_played_in_full_names_a_double_plays_it_four_times_and_rolls_again():
    state = fold(5, ONE_TWO, RULES)
    state = state.apply(PlayMade(0, "in/24 in/23"))
    assert (state.phase, state.turn, state.dice) == ("naming", 0, None)
    assert state.legal_actions(0) == ("name_double", "resign")
    assert state.legal_actions(1) == ()
    state = state.apply(DoubleNamed(0, 4))
    assert (state.phase, state.turn, state.dice, state.dice_named) == (
        "moving",
        0,
        Dice(4, 4),
        True,
    )
    state = state.apply(PlayMade(0, "in/21(2) 24/20 23/19"))
    assert (state.phase, state.turn, state.dice, state.dice_named) == ("rolling", 0, None, False)
    assert state.board_for(0).waiting == (11, 15)
    # Again on another 1-2.
    state = state.apply(Roll(0, Dice(1, 2))).apply(PlayMade(0, "21/20 21/19"))
    assert (state.phase, state.turn) == ("naming", 0)
    # Any other roll after it ends the turn as usual.
    state = state.apply(DoubleNamed(0, 6)).apply(PlayMade(0, "in/19(4)"))
    state = state.apply(Roll(0, Dice(6, 3))).apply(PlayMade(0, "in/22 20/14"))
    assert (state.phase, state.turn) == ("rolling", 1)


def test_a_one_two_that_cannot_be_played_in_full_names_no_double_and_the_turn_passes():
    # Bob holds alice's 23 and 22 points: her 2 cannot enter, nor move on from 24.
    board = acey({23: -2, 22: -2}, "0 0 0 0 15 11")
    state = state_at(board, phase="rolling", turn=0).apply(Roll(0, Dice(2, 1)))
    assert state.legal_play_notations() == ("in/24",)
    state = state.apply(PlayMade(0, "in/24"))
    assert (state.phase, state.turn, state.dice_named) == ("rolling", 1, False)


def test_a_one_two_that_cannot_be_played_at_all_passes_at_the_roll():
    board = acey({24: -2, 23: -2}, "0 0 0 0 15 11")
    state = state_at(board, phase="rolling", turn=0).apply(Roll(0, Dice(2, 1)))
    assert (state.phase, state.turn) == ("rolling", 1)


def test_a_named_double_that_cannot_be_played_in_full_loses_the_rest_and_the_turn_passes():
    # Bob holds 19 (no 6 enters) and 12 (the checker on 24 stops at 18).
    board = acey({24: 1, 19: -2, 12: -2}, "0 0 0 0 14 11")
    state = state_at(board, phase="naming", turn=0).apply(DoubleNamed(0, 6))
    assert state.legal_play_notations() == ("24/18",)
    state = state.apply(PlayMade(0, "24/18"))
    assert (state.phase, state.turn, state.dice_named) == ("rolling", 1, False)


def test_a_named_double_that_cannot_be_played_at_all_passes_the_turn_at_once():
    board = acey({24: 1, 19: -2, 18: -2}, "0 0 0 0 14 11")
    state = state_at(board, phase="naming", turn=0).apply(DoubleNamed(0, 6))
    assert (state.phase, state.turn, state.dice, state.dice_named) == ("rolling", 1, None, False)
    assert state.last_play is not None and state.last_play.dice == Dice(6, 6)
    assert not state.last_play.play.moves


@pytest.mark.parametrize(
    ("events", "event", "message"),
    [
        ((OpeningRoll((3, 1)),), DoubleNamed(0, 4), "cannot name a double now: you are on roll"),
        (ONE_TWO, DoubleNamed(0, 4), "cannot name a double now: you are to play your 2-1"),
        (
            (*ONE_TWO, PlayMade(0, "in/24 in/23")),
            DoubleNamed(1, 4),
            "cannot name a double now: your opponent has played their 1-2",
        ),
        ((*ONE_TWO, PlayMade(0, "in/24 in/23")), Roll(0, Dice(6, 5)), "name a double"),
        ((*ONE_TWO, PlayMade(0, "in/24 in/23")), PlayMade(0, "24/20"), "name a double"),
    ],
)
def test_naming_a_double_outside_its_phase_is_refused(events, event, message):
    state = fold(5, events, RULES)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(event)


def test_naming_a_double_is_refused_where_the_variant_has_no_such_rule():
    state = fold(5, [OpeningRoll((2, 1))])
    assert not BACKGAMMON.one_two_names_a_double
    with pytest.raises(IllegalActionError, match="Backgammon has no such rule"):
        state.apply(PlayMade(0, "13/11 6/5")).apply(DoubleNamed(0, 4))


@pytest.mark.parametrize("number", [0, 7, True, "4"])
def test_a_double_is_named_by_a_number_from_1_to_6(number):
    with pytest.raises(IllegalActionError, match="from 1 to 6"):
        DoubleNamed(0, number)


def test_a_resignation_while_naming_returns_to_naming_when_rejected():
    from games.engine.events import RejectResignation

    state = fold(5, (*ONE_TWO, PlayMade(0, "in/24 in/23"), Resign(0, 3)), RULES)
    assert state.phase == "resigned"
    state = round_trip(state).apply(RejectResignation(1))
    assert (state.phase, state.turn) == ("naming", 0)


# --- Snapshot, log, record -------------------------------------------------------------------


def test_the_snapshot_carries_the_naming_phase_the_named_dice_and_the_waiting_checkers():
    naming = fold(5, (*ONE_TWO, PlayMade(0, "in/24 in/23")), RULES)
    data = snapshot(naming)
    assert data["board"].endswith("| 0 0 0 0 13 15") and "position" not in data
    assert "dice_named" not in data
    assert round_trip(naming) == naming
    named = naming.apply(DoubleNamed(0, 3))
    assert snapshot(named)["dice_named"] is True
    assert round_trip(named) == named
    bad = {**snapshot(naming), "dice_named": True}
    with pytest.raises(InvalidSnapshotError, match="named after a 1-2"):
        state_from_snapshot(bad)


def test_the_text_record_tells_the_named_double_and_the_extra_roll():
    events = [*ONE_TWO, PlayMade(0, "in/24 in/23"), DoubleNamed(0, 4), PlayMade(0, "in/21(4)")]
    record = export_text_record(NAMES, 5, events, RULES)
    assert "alice       played 2-1: in/24 in/23; names a double" in record
    assert "alice       named 4-4" in record
    assert "alice       played 4-4: in/21(4); rolls again" in record


def random_event(state: MatchState, rng: random.Random) -> Event:
    if state.phase == "opening":
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    player = state.player_to_act()
    assert player is not None
    actions = state.legal_actions(player)
    if "name_double" in actions:
        return DoubleNamed(player, rng.randint(1, 6))
    if "move" in actions:
        return PlayMade(player, rng.choice(state.variant_plays()).notation)
    assert "roll" in actions, actions
    return Roll(player, Dice(rng.randint(1, 6), rng.randint(1, 6)))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_matches_play_to_their_end_through_the_log_and_the_snapshots(seed):
    rng = random.Random(seed)
    state = MatchState.new(3, RULES)
    events: list[Event] = []
    named = 0
    while not state.is_finished():
        event = random_event(state, rng)
        event = event_from_payload(event.kind, json.loads(json.dumps(event.to_payload())))
        after = state.apply(event)
        named += isinstance(event, DoubleNamed)
        assert after.board is not None and after.position == NO_POSITION
        assert sum(after.board_for(0).borne_off()) <= 30
        assert round_trip(after) == after
        events.append(event)
        state = after
    assert named > 0
    assert fold(3, events, RULES) == state
    assert state.winner is not None and max(state.score) >= 3
    assert export_text_record(NAMES, 3, events, RULES).count("named ") == named


def test_no_other_variant_names_doubles_or_waits_off_the_board():
    assert ACEY_DEUCEY.one_two_names_a_double and not ACEY_DEUCEY.holds_position
    for variant in VARIANTS.values():
        if variant is not ACEY_DEUCEY:
            assert not variant.one_two_names_a_double
            assert variant.holds_position == variant.hits
