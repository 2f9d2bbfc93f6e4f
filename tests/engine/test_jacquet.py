"""Jacquet (docs/variants.md §7.1): its place and facts, one hand-drawn board per rule, named
after the rule; then its command line and its rules met in random play."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.dice import Dice
from games.engine.play_refusals import why_play_breaks_a_rule
from games.engine.selfplay import variant_self_play_pairs
from games.engine.variant_moves import PlaySearch, game_end, variant_plays
from games.engine.variants import (
    JACQUET,
    LONG_NARDI,
    MATCH_VARIANTS,
    VARIANTS,
    VARIANTS_IN_PROGRESS,
    Landing,
    Track,
    variant_named,
)

from .test_command_line import run
from .variant_boards import make, plays

START = "0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0"


def jacquet(mine: dict[int, int], theirs: dict[int, int]) -> Board:
    return make(JACQUET, mine, theirs)


# The variant and its place.


def test_jacquet_is_known_by_name_and_offered_by_the_site():
    assert variant_named("jacquet") is JACQUET
    assert JACQUET not in VARIANTS_IN_PROGRESS
    assert VARIANTS["jacquet"] is JACQUET and "jacquet" in MATCH_VARIANTS


def test_both_sides_run_the_same_way_and_one_checker_holds_a_point():
    assert JACQUET.track is Track.SAME_WAY
    assert JACQUET.landing is Landing.FORBIDDEN
    assert not JACQUET.hits and not JACQUET.pins


def test_a_game_scores_1_or_2_with_no_cube_and_the_opening_winner_rolls_again():
    assert (JACQUET.gammon, JACQUET.backgammon) == (2, 2)
    assert not JACQUET.cube_by_default and not JACQUET.crawford
    assert JACQUET.higher_die_rolls_again and not JACQUET.winner_leads
    assert JACQUET.gnubg_variation is None


def test_fifteen_checkers_start_on_the_talon_at_diagonally_opposite_corners():
    board = Board.starting(JACQUET)
    assert board.text() == START
    assert board.pip_count() == (360, 360)
    assert board.flipped().text() == START


def test_jacquet_has_neither_long_nardi_s_head_rule_nor_its_prime_rule():
    assert not JACQUET.one_from_head and not JACQUET.first_turn_two_from_head
    assert not JACQUET.forbid_prime_with_no_one_ahead
    assert not JACQUET.runner_must_pass_opponent_start
    assert not LONG_NARDI.courier_must_reach_home
    assert not LONG_NARDI.prime_needs_last_two_points


# The courier.


def test_only_the_courier_leaves_the_talon_on_the_first_turn():
    start = Board.starting(JACQUET)
    assert plays(start, 6, 5) == {"24/13"}
    assert plays(start, 3, 3) == {"24/15"}
    assert plays(start, 1, 2) == {"24/21"}


def test_the_courier_may_run_home_with_a_double():
    assert plays(Board.starting(JACQUET), 5, 5) == {"24/4"}


def test_a_blocked_courier_holds_every_other_checker_and_the_rest_of_the_roll_is_lost():
    # 4-4: 24/20/16, then 12 is the opponent's talon.
    assert plays(Board.starting(JACQUET), 4, 4) == {"24/16"}
    courier_at_13 = jacquet({24: 14, 13: 1}, {12: 15})
    assert plays(courier_at_13, 1, 1) == set()


def test_while_the_courier_is_on_its_way_no_second_checker_leaves_the_talon():
    # The courier can take the 2 or the 1, not both (12 is closed): the larger is played.
    courier_at_15 = jacquet({24: 14, 15: 1}, {12: 14, 20: 1})
    assert plays(courier_at_15, 2, 1) == {"15/13"}


def test_the_courier_home_frees_the_talon_within_the_same_roll():
    courier_at_7 = jacquet({24: 14, 7: 1}, {12: 15})
    assert plays(courier_at_7, 6, 5) == {"24/19 7/1", "24/18 7/2"}


def test_once_the_courier_is_home_every_checker_moves():
    courier_at_4 = jacquet({24: 14, 4: 1}, {12: 15})
    assert plays(courier_at_4, 6, 5) == {"24/19 24/18", "24/13"}


def test_a_checker_borne_off_counts_as_a_courier_home():
    board = jacquet({24: 1, 5: 13}, {12: 15})
    assert "24/18" in {n.split()[0] for n in plays(board, 6, 1)}


# One checker holds a point.


def test_a_point_held_by_one_opposing_checker_is_closed_to_landing_and_to_a_touchdown():
    board = jacquet({24: 14, 16: 1}, {12: 13, 10: 1, 14: 1})
    assert plays(board, 6, 2) == set()
    open_stop = jacquet({24: 14, 16: 1}, {12: 14, 10: 1})
    assert plays(open_stop, 6, 2) == {"16/8"}


# The blockade.


ROW_OF_FIVE = {24: 4, 14: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2}


def paths(board: Board, first: int, second: int) -> set[str]:
    """Every path written in the legal plays."""
    return {path for notation in plays(board, first, second) for path in notation.split()}


def test_six_points_in_a_row_are_refused_until_the_mover_holds_its_1_and_2_points():
    board = jacquet(ROW_OF_FIVE, {12: 10, 11: 5})
    assert "14/8" not in paths(board, 6, 1) and "14/13" in paths(board, 6, 1)
    assert "24/18" in paths(board, 6, 1)
    holding_1_and_2 = jacquet({**ROW_OF_FIVE, 24: 2, 2: 1, 1: 1}, {12: 10, 11: 5})
    assert "14/8" in paths(holding_1_and_2, 6, 1)


def test_a_row_of_five_may_be_made():
    board = jacquet({24: 5, 14: 1, 7: 2, 6: 2, 5: 2, 4: 2, 2: 1}, {12: 10, 11: 5})
    assert "14/8" in paths(board, 6, 1)


def test_a_row_is_counted_along_the_opponent_s_path_across_the_mover_s_24_and_1():
    # The opponent runs ..., 2, 1, 24, 23, ...: 20..24 and 1 are six in a row for them.
    board = jacquet({24: 6, 23: 2, 22: 2, 21: 2, 20: 2, 3: 1}, {12: 10, 11: 5})
    assert "3/1" not in paths(board, 2, 1)
    assert "3/2" in paths(board, 2, 1)


def test_the_mover_s_13_and_12_are_not_in_a_row_for_the_opponent():
    # The opponent's path ends at the mover's 13 and starts at the mover's 12.
    board = jacquet({24: 3, 17: 2, 16: 2, 15: 2, 14: 2, 13: 2, 18: 1, 5: 1}, {11: 15})
    assert "18/12" in paths(board, 6, 1)


def test_a_row_already_standing_is_judged_only_by_a_move_that_joins_it():
    standing = {24: 2, 9: 2, 8: 2, 7: 2, 6: 2, 5: 2, 4: 2, 15: 1}
    board = jacquet(standing, {12: 10, 11: 5})
    assert "15/14" in paths(board, 5, 1)
    assert "15/10" not in paths(board, 5, 1)


# Bearing off.


def test_bearing_off_waits_until_every_checker_is_home():
    board = jacquet({9: 1, 3: 14}, {12: 15})
    assert plays(board, 3, 1) and all("off" not in n for n in plays(board, 3, 1))
    home = jacquet({6: 1, 3: 14}, {12: 15})
    assert "6/off 3/off" not in plays(home, 3, 2)
    assert "6/1" in plays(home, 3, 2)
    assert "3/1 3/off" in plays(home, 3, 2)


def test_a_higher_die_bears_off_from_the_highest_point_only():
    board = jacquet({4: 1, 2: 14}, {12: 15})
    assert plays(board, 6, 5) == {"4/off 2/off"}
    assert plays(jacquet({2: 15}, {12: 15}), 6, 6) == {"2/off(4)"}


# Scoring.


def test_a_game_won_before_the_loser_bore_off_is_worth_2_and_never_3():
    won = jacquet({}, {3: 5, 12: 10})
    assert (game_end(won).winner, game_end(won).points) == (1, 2)
    assert game_end(jacquet({}, {12: 14})).points == 1
    assert game_end(Board.starting(JACQUET)) is None


# Refusals in the player's words.


def test_a_second_checker_leaving_the_talon_is_refused_by_the_courier_rule():
    reason = why_play_breaks_a_rule(Board.starting(JACQUET), Dice(6, 5), "24/18 24/19")
    assert reason is not None and "courier" in reason


def test_a_sixth_point_in_a_row_is_refused_by_the_blockade_rule():
    board = jacquet(ROW_OF_FIVE, {12: 10, 11: 5})
    reason = why_play_breaks_a_rule(board, Dice(6, 1), "14/8 24/23")
    assert reason is not None and "1 and 2 points" in reason


# The command line.


def test_the_command_line_lists_the_courier_s_plays(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "jacquet", START, "6", "5")
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "24/13\t0 0 0 0 0 0 0 0 0 0 0 -15 1 0 0 0 0 0 0 0 0 0 0 14 | 0 0 0 0"
    ]


def test_the_batch_reads_jacquet_lines(capsys, monkeypatch):
    line = f"jacquet\t{START}\t4 4\njacquet\t{START}\t5 5\n"
    code, out, _ = run(capsys, monkeypatch, "moves", "--batch", stdin=line)
    assert code == 0
    assert out.splitlines() == [
        "24/16\t0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 1 0 0 0 0 0 0 0 14 | 0 0 0 0",
        "--",
        "24/4\t0 0 0 1 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 14 | 0 0 0 0",
        "--",
    ]


@pytest.mark.parametrize(
    "board",
    [
        START.replace("| 0 0 0 0", "| 0 0 0 0 0 0"),
        START.replace("| 0 0 0 0", "| 0 0 1 0"),
        START.replace("-15", "-14"),
        "0 " * 11 + "-15 " + "0 " * 11 + "1p1 | 0 0 0 0",
        "4HPwATDgc/ABMA",
    ],
)
def test_a_board_jacquet_cannot_have_exits_2(capsys, monkeypatch, board):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "jacquet", board, "6", "5")
    assert code == 2 and out == "" and len(err.splitlines()) == 1


# Random play.

PAIRS = variant_self_play_pairs(JACQUET, 1500, seed=5)


def _courier_on_its_way(board: Board) -> bool:
    on_board = [p for p in range(1, 25) if board.mine(p)]
    return board.mine(24) == 14 and len(on_board) == 2 and min(on_board) > 6


def test_random_play_reaches_every_rule():
    assert sum(1 for board, _ in PAIRS if _courier_on_its_way(board)) > 30
    assert sum(1 for board, _ in PAIRS if board.borne_off()[0]) > 50


def test_random_play_never_moves_a_second_checker_off_the_talon_before_the_courier_is_home():
    for board, dice in PAIRS:
        if _courier_on_its_way(board):
            for play in variant_plays(board, dice):
                left_talon = play.after.mine(24) < 14
                courier_home = any(play.after.mine(p) for p in range(1, 7))
                assert not left_talon or courier_home, (board.text(), dice, play.notation)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAIRS))
def test_checkers_are_conserved_and_pips_fall_by_the_dice_used(pair):
    board, dice = pair
    for play in variant_plays(board, dice):
        on_board = sum(play.after.mine(p) for p in range(1, 25))
        assert on_board + play.after.borne_off()[0] == 15
        assert [play.after.theirs(p) for p in range(1, 25)] == [
            board.theirs(p) for p in range(1, 25)
        ]
        waste = sum(
            die - source
            for (source, destination), die in zip(play.moves, play.dice, strict=True)
            if destination == 0
        )
        assert board.pip_count()[0] - play.after.pip_count()[0] == sum(play.dice) - waste


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAIRS))
def test_no_play_leaves_a_die_unused_when_a_fuller_play_exists(pair):
    board, dice = pair
    found = variant_plays(board, dice)
    assert len({len(play.moves) for play in found}) <= 1
    whole = 4 if dice.is_double() else 2
    for play in found:
        if len(play.moves) < whole and play.after.borne_off()[0] < 15:
            search = PlaySearch(board, dice)
            left = list(dice.moves())
            for die in play.dice:
                left.remove(die)
            state = search.state(play.after)
            assert all(not search.single_moves(state, die) for die in set(left))
        if not dice.is_double() and len(play.moves) == 1:
            assert play.dice[0] == dice.high or not any(p.dice == (dice.high,) for p in found)
