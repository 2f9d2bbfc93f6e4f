"""Acey-deucey's second implementation: checked by hand on boards worked out on paper, then
against the engine's command line (``moves --batch``) on 1,000 random reachable positions."""

import sys

import pytest

from tests.oracles.acey_deucey_oracle import (
    START,
    legal_plays,
    parse_board,
    random_positions,
    spellings,
    turned,
)
from tests.oracles.compare import REPO_ROOT, engine_answers


def notations(board_text, d1, d2):
    return {notation for notation, _ in legal_plays(board_text, d1, d2)}


def test_the_oracle_enters_waiting_checkers_by_the_dice():
    assert notations(START, 1, 2) == {"in/24 in/23", "in/22"}


def test_the_oracle_enters_the_hit_checker_first_and_bears_off_only_with_all_home():
    bar_first = "0 " * 12 + "1 " + "0 " * 11 + "| 0 0 1 0 13 15"
    assert all(n.startswith("bar/") for n in notations(bar_first, 6, 5))
    waiting = "2 2 " + "0 " * 21 + "-2 | 10 0 0 0 1 13"
    assert notations(waiting, 2, 1) == {"in/22", "in/23 2/1"}
    home = "2 2 " + "0 " * 21 + "-2 | 11 13 0 0 0 0"
    assert "2/off 1/off" in notations(home, 2, 1)


def test_the_oracle_turns_a_board_round():
    board = parse_board("-5 " + "0 " * 22 + "5 | 5 5 1 2 4 3")
    assert turned(board).text() == "-5 " + "0 " * 22 + "5 | 5 5 2 1 3 4"


def test_one_board_may_be_spelled_two_ways_and_the_least_is_written():
    board = "0 " * 12 + "1 " + "0 " * 11 + "| 0 0 1 0 13 15"
    two_ways = [texts for texts in spellings(board, 6, 5).values() if len(texts) > 1]
    assert two_ways == [{"bar/19 in/20", "bar/20 in/19"}]
    assert (
        "bar/19 in/20",
        "0 " * 12 + "1 " + "0 " * 5 + "1 1 " + "0 " * 4 + "| 0 0 0 0 12 15",
    ) in (legal_plays(board, 6, 5))


@pytest.mark.slow
def test_the_engine_and_the_oracle_list_the_same_plays_on_1000_random_positions():
    positions = list(random_positions(seed=2026, pairs=1000))
    boards = [parse_board(text) for text, _, _ in positions]
    assert sum(1 for b in boards if b.waiting[0]) > 100
    assert sum(1 for b in boards if b.bar[0]) > 100
    assert sum(1 for b in boards if b.off[0]) > 20
    requests = [("acey-deucey", text, d1, d2) for text, d1, d2 in positions]
    answers = engine_answers(requests, REPO_ROOT, sys.executable)
    disagreements = [
        (text, d1, d2, engine ^ legal_plays(text, d1, d2))
        for (_, text, d1, d2), engine in zip(requests, answers, strict=True)
        if engine != legal_plays(text, d1, d2)
    ]
    assert disagreements == [], f"{len(disagreements)} disagree, first: {disagreements[:1]}"
