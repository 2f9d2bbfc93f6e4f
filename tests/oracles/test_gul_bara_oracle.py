"""Gul Bara's second implementation: checked by hand on boards worked out on paper, then against
the engine's command line (``moves --batch``) on 1,000 random reachable positions."""

import sys

import pytest

from tests.oracles.compare import REPO_ROOT, engine_answers
from tests.oracles.gul_bara_oracle import (
    START,
    ImpossibleBoard,
    legal_plays,
    parse_board,
    played_in_full,
    random_positions,
    turned,
)


def notations(board_text, d1, d2):
    return {notation for notation, _ in legal_plays(board_text, d1, d2)}


def board(mine, theirs, off=(0, 0)):
    tokens = ["0"] * 24
    for point, count in mine.items():
        tokens[point - 1] = str(count)
    for point, count in theirs.items():
        tokens[point - 1] = str(-count)
    return " ".join(tokens) + f" | {off[0]} {off[1]} 0 0"


def test_the_oracle_moves_two_checkers_from_the_start_and_stops_at_the_opponents_start():
    assert notations(START, 6, 5) == {"24/13", "24/19 24/18"}
    assert notations(START, 6, 6) == {"24/18(4)"}


def test_the_oracle_never_lands_on_a_point_with_an_opposing_checker():
    lone = board({20: 1, 24: 14}, {17: 1, 12: 14})
    assert notations(lone, 3, 1) == {"20/16", "24/20", "24/21 20/19", "24/23 24/21"}


def test_the_oracle_bears_off_only_with_all_home_and_from_the_highest_with_a_higher_die():
    assert notations(board({8: 1, 5: 3, 3: 1}, {12: 15}, (10, 0)), 6, 4) == {
        "8/2 5/1",
        "8/4 5/off",
    }
    assert notations(board({2: 1}, {12: 15}, (14, 0)), 6, 4) == {"2/off"}


def test_the_oracle_knows_a_double_not_played_in_full():
    blocked = board({20: 1, 1: 14}, {12: 14, 8: 1})
    assert notations(blocked, 4, 4) == {"20/16"}
    assert not played_in_full(blocked, 4) and played_in_full(START, 3)


def test_the_oracle_turns_a_board_round():
    assert turned(parse_board(START)) == parse_board(START)
    one = parse_board(board({13: 1, 24: 14}, {1: 2, 12: 13}))
    assert turned(one).text() == board({13: 2, 24: 13}, {1: 1, 12: 14})


@pytest.mark.parametrize(
    "text",
    [START.replace("| 0 0 0 0", "| 0 0 1 0"), START.replace("15 |", "14 |"), START[:-2]],
)
def test_the_oracle_refuses_a_board_gul_bara_cannot_have(text):
    with pytest.raises(ImpossibleBoard):
        parse_board(text)


@pytest.mark.slow
def test_the_engine_and_the_oracle_list_the_same_plays_on_1000_random_positions():
    positions = list(random_positions(seed=2026, pairs=1000))
    boards = [parse_board(text) for text, _, _ in positions]
    assert sum(1 for b in boards if all(n <= 0 for n in b.points[6:])) > 50
    assert sum(1 for b in boards if b.off[0]) > 40
    climbed = [
        (before, after)
        for before, after in zip(positions, positions[1:], strict=False)
        if before[1] == before[2]
        and after[1:] == (before[1] + 1,) * 2
        and after[0] in {board_after for _, board_after in legal_plays(*before)}
    ]
    assert len(climbed) > 10
    requests = [("gul-bara", text, d1, d2) for text, d1, d2 in positions]
    answers = engine_answers(requests, REPO_ROOT, sys.executable)
    disagreements = [
        (text, d1, d2, engine ^ legal_plays(text, d1, d2))
        for (_, text, d1, d2), engine in zip(requests, answers, strict=True)
        if engine != legal_plays(text, d1, d2)
    ]
    assert disagreements == [], f"{len(disagreements)} disagree, first: {disagreements[:1]}"
