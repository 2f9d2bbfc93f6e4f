"""Acey-deucey's movement (docs/variants.md §4.2): its board, its text, and one hand-drawn board
per rule, named after the rule; then property tests on boards reached by random play."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.dice import Dice
from games.engine.errors import IllegalPlayError, InvalidNotationError, InvalidPositionError
from games.engine.notation import parse_paths
from games.engine.play import IN
from games.engine.selfplay import variant_self_play_pairs
from games.engine.turn import PartialVariantPlay
from games.engine.variant_moves import PlaySearch, find_play, game_end, variant_plays
from games.engine.variants import (
    ACEY_DEUCEY,
    BACKGAMMON,
    MATCH_VARIANTS,
    VARIANTS,
    VARIANTS_IN_PROGRESS,
    variant_named,
)

from .test_command_line import run
from .variant_boards import after, plays

START = "0 " * 24 + "| 0 0 0 0 15 15"


def acey(mine=None, theirs=None, *, bars=(0, 0), waiting=(0, 0)) -> Board:
    """A board from the mover's side: checkers by point, on the bar and waiting to enter; the
    rest of each side's 15 have been borne off."""
    tokens = ["0"] * 25
    for point, count in (mine or {}).items():
        tokens[point] = str(count)
    for point, count in (theirs or {}).items():
        tokens[point] = str(-count)
    in_play = [
        sum((mine or {}).values()) + bars[0] + waiting[0],
        sum((theirs or {}).values()) + bars[1] + waiting[1],
    ]
    off = [15 - n for n in in_play]
    counts = f"{off[0]} {off[1]} {bars[0]} {bars[1]} {waiting[0]} {waiting[1]}"
    return Board.parse(ACEY_DEUCEY, f"{' '.join(tokens[1:])} | {counts}")


# The variant and its place.


def test_acey_deucey_is_known_by_name_and_offered_by_the_site():
    assert variant_named("acey-deucey") is ACEY_DEUCEY
    assert ACEY_DEUCEY not in VARIANTS_IN_PROGRESS
    assert VARIANTS["acey-deucey"] is ACEY_DEUCEY and "acey-deucey" in MATCH_VARIANTS


def test_acey_deucey_hits_scores_as_backgammon_and_has_no_cube_by_default():
    assert ACEY_DEUCEY.hits and ACEY_DEUCEY.enters_from_off_board
    assert (ACEY_DEUCEY.gammon, ACEY_DEUCEY.backgammon) == (2, 3)
    assert not ACEY_DEUCEY.cube_by_default and ACEY_DEUCEY.gnubg_variation is None
    others = [variant for variant in VARIANTS.values() if variant is not ACEY_DEUCEY]
    assert not any(variant.enters_from_off_board for variant in others)


# The board and its text.


def test_every_checker_starts_off_the_board_waiting_to_enter():
    start = Board.starting(ACEY_DEUCEY)
    assert start.text() == START
    assert start.waiting == (15, 15) and start.borne_off() == (0, 0)
    assert start.pip_count() == (375, 375)
    assert start.flipped() == start


def test_the_text_board_reads_back_and_turns_round_with_its_waiting_checkers():
    board = acey({24: 2, 6: 3}, {1: 1, 20: 4}, bars=(1, 2), waiting=(4, 3))
    assert board.text() == ("-1 0 0 0 0 3 0 0 0 0 0 0 0 0 0 0 0 0 0 -4 0 0 0 2 | 5 5 1 2 4 3")
    assert Board.parse(ACEY_DEUCEY, board.text()) == board
    turned = board.flipped()
    assert turned.waiting == (3, 4) and turned.points[25] == 2 and turned.points[0] == 1
    assert turned.borne_off() == (5, 5)
    assert turned.flipped() == board
    assert board.pip_count() == (25 * 5 + 48 + 18, 25 * 5 + 24 + 4 * 5)


