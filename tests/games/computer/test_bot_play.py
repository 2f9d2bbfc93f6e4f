"""How a bot decides, level by level, without the database."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.computer.decisions import LEVELS, BotAction, bot_action, level_named
from games.engine import Dice, Double, MatchState, OpeningRoll, PlayMade, Position, Resign, Roll

EXPERT = level_named("expert")


def opened() -> MatchState:
    return MatchState.new(5).apply(OpeningRoll((3, 1)))


def test_the_levels_grow_stronger_in_order():
    assert [level.name for level in LEVELS] == ["beginner", "intermediate", "advanced", "expert"]
    assert [level.noise for level in LEVELS] == sorted(
        (level.noise for level in LEVELS), reverse=True
    )
    assert LEVELS[-1].plies > LEVELS[0].plies
    with pytest.raises(ValueError, match="no bot level"):
        level_named("grandmaster")


def test_a_noiseless_bot_plays_the_best_opening():
    assert bot_action(opened(), 0, EXPERT) == BotAction("move", "8/5 6/5")


def test_a_bot_only_acts_when_it_is_its_turn():
    assert bot_action(opened(), 1, EXPERT) is None


def test_a_bot_does_not_double_at_the_start_and_takes_an_early_double():
    state = opened().apply(PlayMade(0, "8/5 6/5"))
    assert bot_action(state, 1, EXPERT) == BotAction("roll")
    assert bot_action(state.apply(Double(1)), 0, EXPERT) == BotAction("take")


def test_every_level_answers_every_kind_of_decision():
    state = opened()
    for level in LEVELS:
        action = bot_action(state, 0, level, random.Random(1))
        assert action is not None and action.action == "move"


def test_a_bot_accepts_a_generous_resignation_and_rejects_a_cheap_one():
    state = opened().apply(PlayMade(0, "8/5 6/5")).apply(Roll(1, Dice(2, 1)))
    assert bot_action(state.apply(Resign(1, 3)), 0, EXPERT) == BotAction("accept_resign")
    # At the start nobody expects to lose a gammon: a single game is plenty.
    assert bot_action(state.apply(Resign(1, 1)), 0, EXPERT) == BotAction("accept_resign")


def test_a_bot_about_to_win_a_backgammon_rejects_less():
    # Player 1, on roll, has all fifteen checkers in player 0's home; player 0 has two left.
    gammoned = Position.from_checkers({6: 2}, {24: 8, 23: 7})
    rolling = dataclasses.replace(opened(), phase="rolling", turn=1, dice=None, position=gammoned)
    assert bot_action(rolling.apply(Resign(1, 1)), 0, EXPERT) == BotAction("reject_resign")
    assert bot_action(rolling.apply(Resign(1, 2)), 0, EXPERT) == BotAction("reject_resign")
    assert bot_action(rolling.apply(Resign(1, 3)), 0, EXPERT) == BotAction("accept_resign")
