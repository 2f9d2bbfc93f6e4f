"""The hand-built evaluation of plakoto, fevga and long nardi, term by term, on boards drawn
by hand. Each board is seen from the side that has just moved, the other side to roll."""

from __future__ import annotations

import pytest

from games.computer.stakes import Stakes
from games.computer.variant_eval import judge, shot_chance
from games.engine.board import Board
from games.engine.variants import FEVGA, LONG_NARDI, PLAKOTO, Variant

MONEY = Stakes()


def board(variant: Variant, mine: dict[int, int], theirs: dict[int, int], **pins: int) -> Board:
    """A board from the mover's side: ``mine`` and ``theirs`` count the checkers on top of
    each point (mover's numbering); ``mine_pinned_at=P`` pins one of the mover's checkers on
    P under the opponent's, ``theirs_pinned_at=P`` one of theirs under the mover's."""
    points, pinned = [0] * 26, [0] * 26
    for point, n in mine.items():
        points[point] += n
    for point, n in theirs.items():
        points[point] -= n
    for key in ("mine_pinned_at", "theirs_pinned_at"):
        if key in pins:
            pinned[pins[key]] = 1
    return Board(variant, tuple(points), tuple(pinned))


def equity(position: Board) -> float:
    return MONEY.equity(judge(position))


def test_a_pinned_mother_is_nearly_a_lost_double_game():
    # The mover's last checker on its start (24) is pinned by an opponent's checker.
    pinned = board(PLAKOTO, {13: 14}, {24: 1, 7: 14}, mine_pinned_at=24)
    free = board(PLAKOTO, {13: 14, 24: 1}, {23: 1, 7: 14})
    assert judge(pinned).double_loss > 0.8
    assert equity(pinned) < -1.5 < equity(free)


def test_a_lone_mother_within_reach_of_the_opponent_is_a_danger():
    exposed = board(PLAKOTO, {24: 1, 13: 14}, {20: 2, 1: 13})
    covered = board(PLAKOTO, {24: 2, 13: 13}, {20: 2, 1: 13})
    assert judge(exposed).double_loss > judge(covered).double_loss + 0.3
    assert equity(exposed) < equity(covered) - 0.5


def test_pinning_an_opponents_checker_far_from_its_home_is_good():
    # Same pips: an opponent's checker pinned on the mover's 4 (its 21), or free beside it.
    pinning = board(PLAKOTO, {4: 1, 13: 14}, {20: 14}, theirs_pinned_at=4)
    beside = board(PLAKOTO, {4: 1, 13: 14}, {20: 14, 5: 1})
    beside_pips, pinning_pips = beside.pip_count(), pinning.pip_count()
    assert pinning_pips[0] == beside_pips[0] and pinning_pips[1] == beside_pips[1] + 1
    assert equity(pinning) > equity(beside) + 0.2


def test_a_blot_the_opponent_can_pin_costs_more_than_one_out_of_reach():
    # The opponent's checkers stand on the mover's 2 and 3: a blot on 8 is in direct reach
    # of both, a blot on 1 is behind them, for the same pips.
    in_reach = board(PLAKOTO, {8: 1, 15: 1, 21: 13}, {2: 7, 3: 8})
    behind = board(PLAKOTO, {1: 1, 22: 1, 21: 13}, {2: 7, 3: 8})
    assert in_reach.pip_count() == behind.pip_count()
    assert equity(in_reach) < equity(behind) - 0.2


@pytest.mark.parametrize("variant", [FEVGA, LONG_NARDI])
def test_a_six_point_block_in_front_of_the_opponent_is_good(variant):
    # The opponent has 8 checkers on its start (the mover's 12) and 7 in its home, past the
    # mover's block, so the block is legal. The mover holds 6..11 just ahead of the 8, or has
    # the same pips on points far from them.
    blocking = board(variant, {11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 2, 24: 3}, {12: 8, 15: 7})
    spread = board(variant, {24: 3, 20: 2, 19: 2, 3: 8}, {12: 8, 15: 7})
    assert blocking.pip_count() == spread.pip_count()
    assert equity(blocking) > equity(spread) + 0.5


def test_in_a_race_the_lead_decides():
    # Everyone is past everyone in fevga (the opponent's home is the mover's 13..18).
    ahead = board(FEVGA, {1: 5, 2: 5, 3: 5}, {16: 5, 17: 5, 18: 5})
    level = board(FEVGA, {4: 5, 5: 5, 6: 5}, {16: 5, 17: 5, 18: 5})
    assert ahead.pip_count() == (30, 75)
    assert level.pip_count() == (75, 75)
    assert judge(ahead).win > 0.95
    assert 0.2 < judge(level).win < 0.5  # the opponent is on roll


def test_checkers_left_on_the_head_in_long_nardi_are_a_weight():
    stacked = board(LONG_NARDI, {24: 9, 18: 3, 9: 3}, {12: 15})
    spread = board(LONG_NARDI, {24: 3, 23: 3, 22: 3, 21: 3, 9: 3}, {12: 15})
    assert stacked.pip_count() == spread.pip_count()
    assert equity(stacked) < equity(spread)


def test_a_gammon_is_likely_when_the_loser_is_far_from_home():
    near_done = board(PLAKOTO, {1: 2}, {3: 15})
    assert judge(near_done).double_win > 0.9


def test_a_finished_game_is_certain():
    won = board(FEVGA, {}, {12: 15})
    chances = judge(won)
    assert (chances.win, chances.double_win) == (1.0, 1.0)


def test_shots_are_counted_over_the_36_rolls():
    # One opponent checker six pips behind a lone checker: any 6, 5-1, 4-2, 3-3 and 2-2.
    lone = board(PLAKOTO, {10: 1, 24: 14}, {4: 1, 11: 14})
    assert shot_chance(lone.points, lone.pinned, 10) == 17 / 36
    # With the points between closed, only a direct 6 remains.
    closed = board(PLAKOTO, {10: 1, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2, 24: 4}, {4: 1, 11: 14})
    assert shot_chance(closed.points, closed.pinned, 10) == 11 / 36


def test_a_pinned_mother_and_a_threatened_one_still_make_chances_that_add_up():
    # The mover's mother is pinned on its start; the opponent's lone mother (the mover's 1)
    # is four pips ahead of the mover's free checkers on 5.
    both = board(PLAKOTO, {13: 10, 5: 4}, {24: 1, 1: 1, 7: 13}, mine_pinned_at=24)
    chances = judge(both)
    assert chances.win + chances.losing <= 1.0 + 1e-9
    assert 0.0 <= chances.double_win <= chances.win and 0.0 <= chances.double_loss <= chances.losing
