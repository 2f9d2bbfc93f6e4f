"""Gul Bara's movement (docs/variants.md §6.1): one hand-drawn board per rule, named after the
rule, set beside fevga where the two differ; the climbing doubles, one call per double; then
property tests on boards reached by random play."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.dice import Dice
from games.engine.errors import EngineError, IllegalPlayError, InvalidPositionError
from games.engine.selfplay import variant_self_play_pairs
from games.engine.variant_moves import (
    VariantPlay,
    climbing_doubles,
    double_after,
    find_play,
    game_end,
    variant_plays,
)
from games.engine.variants import (
    FEVGA,
    GUL_BARA,
    MATCH_VARIANTS,
    VARIANTS,
    VARIANTS_IN_PROGRESS,
    Track,
    variant_named,
)

from .test_command_line import run
from .variant_boards import after, make, plays

START = "0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0"


def gul(mine, theirs) -> Board:
    return make(GUL_BARA, mine, theirs)


# The variant and its place.


def test_gul_bara_is_known_by_name_and_offered_by_the_site():
    assert variant_named("gul-bara") is GUL_BARA
    assert GUL_BARA not in VARIANTS_IN_PROGRESS
    assert VARIANTS["gul-bara"] is GUL_BARA and "gul-bara" in MATCH_VARIANTS


def test_gul_bara_runs_the_same_way_and_one_checker_holds_a_point():
    assert GUL_BARA.track is Track.SAME_WAY and GUL_BARA.one_checker_holds_a_point
    assert not GUL_BARA.hits and not GUL_BARA.pins


def test_gul_bara_has_none_of_fevgas_blocking_rules_and_its_doubles_climb_from_turn_4():
    assert not GUL_BARA.forbid_full_start_quarter
    assert not GUL_BARA.forbid_prime_with_no_one_ahead
    assert not GUL_BARA.runner_must_pass_opponent_start
    assert not GUL_BARA.one_from_head and not GUL_BARA.first_turn_two_from_head
    assert GUL_BARA.doubles_climb_from_turn == 4
    assert all(v.doubles_climb_from_turn == 0 for v in VARIANTS.values() if v is not GUL_BARA)


def test_a_game_is_worth_1_or_a_gammon_2_with_no_backgammon_and_no_cube():
    assert (GUL_BARA.gammon, GUL_BARA.backgammon) == (2, 2)
    assert not GUL_BARA.cube_by_default and GUL_BARA.gnubg_variation is None


# The start.


def test_both_sides_start_with_15_on_their_first_point_at_diagonal_corners():
    board = Board.starting(GUL_BARA)
    assert board.text() == START
    assert board.pip_count() == (360, 360)
    assert board.flipped() == board


def test_the_first_roll_may_move_two_checkers_from_the_start_unlike_fevga():
    assert plays(Board.starting(GUL_BARA), 6, 5) == {"24/13", "24/19 24/18"}
    assert plays(Board.starting(FEVGA), 6, 5) == {"24/13"}


def test_the_opponents_starting_point_closes_the_path():
    assert plays(Board.starting(GUL_BARA), 6, 6) == {"24/18(4)"}
    assert plays(Board.starting(GUL_BARA), 6, 1) == {"24/23 24/18", "24/17"}


# Blocking: no hitting, one checker closes a point.


def test_a_point_held_by_one_opposing_checker_is_closed_and_nothing_is_hit():
    board = gul({20: 1, 24: 14}, {17: 1, 12: 14})
    found = after(board, 3, 1)
    assert set(found) == {"20/16", "24/20", "24/21 20/19", "24/23 24/21"}
    for text in found.values():
        assert Board.parse(GUL_BARA, text).theirs(17) == 1
        assert Board.parse(GUL_BARA, text).theirs(12) == 14


def test_a_checker_that_uses_both_dice_needs_its_stop_open():
    board = gul({20: 1, 1: 14}, {17: 1, 12: 14})
    assert "20/16" in plays(board, 3, 1)
    blocked = gul({20: 1, 1: 14}, {17: 1, 19: 1, 12: 13})
    assert "20/16" not in plays(blocked, 3, 1)


def test_all_six_points_of_the_starting_quarter_may_be_held_unlike_fevga():
    mine = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}
    theirs = {12: 14, 1: 1}
    assert "24/20 24/19" in plays(gul(mine, theirs), 5, 4)
    assert "24/20 24/19" not in plays(make(FEVGA, mine, theirs), 5, 4)


def test_six_points_in_a_row_in_front_of_every_opposing_checker_are_allowed_unlike_fevga():
    mine = {24: 9, 21: 1, 20: 1, 19: 1, 18: 1, 17: 1, 16: 1}
    assert "24/23 21/15" in plays(gul(mine, {12: 15}), 6, 1)
    assert "24/23 21/15" not in plays(make(FEVGA, mine, {12: 15}), 6, 1)


def test_a_board_with_a_pin_or_a_checker_on_the_bar_is_impossible():
    with pytest.raises(InvalidPositionError):
        Board.parse(GUL_BARA, START.replace("| 0 0 0 0", "| 0 0 1 0").replace("15 |", "14 |"))
    with pytest.raises(InvalidPositionError):
        Board.parse(GUL_BARA, START.replace("-15", "-14p1").replace("15 |", "14 |"))


# Bearing off.


def test_no_bearing_off_while_a_checker_is_outside_home():
    assert plays(gul({8: 1, 5: 3, 3: 1}, {12: 15}), 6, 4) == {"8/2 5/1", "8/4 5/off"}


def test_a_higher_die_bears_off_from_the_highest_point_and_a_lower_one_moves_inside():
    assert plays(gul({6: 2, 5: 3, 3: 1}, {12: 15}), 6, 4) == {"6/2 6/off", "6/off 5/1"}
    assert plays(gul({2: 1}, {12: 15}), 6, 4) == {"2/off"}


def test_bearing_off_the_last_checker_wins_a_gammon_when_the_loser_bore_off_none():
    play = find_play(gul({2: 1, 1: 1}, {12: 15}), Dice(2, 1), "2/off 1/off")
    end = game_end(play.after)
    assert end is not None and (end.winner, end.points) == (1, 2)
    theirs_off = make(GUL_BARA, {2: 1, 1: 1}, {12: 14})
    end = game_end(find_play(theirs_off, Dice(2, 1), "2/off 1/off").after)
    assert end is not None and (end.winner, end.points) == (1, 1)


# The climbing doubles.


def test_a_double_of_a_players_first_three_turns_is_four_moves_and_no_more():
    for turn in (1, 2, 3):
        assert climbing_doubles(GUL_BARA, Dice(3, 3), turn) == (Dice(3, 3),)


def test_from_the_fourth_turn_on_a_double_climbs_to_6_6():
    assert climbing_doubles(GUL_BARA, Dice(3, 3), 4) == tuple(Dice(n, n) for n in (3, 4, 5, 6))
    assert climbing_doubles(GUL_BARA, Dice(1, 1), 40) == tuple(Dice(n, n) for n in range(1, 7))
    assert climbing_doubles(GUL_BARA, Dice(6, 6), 4) == (Dice(6, 6),)
    assert climbing_doubles(GUL_BARA, Dice(6, 5), 4) == (Dice(6, 5),)


def test_no_other_variants_doubles_climb():
    for variant in (*VARIANTS.values(), *VARIANTS_IN_PROGRESS):
        if variant is not GUL_BARA:
            assert climbing_doubles(variant, Dice(2, 2), 9) == (Dice(2, 2),)


@pytest.mark.parametrize("turn", [0, -1, True, 1.5, "4"])
def test_turns_are_counted_from_1(turn):
    with pytest.raises(EngineError):
        climbing_doubles(GUL_BARA, Dice(3, 3), turn)


def test_the_command_line_plays_one_double_a_call_and_the_next_on_the_board_after(
    capsys, monkeypatch
):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "gul-bara", START, "3", "3")
    assert (code, err) == (0, "")
    lines = dict(line.split("\t") for line in out.splitlines())
    assert set(lines) == {"24/21(4)", "24/21(2) 24/18", "24/18(2)", "24/21 24/15"}
    for text in lines.values():
        assert Board.parse(GUL_BARA, text).pip_count()[0] == 360 - 12
    board_after = lines["24/18(2)"]
    code, out, _ = run(capsys, monkeypatch, "moves", "--variant", "gul-bara", board_after, "4", "4")
    assert code == 0
    assert "24/20(2) 18/14(2)" in {line.split("\t")[0] for line in out.splitlines()}


def test_the_batch_reads_gul_bara_lines(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "moves", "--batch", stdin=f"gul-bara\t{START}\t6 5\n")
    assert code == 0 and out.splitlines()[-1] == "--"
    assert {line.split("\t")[0] for line in out.splitlines()[:-1]} == {"24/13", "24/19 24/18"}


def test_a_double_played_in_full_is_followed_by_the_next_higher_one():
    start = Board.starting(GUL_BARA)
    play = find_play(start, Dice(3, 3), "24/18(2)")
    assert double_after(start, Dice(3, 3), play, 4) == Dice(4, 4)
    four = find_play(play.after, Dice(4, 4), "24/20(2) 18/14(2)")
    assert double_after(play.after, Dice(4, 4), four, 4) == Dice(5, 5)
    assert double_after(start, Dice(3, 3), play, 3) is None


def test_6_6_ends_the_climb():
    start = Board.starting(GUL_BARA)
    play = find_play(start, Dice(6, 6), "24/18(4)")
    assert double_after(start, Dice(6, 6), play, 9) is None


def test_a_double_not_played_in_full_ends_the_turn():
    board = gul({20: 1, 1: 14}, {12: 14, 8: 1})
    (only,) = variant_plays(board, Dice(4, 4))
    assert only.notation == "20/16" and len(only.moves) == 1
    assert double_after(board, Dice(4, 4), only, 5) is None


def test_a_double_that_cannot_be_played_at_all_ends_the_turn():
    board = gul({20: 1, 1: 14}, {16: 1, 12: 14})
    assert variant_plays(board, Dice(4, 4)) == ()
    nothing = VariantPlay("", board, ())
    assert double_after(board, Dice(4, 4), nothing, 5) is None


def test_a_double_that_bears_off_the_last_checker_ends_the_game_and_the_climb():
    board = gul({2: 1, 1: 1}, {12: 15})
    play = find_play(board, Dice(3, 3), "2/off 1/off")
    assert game_end(play.after) is not None
    assert double_after(board, Dice(3, 3), play, 6) is None


def test_a_play_that_is_not_a_legal_play_of_the_double_is_refused():
    start = Board.starting(GUL_BARA)
    play = find_play(start, Dice(3, 3), "24/18(2)")
    with pytest.raises(IllegalPlayError):
        double_after(start, Dice(4, 4), play, 4)
    with pytest.raises(IllegalPlayError):
        double_after(start, Dice(3, 3), VariantPlay("", start, ()), 4)


# Properties over boards met in random play.

PAIRS = variant_self_play_pairs(GUL_BARA, 2000, seed=33)


def test_random_play_reaches_bearing_off_and_blocked_doubles():
    bearing_off = [b for b, _ in PAIRS if all(b.mine(p) == 0 for p in range(7, 25))]
    assert len(bearing_off) > 100
    short = [
        (b, d)
        for b, d in PAIRS
        if d.is_double() and any(len(p.moves) < 4 for p in variant_plays(b, d))
    ]
    assert len(short) > 5


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PAIRS), st.integers(1, 6))
def test_every_climbing_double_keeps_checkers_and_moves_the_pips_it_uses(pair, number):
    board, _ = pair
    dice = Dice(number, number)
    mine = sum(board.mine(p) for p in range(1, 25))
    theirs = [board.theirs(p) for p in range(1, 25)]
    found = variant_plays(board, dice)
    assert len({len(play.moves) for play in found}) <= 1
    for play in found:
        off = sum(1 for _, destination in play.moves if destination == 0)
        assert sum(play.after.mine(p) for p in range(1, 25)) == mine - off
        assert [play.after.theirs(p) for p in range(1, 25)] == theirs
        travelled = board.pip_count()[0] - play.after.pip_count()[0]
        if off:
            assert 0 < travelled <= number * len(play.moves)
        else:
            assert travelled == number * len(play.moves)


@pytest.mark.parametrize(
    "board",
    [
        START.replace("| 0 0 0 0", "| 0 0 1 0").replace("15 |", "14 |"),
        START.replace("| 0 0 0 0", "| 0 0 0 0 0 0"),
        START.replace("-15", "-14"),
    ],
)
def test_a_board_gul_bara_cannot_have_exits_2_and_prints_nothing(capsys, monkeypatch, board):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "gul-bara", board, "3", "3")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
