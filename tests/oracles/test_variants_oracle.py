"""The oracle checked by hand: one test per rule of docs/variants.md, positions worked out on paper.

Boards are given as {point: token}; every point not named is empty.
"""

import pytest

from tests.oracles.variants_oracle import (
    START_BOARDS,
    ImpossibleBoard,
    ambiguous_notations,
    game_is_over,
    legal_plays,
    opponent_view,
    parse_board,
    random_positions,
)


def board(points: dict[int, str | int], mover_off: int = 0, opponent_off: int = 0) -> str:
    tokens = [str(points.get(p, 0)) for p in range(1, 25)]
    return " ".join(tokens) + f" | {mover_off} {opponent_off} 0 0"


def plays(variant, points, dice, mover_off=0, opponent_off=0):
    return legal_plays(variant, board(points, mover_off, opponent_off), *dice)


def notations(variant, points, dice, mover_off=0, opponent_off=0):
    return {n for n, _ in plays(variant, points, dice, mover_off, opponent_off)}


# --- §1 the text board ------------------------------------------------------------------------


def test_board_is_written_with_single_spaces_and_pins_as_read():
    text = "-13  0 0 0 0 0 0 0 0 1p1 0 0 0 0 0 0 0 0 0 0 -1p1   0 0 12 | 1 0 0 0"
    expected = "-13 0 0 0 0 0 0 0 0 1p1 0 0 0 0 0 0 0 0 0 0 -1p1 0 0 12 | 1 0 0 0"
    assert parse_board("plakoto", text).text() == expected


@pytest.mark.parametrize(
    "variant, text",
    [
        ("fevga", START_BOARDS["fevga"].replace("15 |", "+15 |")),
        ("fevga", START_BOARDS["fevga"].replace("15 |", "015 |")),
        ("fevga", board({1: "-0", 24: 15, 12: -15})),
        ("plakoto", board({24: 14, 10: "1p0", 1: -15})),
        ("plakoto", board({24: 14, 10: "0p1", 1: -14})),
        ("plakoto", board({24: 14, 10: "1p2", 1: -13})),
        ("fevga", board({24: 14, 10: "1p1", 12: -14})),
        ("long-nardi", START_BOARDS["long-nardi"].replace("| 0 0 0 0", "| 0 0 1 0")),
        ("long-nardi", START_BOARDS["long-nardi"].replace("15 |", "14 |")),
        ("long-nardi", START_BOARDS["long-nardi"].replace("| 0 0 0 0", "| 0 0 0")),
        ("backgammon", START_BOARDS["fevga"]),
    ],
)
def test_malformed_or_impossible_boards_are_refused(variant, text):
    with pytest.raises(ImpossibleBoard):
        parse_board(variant, text)


def test_plakoto_opponent_sees_the_board_turned_round():
    seen = opponent_view(
        "plakoto", parse_board("plakoto", board({24: 13, 10: "1p1", 3: -14, 5: 1}))
    )
    assert seen.text() == board({1: -13, 15: "-1p1", 22: 14, 20: -1})


def test_fevga_and_nardi_opponent_counts_from_the_mover_s_twelve():
    seen = opponent_view("fevga", parse_board("fevga", board({24: 14, 3: 1, 12: -13, 20: -2})))
    assert seen.text() == board({12: -14, 15: -1, 24: 13, 8: 2})


def test_start_boards_seen_by_the_second_player_are_the_same():
    for variant, text in START_BOARDS.items():
        assert opponent_view(variant, parse_board(variant, text)).text() == text


# --- §2 dice and legal-play selection ---------------------------------------------------------


def test_a_double_is_played_four_times():
    assert plays("plakoto", {24: 15, 1: -15}, (1, 1)) >= {
        ("24/23(4)", board({24: 11, 23: 4, 1: -15})),
        ("24/20", board({24: 14, 20: 1, 1: -15})),
    }


def test_a_checker_using_both_dice_touches_down_on_an_open_point():
    # fevga: 10/8 is closed, so 10/3 goes by 5 only; by 8 it would not be legal.
    assert plays("fevga", {10: 1, 1: 14, 8: -1, 12: -14}, (5, 2)) == {
        ("10/3", board({3: 1, 1: 14, 8: -1, 12: -14})),
    }
    assert plays("fevga", {10: 1, 1: 14, 8: -1, 5: -1, 12: -13}, (5, 2)) == set()


def test_most_dice_must_be_used():
    # 10/5 alone would leave the 2 unplayed while 10/5/3 plays both.
    result = plays("fevga", {10: 1, 1: 14, 8: -1, 12: -14}, (5, 2))
    assert "10/5" not in {n for n, _ in result}


