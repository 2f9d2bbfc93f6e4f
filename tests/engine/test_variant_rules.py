"""The family's rules (docs/variants.md), one hand-made board per rule, named after the rule."""

import random

import pytest

from games.engine.board import Board
from games.engine.dice import Dice
from games.engine.errors import AmbiguousPlayError, IllegalPlayError, InvalidPositionError
from games.engine.selfplay import variant_self_play_pairs
from games.engine.variant_moves import GameEnd, PlaySearch, find_play, game_end, variant_plays
from games.engine.variants import (
    BACKGAMMON,
    FEVGA,
    HYPERGAMMON,
    LONG_NARDI,
    NACKGAMMON,
    PLAKOTO,
    PORTES,
    TAVLI,
    VARIANTS,
    MatchFormat,
    UnknownVariantError,
    game_variant,
    match_winner,
    variant_named,
)

from .variant_boards import after, make, plays


def token(board_text: str, point: int) -> str:
    return board_text.split(" | ")[0].split()[point - 1]


def holds(board_text: str, points) -> bool:
    return all(int(token(board_text, p).partition("p")[0]) > 0 for p in points)


# The boards and their text.


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_starts_with_its_checkers_and_reads_back_its_own_text(name):
    variant = variant_named(name)
    start = Board.starting(variant)
    assert start.borne_off() == (0, 0)
    on_board = sum(start.mine(p) for p in range(1, 26))
    assert on_board + start.waiting[0] == variant.checkers
    assert Board.parse(variant, start.text()) == start
    assert start.flipped() == start
    assert start.flipped().flipped() == start


def test_the_starting_boards_are_the_documented_ones():
    assert Board.starting(NACKGAMMON).text() == (
        "-2 -2 0 0 0 4 0 3 0 0 0 -4 4 0 0 0 -3 0 -4 0 0 0 2 2 | 0 0 0 0"
    )
    assert Board.starting(HYPERGAMMON).text() == (
        "-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 | 0 0 0 0"
    )
    assert (
        Board.starting(FEVGA).text()
        == Board.starting(LONG_NARDI).text()
        == ("0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0")
    )


def test_same_way_boards_turn_round_the_diagonal_corners():
    board = make(LONG_NARDI, {24: 14, 13: 1}, {12: 14, 1: 1})
    seen_by_them = board.flipped()
    assert seen_by_them.mine(24) == 14 and seen_by_them.mine(13) == 1
    assert seen_by_them.theirs(12) == 14 and seen_by_them.theirs(1) == 1


@pytest.mark.parametrize(
    ("variant", "text", "reason"),
    [
        (FEVGA, "0 " * 22 + "15 | 0 0 0 0", "24 point tokens"),
        (FEVGA, "05 " + "0 " * 22 + "15 | 0 0 0 0", "cannot read '05'"),
        (FEVGA, "-0 " + "0 " * 22 + "15 | 0 0 0 0", "cannot read '-0'"),
        (FEVGA, "+1 " + "0 " * 22 + "14 | 0 15 0 0", "cannot read '\\+1'"),
        (FEVGA, "0 " * 23 + "14 | 0 15 0 0", "14 checkers in play and 0 borne off"),
        (FEVGA, "0 " * 23 + "15 | 0 14 0 1", "no bar"),
        (FEVGA, "1p1 " + "0 " * 22 + "14 | 0 14 0 0", "no pins"),
        (PLAKOTO, "1p2 " + "0 " * 22 + "14 | 0 13 0 0", "only one lone checker"),
        (PLAKOTO, "0p1 " + "0 " * 22 + "15 | 0 14 0 0", "cannot read '0p1'"),
        (HYPERGAMMON, "0 " * 23 + "4 | 0 3 0 0", "3 a side"),
        (FEVGA, "4HPwATDgc/ABMA", "24 point tokens"),
    ],
)
def test_a_board_that_cannot_be_read_or_cannot_occur_is_refused(variant, text, reason):
    with pytest.raises(InvalidPositionError, match=reason):
        Board.parse(variant, text)


def test_an_unknown_variant_is_refused_with_the_names_there_are():
    with pytest.raises(UnknownVariantError, match="long-nardi"):
        variant_named("chess")


def test_backgammon_family_boards_accept_a_position_id():
    board = Board.parse(NACKGAMMON, "4HPwATDgc/ABMA")
    assert board.text() == Board.starting(BACKGAMMON).text()


# Every variant: the dice.


