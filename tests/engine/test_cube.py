"""The doubling cube in a match: doubles, takes, drops, a dead cube, and the Crawford rule."""

import pytest

from games.engine import Dice, Position
from games.engine.errors import IllegalActionError
from games.engine.events import (
    AcceptResignation,
    Double,
    Drop,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
    Take,
)
from games.engine.match import GameRecord
from tests.engine.matches import at, player_1_on_roll

# --- The cube ----------------------------------------------------------------------------


def test_double_only_before_rolling():
    state = player_1_on_roll()
    assert state.can_double(1)
    assert state.legal_actions(1) == ("roll", "double", "resign")
    rolled = state.apply(Roll(1, Dice(4, 2)))
    assert not rolled.can_double(1)
    with pytest.raises(IllegalActionError, match="you have rolled 4-2; a double comes first"):
        rolled.apply(Double(1))
    doubled = state.apply(Double(1))
    assert (doubled.phase, doubled.turn, doubled.player_to_act()) == ("doubled", 1, 0)
    assert doubled.legal_actions(0) == ("take", "drop")
    assert doubled.legal_actions(1) == ()


def test_only_the_cube_owner_or_either_player_while_centred_may_double():
    state = player_1_on_roll()
    assert state.cube_owner is None
    assert state.can_double(1) and not state.can_double(0)  # centred, but 0 is not on roll
    state = state.apply(Double(1)).apply(Take(0))
    assert (state.cube_value, state.cube_owner, state.turn) == (2, 0, 1)
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="your opponent owns the cube"):
        state.apply(Double(1))
    state = state.apply(Roll(1, Dice(4, 2))).apply(PlayMade(1, "8/4 6/4"))
    assert state.turn == 0 and state.can_double(0)
    state = state.apply(Double(0)).apply(Take(1))
    assert (state.cube_value, state.cube_owner) == (4, 1)


def test_take_doubles_the_cube_and_passes_it_to_the_taker():
    state = player_1_on_roll().apply(Double(1)).apply(Take(0))
    assert (state.cube_value, state.cube_owner) == (2, 0)
    assert (state.phase, state.turn, state.player_to_act()) == ("rolling", 1, 1)
    assert state.legal_actions(1) == ("roll", "resign")


def test_drop_loses_the_current_cube_value():
    state = player_1_on_roll(7, Double(1), Take(0), Roll(1, Dice(4, 2)), PlayMade(1, "8/4 6/4"))
    state = state.apply(Double(0)).apply(Drop(1))
    assert state.score == (2, 0)
    assert state.games == (GameRecord(1, 0, 2, "drop", False),)
    assert state.game_number == 2
    assert (state.phase, state.turn, state.dice) == ("opening", None, None)
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert state.position == Position.starting()
    assert state.last_play is None


def test_dead_cube_cannot_be_doubled():
    state = at(player_1_on_roll(5), score=(0, 3), cube_value=2, cube_owner=1)
    assert state.points_needed(1) == 2
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="you need 2 points .* the cube is dead"):
        state.apply(Double(1))
    assert at(state, cube_value=1, cube_owner=None).can_double(1)


# --- Crawford ----------------------------------------------------------------------------


def test_crawford_game_has_no_doubling():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))
    assert state.score == (2, 0) and state.crawford and not state.crawford_played
    state = state.apply(OpeningRoll((5, 6))).apply(PlayMade(1, "24/13"))
    assert state.turn == 0 and not state.can_double(0)
    assert state.legal_actions(0) == ("roll", "resign")
    with pytest.raises(IllegalActionError, match="You cannot double in the Crawford game"):
        state.apply(Double(0))
    state = state.apply(Roll(0, Dice(2, 1))).apply(PlayMade(0, "13/11 6/5"))
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="Crawford"):
        state.apply(Double(1))


def test_crawford_game_happens_once_and_post_crawford_allows_doubling():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))  # 2-0: game 2 is Crawford
    state = state.apply(OpeningRoll((5, 6))).apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.score == (3, 0)
    assert state.phase == "finished"  # the leader won the Crawford game
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (2, 1) and state.games[-1].crawford
    assert not state.crawford and state.crawford_played and state.is_post_crawford()
    state = state.apply(OpeningRoll((6, 5))).apply(PlayMade(0, "24/13"))
    assert state.can_double(1)  # the trailer doubles post-Crawford
    state = state.apply(Double(1)).apply(Take(0)).apply(Roll(1, Dice(2, 1)))
    state = state.apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.phase == "finished" and state.winner == 0 and state.score == (4, 1)
    assert [game.crawford for game in state.games] == [False, True, False]


def test_crawford_is_not_repeated_when_the_trailer_reaches_match_point_minus_one():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))  # Crawford game next
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (2, 2) and not state.crawford and state.is_post_crawford()


def test_crawford_follows_the_first_game_that_brings_a_player_within_one_point():
    state = player_1_on_roll(5, Resign(1, 1), AcceptResignation(0))
    assert state.score == (1, 0) and not state.crawford
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 3)).apply(AcceptResignation(1))
    assert state.score == (1, 3) and not state.crawford
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (1, 4) and state.crawford


def test_two_point_match_crawford_game_comes_after_the_first_point():
    state = player_1_on_roll(2, Resign(1, 1), AcceptResignation(0))
    assert state.crawford


def test_one_point_match_has_no_crawford_game():
    state = player_1_on_roll(1)
    assert not state.crawford and state.can_double(1) is False  # the cube is dead at 1-away
    state = state.apply(Roll(1, Dice(6, 6))).apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.phase == "finished" and state.winner == 0
    assert state.games == (GameRecord(1, 0, 1, "resign", False),)
