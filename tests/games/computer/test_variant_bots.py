"""The bots in every variant, without the database: legal plays at every level in positions
reached by play, whole matches to the end, the cube and resignations where there is one."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.computer.decisions import LEVELS, BotAction, bot_action, level_in, level_named
from games.computer.duel import play_bot_match
from games.computer.stakes import Chances, Stakes
from games.computer.variant_player import DEEPER, rank_plays
from games.engine import Dice, Double, MatchRules, MatchState, OpeningRoll, PlayMade, Resign, Roll
from games.engine.board import Board
from games.engine.variants import FEVGA, PLAKOTO, PORTES, VARIANTS

OWN_VARIANTS = ("plakoto", "fevga", "long-nardi", "gul-bara", "jacquet")
EXPERT, BEGINNER = level_named("expert"), level_named("beginner")


def reached_by_play(variant: str, seed: int, turns: int, cube: bool = False) -> MatchState:
    """A match of ``variant`` waiting for a play of its first game, after up to ``turns``
    random plays from the start."""
    rng = random.Random(seed)
    state = MatchState.new(3, MatchRules.of(variant, cube=cube))
    moving = None
    while not state.games:
        if state.phase == "opening":
            state = state.apply(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
        elif state.phase == "rolling":
            assert state.turn is not None
            state = state.apply(Roll(state.turn, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        else:
            assert state.phase == "moving" and state.turn is not None
            moving = state
            if turns == 0:
                break
            turns -= 1
            state = state.apply(PlayMade(state.turn, rng.choice(state.variant_plays()).notation))
    assert moving is not None
    return moving


def boards_after_legal_plays(state: MatchState) -> set[Board]:
    return {play.after for play in state.variant_plays()}


@settings(max_examples=30, deadline=None)
@given(
    variant=st.sampled_from((*OWN_VARIANTS, "portes")),
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 80),
)
def test_every_level_plays_a_legal_play_in_positions_reached_by_play(variant, seed, turns):
    state = reached_by_play(variant, seed, turns)
    player = state.turn
    assert player is not None
    legal = boards_after_legal_plays(state)
    for level in LEVELS:
        action = bot_action(state, player, level, random.Random(seed))
        assert action is not None and action.action == "move" and action.play is not None
        after = state.apply(PlayMade(player, action.play))
        if not after.games:
            assert after.board_for(player) in legal


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon"])
def test_bgsage_plays_nackgammon_and_hypergammon_to_the_end(variant):
    state = play_bot_match(1, (EXPERT, BEGINNER), random.Random(5), rules=MatchRules.of(variant))
    assert state.is_finished() and state.winner in (0, 1)
    assert state.rules.variant == variant


@pytest.mark.parametrize("variant", ["gul-bara", "jacquet"])
def test_the_bots_play_gul_bara_and_jacquet_to_the_end(variant):
    state = play_bot_match(1, (EXPERT, BEGINNER), random.Random(5), rules=MatchRules.of(variant))
    assert state.is_finished() and state.winner in (0, 1)
    assert state.rules.variant == variant


def test_a_bot_plays_each_double_of_a_climb():
    state = reached_by_play("gul-bara", seed=3, turns=0)
    assert state.board_for(0) == Board.starting(state.game_variant)
    climbing = dataclasses.replace(state, turn=0, dice=Dice(5, 5), turns_taken=(4, 4))
    action = bot_action(climbing, 0, EXPERT, random.Random(1))
    assert action is not None and action.play is not None
    after = climbing.apply(PlayMade(0, action.play))
    assert (after.phase, after.turn, after.dice) == ("moving", 0, Dice(6, 6))
    action = bot_action(after, 0, BEGINNER, random.Random(1))
    assert action is not None and action.action == "move"
    assert after.apply(PlayMade(0, action.play or "")).turn == 1


@pytest.mark.parametrize("variant", OWN_VARIANTS)
def test_two_plies_look_again_at_the_best_plays_at_one_ply(variant):
    state = reached_by_play(variant, seed=7, turns=12)
    assert state.turn is not None and state.dice is not None
    board, stakes = state.board_for(state.turn), Stakes.of(state, state.turn)
    one_ply = rank_plays(board, state.dice, stakes, plies=1)
    two_plies = rank_plays(board, state.dice, stakes, plies=2)
    assert [p.equity for p in one_ply] == sorted((p.equity for p in one_ply), reverse=True)
    assert {p.notation for p in one_ply} == {p.notation for p in state.variant_plays()}
    assert {p.notation for p in two_plies} == {p.notation for p in one_ply[:DEEPER]}


def test_some_variants_have_their_own_settings_for_the_same_four_levels():
    for name in (*OWN_VARIANTS, "hypergammon"):
        own = [level_in(level, VARIANTS[name]) for level in LEVELS]
        assert [level.name for level in own] == [level.name for level in LEVELS]
        assert [level.noise for level in own] == sorted((lv.noise for lv in own), reverse=True)
        assert own[-1].plies == 2 and own[-1].noise == 0
    assert level_in(EXPERT, PORTES) is EXPERT


def test_portes_scores_a_backgammon_as_a_gammon_and_tavli_best_of_three_counts_games():
    portes = MatchState.new(5, MatchRules.of("portes"))
    assert Stakes.of(portes, 0) == Stakes((1.0, 2.0, 2.0), (1.0, 2.0, 2.0))
    two_away = dataclasses.replace(MatchState.new(5, MatchRules.of("fevga")), score=(3, 4))
    assert Stakes.of(two_away, 0) == Stakes((1.0, 2.0, 2.0), (1.0, 1.0, 1.0))
    best_of_three = MatchState.new(3, MatchRules.of("tavli", "tavli-best-of-three"))
    assert Stakes.of(best_of_three, 1).mine == (1.0, 1.0, 1.0)
    assert Stakes().equity(Chances(win=0.5, double_win=0.25)) == pytest.approx(0.25)


def rolling(variant: str, board: Board, cube: bool = True) -> MatchState:
    """Player 0 to roll (or double) in a 5-point match of ``variant`` on ``board``."""
    start = MatchState.new(5, MatchRules.of(variant, cube=cube))
    return dataclasses.replace(start, phase="rolling", turn=0, board=board)


# Player 0's view: far ahead in the race, nothing to pass any more.
FAR_AHEAD = Board.parse(FEVGA, "3 3 3 0 0 0 0 0 0 0 0 0 0 0 0 0 -5 -5 -5 0 0 0 0 0 | 6 0 0 0")
EVEN = Board.starting(FEVGA)


def test_a_bot_far_ahead_doubles_and_the_other_drops():
    state = rolling("fevga", FAR_AHEAD)
    assert bot_action(state, 0, EXPERT) == BotAction("double")
    assert bot_action(state.apply(Double(0)), 1, EXPERT) == BotAction("drop")


def test_at_the_start_a_bot_rolls_and_takes_a_double():
    state = rolling("fevga", EVEN)
    assert bot_action(state, 0, EXPERT) == BotAction("roll")
    assert bot_action(state.apply(Double(0)), 1, EXPERT) == BotAction("take")


def test_a_bot_weighs_a_resignation_by_the_game_it_expects():
    # Player 1 resigns from far behind with all its checkers still far from home: player 0
    # expects a gammon, so one point is too little and two are enough.
    gammoned = Board.parse(PLAKOTO, "2 0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 | 13 0 0 0")
    state = dataclasses.replace(rolling("plakoto", gammoned, cube=False), turn=1)
    assert bot_action(state.apply(Resign(1, 1)), 0, EXPERT) == BotAction("reject_resign")
    assert bot_action(state.apply(Resign(1, 2)), 0, EXPERT) == BotAction("accept_resign")