def test_larger_die_when_only_one_can_be_played():
    assert plays("fevga", {10: 1, 1: 14, 3: -1, 12: -14}, (5, 2)) == {
        ("10/5", board({5: 1, 1: 14, 3: -1, 12: -14})),
    }


def test_smaller_die_when_the_larger_cannot_be_played():
    assert plays("fevga", {10: 1, 1: 14, 3: -1, 5: -1, 12: -13}, (5, 2)) == {
        ("10/8", board({8: 1, 1: 14, 3: -1, 5: -1, 12: -13})),
    }


def test_no_single_move_means_no_legal_play():
    assert plays("plakoto", {24: 15, 21: -2, 1: -13}, (3, 3)) == set()


def test_bearing_off_the_last_checker_counts_as_using_every_die():
    assert plays("fevga", {2: 1, 18: -15}, (1, 1), mover_off=14) == {
        ("2/off", board({18: -15}, mover_off=15)),
    }
    assert plays("fevga", {1: 2, 18: -15}, (1, 1), mover_off=13) == {
        ("1/off(2)", board({18: -15}, mover_off=15)),
    }


def test_plays_ending_in_the_same_board_are_one_play():
    assert plays("long-nardi", {24: 15, 12: -15}, (2, 1)) == {
        ("24/21", board({24: 14, 21: 1, 12: -15})),
    }


# --- §2.3 bearing off -------------------------------------------------------------------------


def test_a_die_bears_off_from_its_point_and_a_larger_die_from_the_highest_point():
    assert plays("fevga", {6: 1, 5: 1, 3: 1, 18: -15}, (6, 5), mover_off=12) == {
        ("6/off 5/off", board({3: 1, 18: -15}, mover_off=14)),
        ("6/1 5/off", board({3: 1, 1: 1, 18: -15}, mover_off=13)),
    }


def test_a_die_with_a_checker_above_it_is_played_inside():
    # The 4 cannot bear off the 2 while the 6 stands: 6/2 2/off or 6/3 3/off, one board.
    assert plays("long-nardi", {6: 1, 2: 1, 18: -15}, (4, 3), mover_off=13) == {
        ("6/off", board({2: 1, 18: -15}, mover_off=14)),
    }


def test_no_bearing_off_until_every_checker_is_home():
    assert plays("fevga", {7: 1, 3: 1, 18: -15}, (6, 3), mover_off=13) == {
        ("7/off", board({3: 1, 18: -15}, mover_off=14)),
        ("7/1 3/off", board({1: 1, 18: -15}, mover_off=14)),
    }


# --- §5 plakoto -------------------------------------------------------------------------------


def test_plakoto_landing_on_a_lone_checker_pins_it():
    assert ("24/23 10/7*", board({24: 13, 23: 1, 7: "1p1", 1: -14})) in plays(
        "plakoto", {24: 14, 10: 1, 7: -1, 1: -14}, (3, 1)
    )


def test_plakoto_pinned_checker_cannot_move():
    found = notations("plakoto", {24: 14, 10: "-1p1", 1: -14}, (2, 1))
    assert found == {"24/21", "24/23 24/22"}


def test_plakoto_pin_is_released_when_the_pinner_leaves():
    assert ("10/6", board({24: 14, 10: -1, 6: 1, 1: -14})) in plays(
        "plakoto", {24: 14, 10: "1p1", 1: -14}, (3, 1)
    )


def test_plakoto_checkers_stack_on_their_own_pin():
    assert ("24/23 12/10", board({24: 12, 23: 1, 10: "2p1", 1: -14})) in plays(
        "plakoto", {24: 13, 12: 1, 10: "1p1", 1: -14}, (2, 1)
    )


def test_plakoto_two_opposing_checkers_close_a_point():
    assert plays("plakoto", {24: 15, 21: -2, 1: -13}, (3, 3)) == set()


def test_plakoto_an_opposing_pin_is_a_block():
    assert plays("plakoto", {24: 14, 21: "-1p1", 1: -14}, (3, 3)) == set()


def test_plakoto_no_bearing_off_while_a_checker_is_pinned():
    pinned = {6: 6, 5: 6, 4: "-1p1", 22: -14}
    assert plays("plakoto", pinned, (6, 5), mover_off=2) == {
        ("6/1", board({6: 5, 5: 6, 4: "-1p1", 1: 1, 22: -14}, mover_off=2)),
    }
    free = {6: 6, 5: 6, 4: 1, 20: -1, 22: -14}
    assert ("6/off 5/off", board({6: 5, 5: 5, 4: 1, 20: -1, 22: -14}, mover_off=4)) in plays(
        "plakoto", free, (6, 5), mover_off=2
    )


