"""The rules of moving, one hand-built position per rule."""

import pytest

from games.engine import (
    BAR,
    Dice,
    GameResult,
    IllegalPlayError,
    InvalidPositionError,
    Position,
    legal_plays,
)
from games.engine.notation import parse_play
from games.engine.play import Play, format_play, make_move


def plays(position: Position, first: int, second: int) -> set[str]:
    return {format_play(play) for play in legal_plays(position, Dice(first, second))}


def board(mine: dict[int, int], theirs: dict[int, int] | None = None) -> Position:
    return Position.from_checkers(mine, theirs or {})


def test_starting_position_has_fifteen_checkers_and_167_pips_a_side():
    start = Position.starting()
    assert start.pip_count() == (167, 167)
    assert start.borne_off() == (0, 0)
    assert sum(n for n in start.points if n > 0) == 15
    assert sum(-n for n in start.points if n < 0) == 15
    assert [start.checkers(p) for p in (24, 13, 8, 6)] == [2, 5, 3, 5]


def test_positions_are_values():
    a, b = Position.starting(), Position.starting().flipped()
    assert a == b and hash(a) == hash(b)
    moved = a.apply(Play((make_move(24, 6),)))
    assert moved != a and a == Position.starting()
    assert moved.flipped().flipped() == moved


def test_a_position_refuses_impossible_boards():
    with pytest.raises(InvalidPositionError, match="at most 15"):
        board({6: 16})
    with pytest.raises(InvalidPositionError, match="both players"):
        board({6: 2}, {19: 1})
    with pytest.raises(InvalidPositionError, match="26"):
        Position((0,) * 25)


def test_opening_six_five_runs_24_18_13_because_the_19_point_is_closed():
    start = Position.starting()
    run = parse_play("24/13", start, Dice(6, 5))
    assert [(m.source, m.destination) for m in run.moves] == [(24, 18), (18, 13)]
    with pytest.raises(IllegalPlayError):
        parse_play("24/19/13", start, Dice(6, 5))
    assert plays(start, 6, 5) == {
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "13/2",
        "8/3 8/2",
    }


def test_a_checker_on_the_bar_enters_before_anything_else_moves():
    position = board({BAR: 1, 13: 14}, {})
    assert plays(position, 6, 5) == {"bar/19 13/8", "bar/20 13/7", "bar/14"}


def test_both_dice_may_be_needed_to_enter_two_checkers():
    position = board({BAR: 2, 13: 13}, {})
    assert plays(position, 6, 5) == {"bar/20 bar/19"}


def test_a_checker_that_cannot_enter_dances():
    closed = {point: 2 for point in range(1, 7)}
    assert plays(board({BAR: 1, 13: 14}, closed), 6, 5) == set()


def test_with_two_on_the_bar_one_entering_checker_cannot_move_on():
    position = board({BAR: 2, 13: 13}, {6: 2})  # their 6 point is our 19: closed
    assert plays(position, 6, 5) == {"bar/20"}


def test_a_point_held_by_two_or_more_opposing_checkers_is_closed():
    position = board({13: 1}, {17: 2, 24: 13})  # their 17 point is our 8
    assert plays(position, 5, 1) == {"13/7"}
    assert [m.destination for m in legal_plays(position, Dice(5, 1))[0].moves] == [12, 7]


def test_landing_on_a_lone_opposing_checker_hits_it():
    position = board({13: 1, 6: 14}, {17: 1, 24: 14})  # a blot on our 8 point
    hit = parse_play("13/8* 6/5", position, Dice(5, 1))
    after = position.apply(hit)
    assert after.opponent_checkers(BAR) == 1 and after.checkers(8) == 1
    assert format_play(hit) == "13/8* 6/5"
    assert "13/8*/7" in plays(position, 5, 1)


def test_a_checker_passes_over_closed_points_but_stops_only_on_open_ones():
    # Their 16, 15 and 24 points close our 9, 10 and 1.
    position = board({13: 1, 6: 14}, {16: 2, 15: 2, 24: 11})
    assert plays(position, 4, 1) == {"13/8", "13/12 6/2", "6/5 6/2"}
    assert [m.destination for m in parse_play("13/8", position, Dice(4, 1)).moves] == [12, 8]