def test_both_dice_are_played_when_some_order_allows_it():
    # The 4 first is blocked on the 5; the 3 first then the 4 reaches the 2.
    board = make(LONG_NARDI, {9: 1}, {5: 1, 13: 14})
    assert plays(board, 4, 3) == {"9/2"}


def test_only_the_larger_die_when_either_but_not_both_can_be_played():
    board = make(LONG_NARDI, {9: 1}, {2: 1, 13: 14})
    assert plays(board, 4, 3) == {"9/5"}


def test_a_double_is_played_four_times():
    board = make(LONG_NARDI, {20: 1, 10: 1}, {12: 15})
    found = variant_plays(board, Dice(2, 2))
    assert found and all(len(play.moves) == 4 for play in found)


def test_no_output_when_nothing_can_move():
    board = make(PLAKOTO, {24: 15}, {1: 13, 18: 2})
    assert plays(board, 6, 6) == set()


# Plakoto.


def test_plakoto_landing_on_a_lone_checker_pins_it_and_a_pin_let_go_in_the_same_play_is_no_pin():
    board = make(PLAKOTO, {24: 15}, {1: 14, 18: 1})
    found = after(board, 6, 1)
    assert set(found) == {"24/23 24/18*", "24/17"}
    assert token(found["24/23 24/18*"], 18) == "1p1"
    assert token(found["24/17"], 18) == "-1"


def test_plakoto_a_pinned_checker_cannot_move():
    board = make(PLAKOTO, {24: 14}, {1: 14}, pins={10: "-1p1"})
    assert plays(board, 2, 1) == {"24/23 24/22", "24/21"}


def test_plakoto_a_point_where_the_opponent_pins_is_closed_to_the_pinned_side():
    board = make(PLAKOTO, {24: 14}, {1: 14}, pins={18: "-1p1"})
    assert plays(board, 6, 5) == {"24/13"}


def test_plakoto_the_pinner_may_stack_on_its_pin():
    board = make(PLAKOTO, {24: 13}, {1: 14}, pins={18: "1p1"})
    assert token(after(board, 6, 5)["24/19 24/18"], 18) == "2p1"


def test_plakoto_the_last_pinner_leaving_sets_the_pinned_checker_free():
    board = make(PLAKOTO, {24: 13}, {1: 14}, pins={10: "1p1"})
    board_after = after(board, 4, 3)["24/20 10/7"]
    assert token(board_after, 10) == "-1" and token(board_after, 7) == "1"


def test_plakoto_two_opposing_checkers_close_a_point():
    board = make(PLAKOTO, {24: 15}, {1: 13, 18: 2})
    assert plays(board, 6, 6) == set()


def test_plakoto_no_bearing_off_while_one_of_the_movers_checkers_is_pinned():
    board = make(PLAKOTO, {6: 5, 5: 5, 4: 4}, {20: 14}, pins={3: "-1p1"})
    assert plays(board, 6, 5) == {"6/1"}


def test_plakoto_bearing_off_when_all_are_home_and_free():
    board = make(PLAKOTO, {6: 5, 5: 5, 4: 4, 3: 1}, {20: 15})
    assert plays(board, 6, 5) == {"6/off 5/off", "6/1 6/off"}


def test_plakoto_pinning_the_mother_wins_two_points():
    board = make(PLAKOTO, {10: 14}, {20: 14}, pins={1: "1p1"})
    assert game_end(board) == GameEnd(1, 2, "mother pinned")


def test_plakoto_pinning_the_mother_while_the_pinner_still_has_its_own_start_plays_on():
    board = make(PLAKOTO, {24: 2, 10: 12}, {20: 14}, pins={1: "1p1"})
    assert game_end(board) is None


def test_plakoto_both_mothers_pinned_is_a_draw():
    board = make(PLAKOTO, {10: 13}, {20: 13}, pins={1: "1p1", 24: "-1p1"})
    assert game_end(board) == GameEnd(0, 0, "both mothers pinned")


# Fevga.


def test_fevga_one_checker_holds_a_point():
    board = make(FEVGA, {24: 13, 10: 1, 5: 1}, {12: 14, 18: 1})
    found = after(board, 6, 1)
    assert found and all(token(board_after, 18) == "-1" for board_after in found.values())


def test_fevga_no_second_checker_leaves_the_start_before_the_first_passes_the_opponents_start():
    board = make(FEVGA, {24: 14, 20: 1}, {12: 15})
    assert plays(board, 2, 1) == {"20/17"}


