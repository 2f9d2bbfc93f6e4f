"""Jacquet's second implementation: checked by hand on boards worked out on paper, then against
the engine's command line (``moves --batch``) on 1,000 random reachable positions."""

import sys

import pytest

from tests.oracles.compare import REPO_ROOT, engine_answers
from tests.oracles.jacquet_oracle import (
    START,
    courier_on_its_way,
    legal_plays,
    parse_board,
    random_positions,
    turned,
)


def notations(board_text, d1, d2, blockade=True):
    return {notation for notation, _ in legal_plays(board_text, d1, d2, blockade)}


def board_of(mine, theirs):
    points = ["0"] * 24
    for point, n in mine.items():
        points[point - 1] = str(n)
    for point, n in theirs.items():
        points[point - 1] = str(-n)
    off = (15 - sum(mine.values()), 15 - sum(theirs.values()))
    return " ".join(points) + f" | {off[0]} {off[1]} 0 0"


def test_the_oracle_sends_the_courier_alone_from_the_talon():
    assert notations(START, 6, 5) == {"24/13"}
    assert notations(START, 4, 4) == {"24/16"}
    assert notations(board_of({24: 14, 7: 1}, {12: 15}), 6, 5) == {"24/19 7/1", "24/18 7/2"}


def test_the_oracle_closes_a_point_held_by_one_checker_and_bears_off_from_home():
    board = board_of({24: 14, 16: 1}, {12: 13, 10: 1, 14: 1})
    assert notations(board, 6, 2) == set()
    assert notations(board_of({4: 1, 2: 14}, {12: 15}), 6, 5) == {"4/off 2/off"}


def test_the_oracle_refuses_a_sixth_point_in_a_row_without_the_1_and_2_points():
    board = board_of({24: 4, 14: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 2}, {12: 10, 11: 5})
    with_rule = {p for n in notations(board, 6, 1) for p in n.split()}
    without = {p for n in notations(board, 6, 1, blockade=False) for p in n.split()}
    assert "14/8" in without - with_rule
    across_24_and_1 = board_of({24: 6, 23: 2, 22: 2, 21: 2, 20: 2, 3: 1}, {12: 10, 11: 5})
    assert "3/1" not in {p for n in notations(across_24_and_1, 2, 1) for p in n.split()}


def test_the_oracle_turns_a_board_round():
    board = parse_board(board_of({24: 14, 7: 1}, {12: 13, 3: 2}))
    assert turned(board).text() == board_of({24: 13, 15: 2}, {12: 14, 19: 1})
    assert turned(turned(board)) == board


@pytest.mark.slow
def test_the_engine_and_the_oracle_list_the_same_plays_on_1000_random_positions():
    positions = list(random_positions(seed=2026, pairs=1000))
    boards = [parse_board(text) for text, _, _ in positions]
    assert sum(1 for b in boards if courier_on_its_way(b)) > 30
    assert sum(1 for b in boards if b.off[0]) > 50
    decided_by_blockade = sum(
        1
        for text, d1, d2 in positions
        if legal_plays(text, d1, d2, blockade=False) != legal_plays(text, d1, d2)
    )
    assert decided_by_blockade > 5
    requests = [("jacquet", text, d1, d2) for text, d1, d2 in positions]
    answers = engine_answers(requests, REPO_ROOT, sys.executable)
    disagreements = [
        (text, d1, d2, engine ^ legal_plays(text, d1, d2))
        for (_, text, d1, d2), engine in zip(requests, answers, strict=True)
        if engine != legal_plays(text, d1, d2)
    ]
    assert disagreements == [], f"{len(disagreements)} disagree, first: {disagreements[:1]}"
