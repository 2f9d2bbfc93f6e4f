"""The computer in acey-deucey: the hand-built evaluation sees the checkers waiting to enter,
the bot names a double after a 1-2 by trying all six, and two bots play a match out."""

from __future__ import annotations

import random

from games.computer import variant_player
from games.computer.decisions import VARIANT_LEVELS, bot_action, level_named
from games.computer.duel import play_bot_match
from games.computer.stakes import Stakes
from games.computer.variant_eval import judge
from games.engine import Dice, MatchRules, MatchState
from games.engine.board import Board
from games.engine.events import DoubleNamed, OpeningRoll, PlayMade, Roll
from games.engine.match import fold
from games.engine.variants import ACEY_DEUCEY

RULES = MatchRules.of("acey-deucey")


def acey(tokens: dict[int, int], counts: str) -> Board:
    text = " ".join(str(tokens.get(point, 0)) for point in range(1, 25))
    return Board.parse(ACEY_DEUCEY, f"{text} | {counts}")


def test_acey_deucey_has_the_four_levels_of_the_hand_built_evaluation():
    assert [level.name for level in VARIANT_LEVELS[ACEY_DEUCEY]] == [
        "beginner",
        "intermediate",
        "advanced",
        "expert",
    ]


def test_a_checker_waiting_to_enter_is_25_pips_away_and_worse_than_one_on_the_board():
    entered = acey({6: 15, 19: -15}, "0 0 0 0 0 0")
    waiting = acey({6: 14, 19: -15}, "0 0 0 0 1 0")
    assert waiting.pip_count()[0] == entered.pip_count()[0] - 6 + 25
    assert judge(waiting).win < judge(entered).win


def test_a_blot_the_opponent_can_hit_costs_more_than_a_made_point():
    safe = acey({6: 2, 5: 13, 1: -2}, "0 0 0 0 0 13")
    exposed = acey({8: 1, 6: 1, 5: 13, 1: -2}, "0 0 0 0 0 13")
    assert judge(exposed).win < judge(safe).win


def test_the_bot_names_the_double_whose_best_play_is_worth_the_most():
    state = fold(3, [OpeningRoll((3, 1)), Roll(0, Dice(2, 1)), PlayMade(0, "in/24 in/23")], RULES)
    assert state.phase == "naming"
    action = bot_action(state, 0, level_named("expert"), random.Random(1))
    assert action is not None and action.action == "name_double"
    stakes = Stakes.of(state, 0)
    board = state.board_for(0)
    values = {n: variant_player.best_equity(board, Dice(n, n), stakes) for n in range(1, 7)}
    assert values[action.number] == max(values.values())
    assert state.apply(DoubleNamed(0, action.number)).dice == Dice(action.number, action.number)


def test_two_beginners_play_an_acey_deucey_match_to_its_end():
    state = play_bot_match(
        1, (level_named("beginner"), level_named("beginner")), random.Random(3), rules=RULES
    )
    assert isinstance(state, MatchState) and state.winner is not None