def test_fevga_once_the_runner_passes_the_opponents_start_the_rest_of_the_roll_may_leave():
    board = make(FEVGA, {24: 14, 14: 1}, {12: 15})
    assert plays(board, 3, 1) == {"14/10", "24/23 14/11"}


def test_fevga_the_starting_quarter_is_never_all_held():
    board = make(FEVGA, {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 3: 1}, {12: 15})
    found = after(board, 5, 4)
    assert found
    assert not any(holds(board_after, range(19, 25)) for board_after in found.values())
    assert any(text.startswith("24/20") for text in found)


def test_fevga_a_six_point_prime_needs_an_opponent_checker_ahead_of_it():
    mine = {24: 8, 11: 1, 10: 1, 9: 2, 8: 1, 7: 1, 1: 1}
    blocked = after(make(FEVGA, mine, {12: 15}), 3, 1)
    assert blocked and not any(holds(b, range(6, 12)) for b in blocked.values())
    allowed = after(make(FEVGA, mine, {12: 14, 3: 1}), 3, 1)
    assert any(holds(b, range(6, 12)) for b in allowed.values())


def test_fevga_bears_off_with_a_higher_die_from_the_highest_point():
    board = make(FEVGA, {4: 2, 2: 1}, {12: 15})
    assert plays(board, 6, 5) == {"4/off(2)"}


# Long nardi.


def test_nardi_one_checker_leaves_the_head_a_turn():
    board = make(LONG_NARDI, {24: 10, 15: 5}, {12: 10, 5: 5})
    found = after(board, 6, 5)
    assert found and all(token(b, 24) in ("9", "10") for b in found.values())


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        ((6, 6), {"24/18(2)"}),
        ((4, 4), {"24/16(2)"}),
        ((3, 3), {"24/18(2)", "24/21 24/15"}),
        ((5, 5), {"24/4"}),
        ((2, 2), {"24/16"}),
        ((1, 1), {"24/20"}),
        ((6, 5), {"24/13"}),
    ],
)
def test_nardi_first_turn_6_6_4_4_3_3_take_two_from_the_head_and_no_other_roll_does(roll, expected):
    assert plays(Board.starting(LONG_NARDI), *roll) == expected


def test_nardi_the_first_turn_exception_is_the_second_players_too():
    board = make(LONG_NARDI, {24: 15}, {12: 14, 9: 1})
    assert plays(board, 6, 6) == {"24/18(2)"}
    assert plays(board, 4, 4) == {"24/16(2)"}


def test_nardi_a_block_of_six_needs_an_opponent_checker_ahead_of_it():
    mine = {24: 9, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 6: 1}
    blocked = after(make(LONG_NARDI, mine, {12: 15}), 2, 1)
    assert blocked and not any(holds(b, range(18, 24)) for b in blocked.values())
    allowed = after(make(LONG_NARDI, mine, {12: 14, 14: 1}), 2, 1)
    assert any(holds(b, range(18, 24)) for b in allowed.values())


def test_nardi_a_block_runs_along_the_opponents_path_across_the_movers_1_and_24():
    mine = {24: 9, 5: 1, 4: 1, 3: 1, 2: 1, 7: 1, 10: 1}
    block = (24, 1, 2, 3, 4, 5)
    blocked = after(make(LONG_NARDI, mine, {12: 15}), 6, 3)
    assert blocked and not any(holds(b, block) for b in blocked.values())
    allowed = after(make(LONG_NARDI, mine, {12: 14, 20: 1}), 6, 3)
    assert holds(allowed["10/1"], block) and holds(allowed["24/21 7/1"], block)


def test_nardi_the_movers_13_and_12_are_not_neighbours_on_the_opponents_path():
    board = make(LONG_NARDI, {24: 9, 16: 1, 15: 1, 14: 1, 13: 1, 11: 1, 10: 1}, {7: 15})
    assert any(text.startswith("16/12") or " 16/12" in text for text in plays(board, 4, 1))


def test_nardi_mars_counts_two_and_a_plain_win_one():
    assert game_end(make(LONG_NARDI, {}, {13: 15})) == GameEnd(1, 2, "bore off")
    assert game_end(make(LONG_NARDI, {}, {13: 14})) == GameEnd(1, 1, "bore off")


# Backgammon's family.


def test_portes_has_no_backgammon_where_backgammon_counts_three():
    portes = make(PORTES, {}, {3: 15})
    assert game_end(portes) == GameEnd(1, 2, "bore off")
    assert game_end(make(BACKGAMMON, {}, {3: 15})) == GameEnd(1, 3, "bore off")