@pytest.mark.parametrize(
    ("variant", "text", "reason"),
    [
        (ACEY_DEUCEY, "0 " * 24 + "| 0 0 0 0", "six counts"),
        (ACEY_DEUCEY, "0 " * 24 + "| 0 0 0 0 15 14", "14 checkers in play and 0 borne off"),
        (ACEY_DEUCEY, "0 " * 23 + "1 | 0 0 0 0 15 15", "1 checkers on the board and 15"),
        (ACEY_DEUCEY, "0 " * 24 + "| 0 0 0 0 -1 15", "cannot read '-1'"),
        (BACKGAMMON, "-2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 | 0 0 0 0 0 0", "four"),
        (ACEY_DEUCEY, "4HPwATDgc/ABMA", "Position ID describes no acey-deucey"),
    ],
)
def test_a_board_that_cannot_be_read_or_cannot_occur_is_refused(variant, text, reason):
    with pytest.raises(InvalidPositionError, match=reason):
        Board.parse(variant, text)


def test_only_a_variant_that_enters_from_off_the_board_has_waiting_checkers():
    start = Board.starting(BACKGAMMON)
    with pytest.raises(InvalidPositionError, match="no checker waits to enter"):
        Board(BACKGAMMON, start.points, start.pinned, (1, 0))
    assert start.text().endswith("| 0 0 0 0")


# Movement, rule by rule.


def test_a_waiting_checker_enters_like_one_on_the_bar():
    assert after(Board.starting(ACEY_DEUCEY), 1, 2) == {
        "in/24 in/23": "0 " * 22 + "1 1 | 0 0 0 0 13 15",
        "in/22": "0 " * 21 + "1 0 0 | 0 0 0 0 14 15",
    }


def test_the_1_2_lists_the_plays_of_the_1_and_the_2_alone():
    board = acey({20: 1}, {10: 1}, waiting=(14, 14))
    assert all(len(play.moves) == 2 for play in variant_plays(board, Dice(1, 2)))


def test_a_waiting_checker_cannot_enter_on_a_closed_point():
    board = acey({10: 1}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, waiting=(14, 3))
    assert plays(board, 6, 1) == {"10/3"}


def test_a_waiting_checker_entering_on_a_lone_opposing_checker_hits_it():
    board = acey({}, {22: 1}, waiting=(15, 14))
    results = after(board, 3, 3)
    assert results["in/22* in/22(3)"] == "0 " * 21 + "4 0 0 | 0 0 0 1 11 14"


def test_checkers_on_the_board_may_move_while_others_wait():
    board = acey({20: 1}, {}, waiting=(14, 15))
    assert {"20/13", "in/19 20/19", "in/24 20/14", "in/24 in/19"} <= plays(board, 6, 1)


def test_a_hit_checker_on_the_bar_enters_before_any_other_moves():
    board = acey({13: 1}, {}, bars=(1, 0), waiting=(13, 15))
    # bar/19 in/20 and bar/20 in/19 leave one board: §8 writes the least spelling.
    assert plays(board, 6, 5) == {"bar/19 in/20", "bar/19 13/8", "bar/20 13/7", "bar/14"}
    assert all(play.moves[0][0] == 25 for play in variant_plays(board, Dice(6, 5)))


def test_a_checker_on_the_bar_that_cannot_enter_holds_every_other_checker():
    board = acey({13: 1}, {19: 2, 20: 2}, bars=(1, 0), waiting=(13, 11))
    assert plays(board, 6, 5) == set()


def test_the_bar_is_written_before_the_waiting_checkers_and_takes_the_hit():
    board = acey({}, {22: 1}, bars=(1, 0), waiting=(14, 14))
    assert "bar/22* in/22(3)" in plays(board, 3, 3)


def test_no_bearing_off_while_any_checker_waits():
    board = acey({1: 2, 2: 2}, {24: 2}, waiting=(1, 13))
    # The opponent holds the mover's 24: the waiting checker enters with the 2 only.
    assert plays(board, 2, 1) == {"in/22", "in/23 2/1"}


