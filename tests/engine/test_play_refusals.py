"""A refused play of a variant names the rule it breaks (games/engine/play_refusals.py)."""

import pytest

from games.engine import Dice, IllegalPlayError, MatchRules, PlayMade
from games.engine.board import Board
from games.engine.play_refusals import why_play_breaks_a_rule
from games.engine.variant_moves import find_play
from games.engine.variants import FEVGA, LONG_NARDI, PLAKOTO
from tests.engine.test_variant_match import moving
from tests.engine.variant_boards import make

FEVGA_RUNNER = Board.starting(FEVGA)
FEVGA_FULL_QUARTER = make(FEVGA, {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 5: 1}, {14: 15})
NARDI_BLOCK = make(LONG_NARDI, {24: 9, 13: 1, 9: 1, 8: 1, 7: 1, 6: 1, 5: 1}, {12: 15})
NARDI_START = Board.starting(LONG_NARDI)
PLAKOTO_PINNED_AT_HOME = make(PLAKOTO, {6: 14}, {19: 14}, pins={3: "-1p1"})
PLAKOTO_PINNED = make(PLAKOTO, {24: 13}, {1: 13}, pins={13: "-1p1", 20: "1p1"})


@pytest.mark.parametrize(
    ("board", "dice", "play", "words"),
    [
        (FEVGA_RUNNER, (6, 5), "24/18 24/19", "must pass your opponent's start"),
        (FEVGA_FULL_QUARTER, (5, 2), "24/19 5/3", "all six points of your starting quarter"),
        (NARDI_BLOCK, (3, 1), "13/10 24/23", "In long nardi you may not build a block of six"),
        (NARDI_START, (6, 5), "24/18 24/19", "only one checker may leave the head"),
        (PLAKOTO_PINNED_AT_HOME, (6, 5), "6/off 6/1", "cannot bear off while your checker on"),
        (PLAKOTO_PINNED, (6, 5), "13/7 24/19", "The checker on the 13 point is pinned"),
    ],
)
def test_a_refused_play_names_the_rule_it_breaks(board, dice, play, words):
    with pytest.raises(IllegalPlayError):
        find_play(board, Dice(*dice), play)
    assert words in why_play_breaks_a_rule(board, Dice(*dice), play)


def test_fevga_lets_a_second_checker_leave_once_the_runner_has_passed():
    board = make(FEVGA, {24: 14, 11: 1}, {12: 15})
    assert find_play(board, Dice(6, 5), "24/18 24/19").notation == "24/19 24/18"


def test_a_play_wrong_for_no_rule_of_the_variant_is_left_to_the_generator():
    assert why_play_breaks_a_rule(FEVGA_RUNNER, Dice(6, 5), "24/17") is None
    assert why_play_breaks_a_rule(FEVGA_RUNNER, Dice(6, 5), "not a play") is None


def test_the_match_refuses_a_play_with_the_rule_and_the_legal_plays():
    state = moving(MatchRules.of("long-nardi"), NARDI_START, Dice(6, 5))
    with pytest.raises(IllegalPlayError) as refused:
        state.apply(PlayMade(0, "24/18 24/19"))
    message = str(refused.value)
    assert message.startswith("In long nardi only one checker may leave the head")
    assert "Legal plays: 24/13" in message