def test_portes_hits_and_enters_from_the_bar_as_backgammon():
    board = make(PORTES, {24: 1, 6: 14}, {20: 1, 1: 13}, bars=(0, 1))
    assert any("24/20*" in text for text in plays(board, 4, 1))
    board = make(PORTES, {6: 14}, {21: 1, 1: 13}, bars=(1, 1))
    assert all(text.startswith("bar/") for text in plays(board, 4, 2))


def test_hypergammon_bears_off_its_three_checkers():
    board = make(HYPERGAMMON, {2: 1, 1: 1}, {20: 3})
    assert plays(board, 6, 5) == {"2/off 1/off"}
    assert game_end(make(HYPERGAMMON, {}, {20: 3})) == GameEnd(1, 2, "bore off")
    assert game_end(make(HYPERGAMMON, {}, {4: 3})) == GameEnd(1, 3, "bore off")


# Reading a player's play.


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_legal_plays_notation_reads_back_as_that_play(name):
    """Every play of a position with few plays, and a sample of twelve of a double's hundreds
    (reading a play back lists the position's plays again)."""
    sample = random.Random(name)
    for board, dice in variant_self_play_pairs(VARIANTS[name], 40, seed=9):
        plays_ = variant_plays(board, dice)
        for play in plays_ if len(plays_) <= 12 else sample.sample(plays_, 12):
            assert find_play(board, dice, play.notation) == play


def test_a_play_may_be_written_with_stops_commas_and_without_marks():
    board = make(PLAKOTO, {24: 15}, {1: 14, 18: 1})
    assert find_play(board, Dice(6, 1), "24/18, 24/23").notation == "24/23 24/18*"
    assert find_play(board, Dice(6, 1), "24/23/17").notation == "24/17"


def test_a_play_that_fits_two_boards_must_say_which():
    board = make(PORTES, {24: 1, 6: 14}, {18: 1, 19: 1, 1: 13})
    with pytest.raises(AmbiguousPlayError, match="24/18\\*/13 or 24/19\\*/13|24/19\\*/13 or"):
        find_play(board, Dice(6, 5), "24/13")
    assert find_play(board, Dice(6, 5), "24/18*/13").notation == "24/18*/13"


def test_a_play_the_rules_forbid_is_refused_with_the_legal_plays():
    board = Board.starting(LONG_NARDI)
    with pytest.raises(IllegalPlayError, match="Legal plays: 24/13"):
        find_play(board, Dice(6, 5), "24/18 24/19")


# Match structures.


def test_the_cube_and_crawford_belong_to_backgammon_and_its_set_up_variants_only():
    with_cube = {name for name, v in VARIANTS.items() if v.cube_by_default and v.crawford}
    assert with_cube == {"backgammon", "nackgammon", "hypergammon"}


def test_tavli_rotates_portes_plakoto_fevga_and_a_drawn_game_is_played_again():
    assert [game_variant(TAVLI, n).name for n in range(6)] == [
        "portes",
        "plakoto",
        "fevga",
        "portes",
        "plakoto",
        "fevga",
    ]
    assert {v.name for v in VARIANTS.values() if MatchFormat.TAVLI_POINTS in v.match_formats} == {
        "portes",
        "plakoto",
        "fevga",
    }


def test_tavli_best_of_three_is_won_by_two_games_and_points_matches_by_points():
    assert match_winner(MatchFormat.TAVLI_BEST_OF_THREE, 3, (2, 2), (1, 1)) is None
    assert match_winner(MatchFormat.TAVLI_BEST_OF_THREE, 3, (2, 3), (2, 1)) == 0
    assert match_winner(MatchFormat.TAVLI_POINTS, 7, (6, 6), (4, 3)) is None
    assert match_winner(MatchFormat.POINTS, 7, (6, 8), (4, 4)) == 1


def test_nardi_the_block_rule_judges_the_block_a_move_completes_not_one_already_standing():
    board = make(LONG_NARDI, {24: 8, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1, 10: 1}, {12: 15})
    assert {"10/7", "24/22 10/9", "24/23 10/8"} <= plays(board, 2, 1)


@pytest.mark.parametrize("variant", [PLAKOTO, FEVGA, LONG_NARDI, PORTES])
def test_a_search_that_needs_no_notation_finds_the_same_boards_after(variant):
    for board, dice in variant_self_play_pairs(variant, 60, seed=11):
        named = {(play.after.points, play.after.pinned) for play in variant_plays(board, dice)}
        assert set(PlaySearch(board, dice).boards_after()) == named