def test_both_dice_must_be_played_when_any_order_allows_it():
    position = board({9: 1}, {22: 2, 13: 13})  # our 3 point is closed
    assert plays(position, 6, 2) == {"9/1"}  # 9/3 is closed, so 9/7/1 is forced
    with pytest.raises(IllegalPlayError, match="as much of the roll"):
        parse_play("9/7", position, Dice(6, 2))


def test_the_higher_die_must_be_played_when_only_one_die_can_be():
    # Either die alone can be played (12/7 or 12/9), never both: our 4 point is closed.
    position = board({12: 1}, {21: 2, 24: 13})
    assert plays(position, 5, 3) == {"12/7"}
    with pytest.raises(IllegalPlayError):
        parse_play("12/9", position, Dice(5, 3))


def test_the_lower_die_when_the_higher_cannot_be_played():
    position = board({12: 1}, {19: 2, 22: 2, 24: 11})  # our 6, 3 and 1 are closed
    assert plays(position, 6, 3) == {"12/9"}


def test_no_play_when_neither_die_can_move():
    position = board({12: 1}, {19: 2, 16: 2, 24: 11})  # our 6, 9 and 1 are closed
    assert plays(position, 6, 3) == set()


def test_a_double_plays_as_many_of_its_four_moves_as_possible():
    blocked = board({24: 1}, {7: 2, 24: 13})  # our 18 is closed
    assert plays(blocked, 2, 2) == {"24/20"}
    free = board({24: 1}, {24: 14})
    assert plays(free, 2, 2) == {"24/16"}
    assert all(len(play.moves) == 4 for play in legal_plays(Position.starting(), Dice(3, 3)))


def test_bearing_off_needs_every_checker_home():
    position = board({20: 1, 6: 14})
    assert plays(position, 6, 5) == {"20/9", "20/14 6/1"}
    assert plays(board({7: 1, 6: 14}, {24: 15}), 6, 1) == {"7/off"}  # 7/6 first, then off


def test_bearing_off_from_the_exact_point():
    position = board({5: 2, 3: 1}, {24: 15})  # our 1 point is closed
    assert plays(position, 5, 3) == {"5/off 3/off", "5/2 5/off"}


def test_a_higher_die_bears_off_only_from_the_highest_point():
    assert plays(board({4: 1, 2: 1}, {24: 15}), 6, 5) == {"4/off 2/off"}
    # A 5 may not bear off from the 2 while the 6 point is occupied: 6/2 first, then off.
    stuck = board({6: 1, 2: 1}, {24: 15})
    assert plays(stuck, 5, 4) == {"6/off"}
    assert [(m.source, m.die) for m in legal_plays(stuck, Dice(5, 4))[0].moves] == [(6, 4), (2, 5)]


def test_a_die_may_always_move_a_checker_inside_the_home_board_instead():
    position = board({6: 1, 5: 1})
    assert plays(position, 5, 1) == {"6/off", "6/1 5/4"}


def test_a_checker_hit_in_the_bear_off_must_come_home_before_bearing_off_resumes():
    position = board({BAR: 1, 3: 14})
    assert plays(position, 6, 3) == {"bar/16"}


def test_bearing_off_the_last_checker_ends_the_play():
    position = board({2: 1}, {24: 1, 1: 1, 13: 13})  # a blot on our 1 point (their 24)
    assert plays(position, 2, 1) == {"2/off", "2/1*/off"}


def test_plays_that_end_in_the_same_position_are_one_play():
    texts = plays(Position.starting(), 6, 1)
    assert "13/7 8/7" in texts and len(texts) == len(set(texts))
    assert len(legal_plays(Position.starting(), Dice(6, 1))) == len(texts)


@pytest.mark.parametrize(
    ("loser", "result"),
    [
        ({6: 14}, GameResult.SINGLE),  # loser has borne one off
        ({12: 15}, GameResult.GAMMON),
        ({20: 15}, GameResult.BACKGAMMON),  # in the winner's home board
        ({BAR: 1, 12: 14}, GameResult.BACKGAMMON),  # on the bar
    ],
)
def test_game_results(loser, result):
    position = board({}, loser)
    outcome = position.outcome()
    assert outcome is not None and outcome.winner_on_roll and outcome.result is result
    assert position.flipped().outcome().winner_on_roll is False


def test_no_outcome_while_both_have_checkers():
    assert Position.starting().outcome() is None