def test_bearing_off_once_all_fifteen_are_home():
    board = acey({1: 2, 2: 2}, {24: 2}, waiting=(0, 13))
    assert "2/off 1/off" in plays(board, 2, 1)


def test_no_bearing_off_while_a_checker_is_on_the_bar():
    board = acey({1: 2, 2: 2}, {24: 2}, bars=(1, 0), waiting=(0, 13))
    assert not any("off" in notation for notation in plays(board, 6, 5))


def test_an_entered_checker_can_be_hit_and_goes_to_the_bar_not_back_to_waiting():
    board = acey({20: 2}, {22: 1}, waiting=(13, 14))
    results = after(board, 2, 1)
    hitting = next(text for notation, text in results.items() if "22*" in notation)
    hit_board = Board.parse(ACEY_DEUCEY, hitting)
    assert hit_board.points[0] == 1 and hit_board.waiting[1] == 14
    seen_by_them = hit_board.flipped()
    assert seen_by_them.points[25] == 1
    assert {play.moves[0][0] for play in variant_plays(seen_by_them, Dice(6, 5))} == {25}


def test_both_dice_are_played_when_some_order_allows_it_and_else_the_larger():
    board = acey({}, {19: 2, 18: 2, 17: 2}, waiting=(15, 9))
    # 6 enters on 19 (closed), 1 enters on 24; after in/24 the 6 lands on 18 (closed): only the 1.
    assert plays(board, 6, 1) == {"in/24"}


def test_a_game_won_while_the_loser_still_has_checkers_waiting_is_a_backgammon():
    board = acey({1: 1}, {10: 14}, waiting=(0, 1))
    (play,) = variant_plays(board, Dice(1, 1))
    end = game_end(play.after)
    assert end is not None and end.winner == 1 and end.points == 3


def test_a_loser_with_every_checker_entered_and_none_borne_off_loses_a_gammon():
    board = acey({1: 1}, {10: 15})
    (play,) = variant_plays(board, Dice(2, 1))
    end = game_end(play.after)
    assert end is not None and end.points == 2


# Notation.


def test_in_is_read_as_a_waiting_checker_and_written_canonically():
    assert parse_paths("in/22")[0].source == IN
    board = acey({20: 1}, {}, waiting=(14, 15))
    assert find_play(board, Dice(6, 1), "IN/24, 20/14").notation == "in/24 20/14"
    assert find_play(board, Dice(6, 1), "in/24/18").notation == "in/18"


@pytest.mark.parametrize("text", ["20/in", "in*/20", "bar/in"])
def test_nothing_ends_in_the_waiting_checkers(text):
    with pytest.raises(InvalidNotationError):
        parse_paths(text)


def test_entering_a_checker_that_is_not_waiting_is_refused():
    board = acey({20: 15}, {}, waiting=(0, 15))
    with pytest.raises(IllegalPlayError):
        find_play(board, Dice(6, 1), "in/19 20/19")


def test_a_play_is_put_together_one_checker_at_a_time_from_the_waiting_ones():
    turn = PartialVariantPlay(Board.starting(ACEY_DEUCEY), Dice(6, 5))
    assert turn.movable_points() == frozenset({IN})
    turn = turn.with_move(turn.move_to(IN, 19))
    assert turn.board.waiting == (14, 15)
    turn = turn.with_move(turn.move_to(19, 14))
    assert turn.is_complete() and str(turn.play()) == "in/14"


# Properties, on boards reached by random play.

PAIRS = variant_self_play_pairs(ACEY_DEUCEY, 1500, seed=33)


