"""How a game ends and what it scores: resignations, and gammons and backgammons with the
cube."""

import pytest

from games.engine import Dice, Position
from games.engine.errors import IllegalActionError
from games.engine.events import (
    AcceptResignation,
    Double,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    event_from_payload,
)
from games.engine.match import GameRecord, MatchState
from tests.engine.matches import at, player_1_on_roll


def last_checker(theirs: dict[int, int]) -> Position:
    """Player 0 bears off their last checker with any roll; ``theirs`` is player 1's board."""
    return Position.from_checkers({1: 1}, theirs)


# --- Resignations ------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "scored"), [(1, 2), (2, 4), (3, 6)])
def test_accepted_resignation_scores_its_points_times_the_cube(points, scored):
    state = player_1_on_roll(7, Double(1), Take(0)).apply(Resign(1, points))
    assert (state.phase, state.resignation, state.player_to_act()) == ("resigned", points, 0)
    assert state.legal_actions(0) == ("accept_resign", "reject_resign")
    assert state.legal_actions(1) == ()
    state = state.apply(AcceptResignation(0))
    assert state.score == (scored, 0)
    assert state.games == (GameRecord(1, 0, scored, "resign", False),)
    assert state.phase == "opening" and state.game_number == 2


def test_rejected_resignation_resumes_with_the_same_dice():
    moving = player_1_on_roll().apply(Roll(1, Dice(4, 2)))
    offered = moving.apply(Resign(1, 2))
    assert offered.dice == Dice(4, 2) and offered.phase_before_resignation == "moving"
    assert offered.legal_plays() == ()
    assert offered.apply(RejectResignation(0)) == moving
    rolling = player_1_on_roll()
    assert rolling.apply(Resign(1, 1)).apply(RejectResignation(0)) == rolling


def test_resignation_of_four_points_is_refused():
    for points in (4, 0, -1, True):
        with pytest.raises(IllegalActionError, match="1 .*, 2 .* or 3"):
            player_1_on_roll().apply(Resign(1, points))
        with pytest.raises(IllegalActionError, match="'points'|1 .*, 2 .* or 3"):
            event_from_payload("resign", {"player": 1, "points": points})


def test_resign_only_on_your_own_turn():
    state = player_1_on_roll()
    with pytest.raises(IllegalActionError, match="cannot resign now: it is your opponent's turn"):
        state.apply(Resign(0, 1))
    with pytest.raises(IllegalActionError, match="cannot resign now: you have been doubled"):
        state.apply(Double(1)).apply(Resign(0, 1))


# --- Game results ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "result", "scored"),
    [
        ({12: 14}, "single", 2),
        ({12: 15}, "gammon", 4),
        ({12: 14, 20: 1}, "backgammon", 6),
        ({12: 14, 25: 1}, "backgammon", 6),
    ],
)
def test_gammon_and_backgammon_are_counted_with_the_cube(theirs, result, scored):
    board = last_checker(theirs)
    for winner in (0, 1):
        state = at(
            MatchState.new(9),
            phase="moving",
            turn=winner,
            dice=Dice(2, 1),
            cube_value=2,
            cube_owner=1 - winner,
            position=board if winner == 0 else board.flipped(),
        )
        state = state.apply(PlayMade(winner, "1/off"))
        assert state.games == (GameRecord(1, winner, scored, result, False),)
        assert state.score[winner] == scored and state.score[1 - winner] == 0
        assert state.phase == "opening" and state.cube_value == 1