def test_plakoto_bearing_off_a_pinner_frees_the_checker_beneath():
    assert plays("plakoto", {3: "1p1", 2: 14, 24: -14}, (3, 2)) == {
        ("3/off 2/off", board({3: -1, 2: 13, 24: -14}, mover_off=2)),
        ("3/1 2/off", board({3: -1, 2: 13, 1: 1, 24: -14}, mover_off=1)),
    }


def test_plakoto_a_pin_made_and_released_in_the_same_play_is_not_marked():
    result = plays("plakoto", {24: 14, 13: 1, 10: -1, 1: -14}, (3, 2))
    assert ("13/8", board({24: 14, 10: -1, 8: 1, 1: -14})) in result
    assert not any("10*/" in n for n, _ in result)


def test_plakoto_only_the_last_stop_of_a_path_is_marked():
    assert ("24/19 20/15* 20/10", board({24: 12, 19: 1, 15: "1p1", 10: 1, 1: -14})) in plays(
        "plakoto", {24: 13, 20: 2, 15: -1, 1: -14}, (5, 5)
    )


def test_plakoto_pinning_the_mother_wins_when_the_pinner_has_left_its_start():
    after = parse_board("plakoto", board({1: "1p1", 2: 14, 24: -14}))
    assert game_is_over("plakoto", after)


def test_plakoto_pinning_the_mother_goes_on_while_the_pinner_keeps_checkers_home():
    after = parse_board("plakoto", board({1: "1p1", 2: 13, 24: 1, 23: -14}))
    assert not game_is_over("plakoto", after)


def test_plakoto_both_mothers_pinned_is_a_draw_and_ends_the_game():
    after = parse_board("plakoto", board({1: "1p1", 2: 13, 24: "-1p1", 23: -13}))
    assert game_is_over("plakoto", after)


# --- §6 fevga ---------------------------------------------------------------------------------


def test_fevga_any_opposing_checker_closes_a_point():
    found = notations("fevga", {24: 14, 10: 1, 7: -1, 12: -14}, (3, 3))
    assert found
    assert not any(n.startswith("10/") or " 10/" in n for n in found)


def test_fevga_first_checker_must_pass_the_opponents_start():
    assert plays("fevga", {24: 14, 18: 1, 12: -15}, (2, 1)) == {
        ("18/15", board({24: 14, 15: 1, 12: -15})),
    }
    assert plays("fevga", {24: 14, 14: 1, 12: -15}, (2, 2)) == set()


def test_fevga_second_checker_may_leave_in_the_play_that_passes():
    assert plays("fevga", {24: 14, 13: 1, 12: -15}, (2, 1)) == {
        ("24/23 13/11", board({24: 13, 23: 1, 11: 1, 12: -15})),
        ("13/10", board({24: 14, 10: 1, 12: -15})),
    }


def test_fevga_the_starting_quarter_cannot_be_held_whole():
    start = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 2: 1}
    opponent = {18: -1, 17: -1, 16: -1, 15: -1, 12: -11}
    assert notations("fevga", {**start, **opponent}, (5, 1)) == {
        "24/19 23/22",
        "24/19 22/21",
        "24/19 21/20",
        "24/19 20/19",
        "20/14",
    }


def test_fevga_the_starting_quarter_rule_judges_only_a_newly_held_point():
    # All of 19..24 held already (not reachable, but valid): moving inside it stays legal.
    quarter = {23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 1: 1, 12: -15}
    assert ("24/23(4)", board({24: 5, **quarter, 23: 5})) in plays(
        "fevga", {24: 9, **quarter}, (1, 1)
    )


def test_fevga_six_point_block_needs_an_opponent_checker_ahead():
    # 5/3 would hold 3, 2, 1, 24, 23, 22: consecutive along the opponent's path.
    mover = {24: 10, 23: 1, 22: 1, 5: 1, 2: 1, 1: 1}
    made = {24: 9, 23: 2, 22: 1, 3: 1, 2: 1, 1: 1}
    behind = plays("fevga", {**mover, 12: -15}, (2, 1))
    assert behind
    assert ("24/23 5/3", board({**made, 12: -15})) not in behind
    ahead = plays("fevga", {**mover, 12: -14, 13: -1}, (2, 1))
    assert ("24/23 5/3", board({**made, 12: -14, 13: -1})) in ahead


def test_fevga_a_block_already_standing_is_not_the_move_s_concern():
    # 7..2 stand as a block with every opponent checker behind it (not reachable, but valid):
    # 10/9 and 9/7 do not build it, 10/8 would extend it and is forbidden.
    block = {7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 12: -15}
    result = plays("fevga", {10: 9, **block}, (2, 1))
    assert ("10/7", board({10: 8, **block, 7: 2})) in result
    assert ("10/9 10/8", board({10: 7, 9: 1, 8: 1, **block})) not in result