def test_random_play_reaches_every_rule():
    assert sum(1 for board, _ in PAIRS if board.waiting[0]) > 100
    assert sum(1 for board, _ in PAIRS if board.points[25] and board.waiting[0]) > 10
    assert sum(1 for board, _ in PAIRS if board.borne_off()[0]) > 50


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAIRS))
def test_checkers_are_conserved_and_pips_fall_by_the_dice_used(pair):
    board, dice = pair
    for play in variant_plays(board, dice):
        before_mine, before_theirs = board.pip_count()
        after_mine, after_theirs = play.after.pip_count()
        mine_in_play = sum(play.after.mine(p) for p in range(1, 26)) + play.after.waiting[0]
        assert mine_in_play + play.after.borne_off()[0] == 15
        assert play.after.borne_off()[1] == board.borne_off()[1]
        assert play.after.waiting[1] == board.waiting[1]
        hits = play.after.points[0] - board.points[0]
        assert hits == play.notation.count("*")
        bearing_off_waste = sum(
            die - source
            for (source, destination), die in zip(play.moves, play.dice, strict=True)
            if destination == 0
        )
        assert before_mine - after_mine == sum(play.dice) - bearing_off_waste
        # A hit checker on the mover's p stood on its owner's 25 - p and goes to 25: p pips.
        sent_back = sum(
            p * (board.theirs(p) - play.after.theirs(p))
            for p in range(1, 25)
            if board.theirs(p) > play.after.theirs(p)
        )
        assert after_theirs - before_theirs == sent_back


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PAIRS))
def test_no_play_leaves_a_die_unused_when_a_fuller_play_exists(pair):
    board, dice = pair
    found = variant_plays(board, dice)
    used = {len(play.moves) for play in found}
    assert len(used) <= 1
    whole = 4 if dice.is_double() else 2
    for play in found:
        if len(play.moves) < whole and play.after.borne_off()[0] < 15:
            # Nothing can follow any of its moves: no single move remains for the dice left.
            search = PlaySearch(board, dice)
            state = search.state(play.after)
            left = list(dice.moves())
            for die in play.dice:
                left.remove(die)
            assert all(not search.single_moves(state, die) for die in set(left))
        if not dice.is_double() and len(play.moves) == 1:
            assert play.dice[0] == dice.high or not any(p.dice == (dice.high,) for p in found)


def test_every_order_of_moves_that_reaches_a_board_spells_it_the_same():
    for board, dice in PAIRS[:400]:
        search = PlaySearch(board, dice)
        named = {play.after: play.notation for play in search.plays()}
        most = max((used for used, *_ in search.ends), default=0)
        for used, moves, _, state in search.ends:
            play_after = search.board_of(state)
            if used == most and moves and play_after in named:
                assert search._notation(moves, play_after) == named[play_after], board.text()


# The command line.


def test_the_command_line_lists_the_plays_of_the_1_and_the_2_alone(capsys, monkeypatch):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "acey-deucey", START, "1", "2")
    assert (code, err) == (0, "")
    assert set(out.splitlines()) == {
        "in/24 in/23\t" + "0 " * 22 + "1 1 | 0 0 0 0 13 15",
        "in/22\t" + "0 " * 21 + "1 0 0 | 0 0 0 0 14 15",
    }


def test_the_batch_reads_acey_deucey_lines(capsys, monkeypatch):
    line = f"acey-deucey\t{START}\t4 4\n"
    code, out, _ = run(capsys, monkeypatch, "moves", "--batch", stdin=line)
    assert code == 0 and out.splitlines()[-1] == "--"
    assert "in/21(4)\t" + "0 " * 20 + "4 0 0 0 | 0 0 0 0 11 15" in out.splitlines()


@pytest.mark.parametrize(
    "board", ["0 " * 24 + "| 0 0 0 0", "0 " * 24 + "| 0 0 0 0 15 16", "4HPwATDgc/ABMA"]
)
def test_an_acey_deucey_board_without_its_six_counts_exits_2(capsys, monkeypatch, board):
    code, out, err = run(capsys, monkeypatch, "moves", "--variant", "acey-deucey", board, "1", "2")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
