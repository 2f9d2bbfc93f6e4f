"""Tavla, the Turkish game (docs/variants.md §4.1): backgammon's start and moves, no cube, a
mars counts 2 and there is no backgammon; the opening roll's winner rolls both dice again."""

from __future__ import annotations

import random

import pytest

from games.engine import Dice, MatchRules, MatchState, legal_plays
from games.engine.board import Board
from games.engine.errors import IllegalActionError
from games.engine.events import (
    AcceptResignation,
    Double,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
)
from games.engine.selfplay import self_play_pairs, variant_self_play_pairs
from games.engine.variant_moves import variant_plays
from games.engine.variants import BACKGAMMON, TAVLA, variant_named
from games.engine.words import event_words, resignation_words
from tests.engine.matches import at

NAMES = ("alice", "bob")


def points_text(tokens: dict[int, str], counts: str = "0 0 0 0") -> str:
    return " ".join(tokens.get(point, "0") for point in range(1, 25)) + " | " + counts


def moving(board: Board, dice: Dice, length: int = 5) -> MatchState:
    state = MatchState.new(length, MatchRules.of("tavla"))
    return at(state, phase="moving", turn=0, dice=dice, position=board.to_position())


def test_the_start_is_backgammons():
    assert variant_named("tavla") is TAVLA
    assert Board.starting(TAVLA).points == Board.starting(BACKGAMMON).points
    assert MatchState.new(5, MatchRules.of("tavla")).pip_counts() == (167, 167)


def test_the_plays_are_backgammons_on_many_positions():
    for position, dice in self_play_pairs(300, seed=11):
        ours = {play.after.points for play in variant_plays(Board(TAVLA, position.points), dice)}
        theirs = {position.apply(play).points for play in legal_plays(position, dice)}
        assert ours == theirs, (position, dice)


def test_bgsage_agrees_on_1000_positions_of_tavla_self_play():
    """bgsage, written apart from this engine, is the second implementation of tavla's moves."""
    pytest.importorskip("bgsage", reason="bgsage is the oracle; it is in requirements.txt")
    from games.engine.oracle import variant_disagreements

    pairs = variant_self_play_pairs(TAVLA, 1000, seed=12)
    assert sum(1 for board, _ in pairs if board.points[25]) > 20
    found = variant_disagreements(pairs)
    assert found == [], f"{len(found)} disagreements, first: {found[:1]}"


def test_no_cube_and_no_crawford_unless_the_challenge_turns_it_on():
    rules = MatchRules.of("tavla")
    assert not rules.cube and not rules.crawford
    state = MatchState.new(5, rules).apply(OpeningRoll((3, 5)))
    assert "double" not in state.legal_actions(1)
    with pytest.raises(IllegalActionError, match="there is no cube"):
        state.apply(Double(1))
    assert MatchRules.of("tavla", cube=True).cube


@pytest.mark.parametrize("length", [5, 7])
def test_matches_to_5_or_7(length):
    assert MatchState.new(length, MatchRules.of("tavla")).match_length == length


def test_the_opening_rolls_winner_rolls_both_dice_again_every_game():
    state = MatchState.new(5, MatchRules.of("tavla"))
    opened = state.apply(OpeningRoll((3, 5)))
    assert (opened.phase, opened.turn, opened.dice) == ("rolling", 1, None)
    after = opened.apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert after.score == (1, 0)
    assert (after.phase, after.turn) == ("opening", None)


def test_a_mars_counts_2_and_a_backgammon_is_only_a_mars():
    # Player 0 bears off the last checker; player 1 still has one on player 0's home board
    # (a backgammon in backgammon) and has borne off none.
    board = Board.parse(TAVLA, points_text({1: "1", 3: "-1", 12: "-14"}, "14 0 0 0"))
    before = moving(board, Dice(2, 1))
    state = before.apply(PlayMade(0, "1/off"))
    assert state.score == (2, 0) and state.games[-1].result == "gammon"
    assert (
        "alice wins game 1, a mars (2 points)"
        in event_words(PlayMade(0, "1/off"), before, state, NAMES).words
    )


def test_a_single_game_once_the_loser_has_borne_off():
    board = Board.parse(TAVLA, points_text({1: "1", 20: "-13"}, "14 2 0 0"))
    state = moving(board, Dice(2, 1)).apply(PlayMade(0, "1/off"))
    assert state.score == (1, 0) and state.games[-1].result == "single"


def test_resigning_offers_a_single_or_a_mars():
    state = MatchState.new(5, MatchRules.of("tavla"))
    assert state.resignation_offers() == (1, 2)
    assert resignation_words(TAVLA, 2) == "a mars"


def test_random_matches_play_to_their_end():
    rng = random.Random(3)
    for _ in range(3):
        state = MatchState.new(3, MatchRules.of("tavla"))
        for _step in range(3000):
            if state.is_finished():
                break
            if state.phase == "opening":
                state = state.apply(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
            elif state.phase == "rolling":
                state = state.apply(Roll(state.turn, Dice(rng.randint(1, 6), rng.randint(1, 6))))
            else:
                plays = state.legal_play_notations()
                state = state.apply(PlayMade(state.turn, rng.choice(plays)))
        assert state.is_finished() and max(state.score) >= 3
        assert all(game.points in (1, 2) for game in state.games)