def test_fevga_block_rule_does_not_apply_with_no_opponent_checker_on_the_board():
    # 8/7 makes 7..2; 10/8 refills 8. The play is 10/8/7 spelled 10/7.
    mover = {10: 9, 8: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}
    made = {10: 8, 8: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}
    assert ("10/7", board(made, opponent_off=15)) in plays("fevga", mover, (2, 1), opponent_off=15)
    assert ("10/7", board({**made, 12: -15})) not in plays("fevga", {**mover, 12: -15}, (2, 1))


def test_fevga_the_mover_s_thirteen_and_twelve_are_not_neighbours_on_the_block():
    # Holding 15..10 is six in a row on the mover's path, but not along the opponent's.
    mover = {24: 9, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1}
    result = plays("fevga", {**mover, 18: -15}, (4, 4))
    assert any(all(after.split()[p - 1] != "0" for p in range(10, 16)) for _, after in result)


# --- §7 long nardi ----------------------------------------------------------------------------


def test_long_nardi_one_checker_leaves_the_head():
    assert plays("long-nardi", {24: 15, 12: -15}, (6, 5)) == {
        ("24/13", board({24: 14, 13: 1, 12: -15})),
    }
    assert notations("long-nardi", {24: 14, 18: 1, 12: -15}, (2, 1)) == {
        "24/22 18/17",
        "24/23 18/16",
        "24/21",
        "18/15",
    }


@pytest.mark.parametrize(
    "dice, expected",
    [
        ((6, 6), [("24/18(2)", {24: 13, 18: 2})]),
        ((4, 4), [("24/16(2)", {24: 13, 16: 2})]),
        ((3, 3), [("24/18(2)", {24: 13, 18: 2}), ("24/21 24/15", {24: 13, 21: 1, 15: 1})]),
        ((5, 5), [("24/4", {24: 14, 4: 1})]),
    ],
)
def test_long_nardi_first_turn_doubles_take_two_from_the_head(dice, expected):
    assert plays("long-nardi", {24: 15, 12: -15}, dice) == {
        (n, board({**points, 12: -15})) for n, points in expected
    }


def test_long_nardi_the_second_player_s_first_turn_is_an_exception_too():
    assert plays("long-nardi", {24: 15, 12: -14, 1: -1}, (6, 6)) == {
        ("24/18(2)", board({24: 13, 18: 2, 12: -14, 1: -1})),
    }


def test_long_nardi_after_the_first_turn_a_double_takes_one_from_the_head():
    assert plays("long-nardi", {24: 14, 13: 1, 12: -15}, (6, 6)) == {
        ("24/18 13/1", board({24: 13, 18: 1, 1: 1, 12: -15})),
    }


def test_long_nardi_six_point_block_needs_an_opponent_checker_ahead():
    # 8/7 would hold 7..2, six in a row with every opponent checker behind it on 12.
    mover = {24: 9, 8: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1}
    behind = plays("long-nardi", {**mover, 12: -15}, (2, 1))
    made = board({24: 8, 22: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 12: -15})
    assert behind
    assert ("24/22 8/7", made) not in behind
    ahead = plays("long-nardi", {**mover, 12: -14, 13: -1}, (2, 1))
    made = board({24: 8, 22: 1, 7: 1, 6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 12: -14, 13: -1})
    assert ("24/22 8/7", made) in ahead


# --- §8 notation ------------------------------------------------------------------------------


def test_every_move_order_reaching_a_board_is_spelled_the_same():
    for variant in START_BOARDS:
        for text, d1, d2 in random_positions(variant, seed=3, pairs=200, style="blocking"):
            assert ambiguous_notations(variant, text, d1, d2) == {}


def test_notation_sorts_by_first_point_then_last_with_off_last():
    assert notations("fevga", {6: 2, 18: -15}, (6, 4), mover_off=13) == {"6/2 6/off"}


# --- the random-game driver -------------------------------------------------------------------


def test_random_positions_are_valid_and_repeat_for_a_seed():
    for variant in START_BOARDS:
        first = list(random_positions(variant, seed=5, pairs=300))
        assert first == list(random_positions(variant, seed=5, pairs=300))
        assert len(first) == 300
        assert len({b for b, _, _ in first}) > 100
        for text, d1, d2 in first:
            assert parse_board(variant, text).text() == text
            assert 1 <= d1 <= 6 and 1 <= d2 <= 6
