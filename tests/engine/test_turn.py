"""Putting a play together checker by checker, as on the board."""

import random

import pytest
from hypothesis import given, settings

from games.engine import BAR, Dice, IllegalPlayError, Position, legal_plays
from games.engine.turn import PartialPlay

from .test_properties import dice, positions


def test_moves_that_would_leave_no_legal_play_are_not_offered():
    # Our 3 point is closed: 9/3 is impossible and 9/7 must be followed by 7/1.
    position = Position.from_checkers({9: 1}, {22: 2, 13: 13})
    turn = PartialPlay(position, Dice(6, 2))
    assert turn.destinations(9) == {7: turn.move_to(9, 7)}
    turn = turn.with_move(turn.move_to(9, 7))
    assert not turn.is_complete()
    assert list(turn.destinations(7)) == [1]


def test_the_higher_die_rule_holds_step_by_step():
    position = Position.from_checkers({12: 1}, {21: 2, 24: 13})  # only 12/7 is legal
    turn = PartialPlay(position, Dice(5, 3))
    assert list(turn.destinations(12)) == [7]
    with pytest.raises(IllegalPlayError, match="cannot go to the 9 point"):
        turn.move_to(12, 9)


def test_a_double_click_moves_by_the_higher_die():
    turn = PartialPlay(Position.starting(), Dice(6, 4))
    assert turn.quick_move(24).destination == 18
    assert turn.quick_move(8).destination == 2


def test_undo_takes_back_the_last_step():
    turn = PartialPlay(Position.starting(), Dice(3, 1))
    first = turn.with_move(turn.move_to(8, 5))
    assert first.remaining_dice() == (1,)
    assert first.undo() == turn
    assert first.with_move(first.move_to(6, 5)).play()


def test_an_unfinished_play_cannot_be_sent():
    turn = PartialPlay(Position.starting(), Dice(3, 1))
    with pytest.raises(IllegalPlayError, match="not finished"):
        turn.with_move(turn.move_to(8, 5)).play()


def test_a_checker_on_the_bar_is_the_only_one_that_moves():
    position = Position.from_checkers({BAR: 1, 13: 14}, {})
    assert PartialPlay(position, Dice(6, 5)).movable_points() == {BAR}


def test_each_die_takes_a_checker_to_its_own_destination():
    position = Position.from_checkers({4: 1, 6: 1}, {13: 15})
    turn = PartialPlay(position, Dice(6, 5))
    assert turn.destinations(6)[0].die == 6
    assert turn.move_to(6, 1).die == 5


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(positions(), dice)
def test_random_steps_always_end_in_a_legal_play(position, roll):
    finals = {position.apply(play) for play in legal_plays(position, roll)}
    turn = PartialPlay(position, roll)
    rng = random.Random(0)
    while not turn.is_complete():
        options = turn.next_moves()
        assert options
        turn = turn.with_move(rng.choice(options))
    assert turn.position in finals or (not finals and not turn.moves)


def test_when_both_dice_bear_a_checker_off_the_lower_is_used():
    position = Position.from_checkers({5: 1, 2: 1}, {13: 15})
    turn = PartialPlay(position, Dice(6, 5))
    assert turn.destinations(5)[0].die == 5
    assert turn.with_move(turn.move_to(5, 0)).remaining_dice() == (6,)
