"""Luck in any variant: each roll against the average of all the rolls it could have been."""

from __future__ import annotations

import pytest

from games.computer.variant_player import ROLLS
from games.computer.variant_review import review_luck, roll_luck
from games.engine import Dice, MatchRules, MatchState, OpeningRoll, PlayMade, Roll


def started(variant: str) -> MatchState:
    """A match of ``variant`` whose first player is about to roll (or has rolled, where the
    opening roll is played)."""
    return MatchState.new(3, MatchRules.of(variant)).apply(OpeningRoll((5, 3)))


@pytest.mark.parametrize("variant", ["plakoto", "fevga", "portes", "gul-bara", "jacquet"])
def test_the_luck_of_all_rolls_averages_to_nothing(variant):
    state = started(variant)
    assert state.phase == "rolling" and state.turn == 0
    lucks = [(roll_luck(state, 0, roll), ways) for roll, ways in ROLLS]
    assert sum(luck * ways for luck, ways in lucks) / 36 == pytest.approx(0, abs=1e-9)
    assert min(luck for luck, _ in lucks) < 0 < max(luck for luck, _ in lucks)


def test_a_roll_that_pins_the_opponents_only_runner_is_lucky_and_one_that_cannot_is_not():
    # Plakoto: the second player has one checker out, on the mover's 18 (six from its start),
    # in reach of a 6 from the mover's start; 6-6 pins it and covers, 2-1 cannot reach it.
    state = started("plakoto").apply(Roll(0, Dice(2, 1))).apply(PlayMade(0, "24/21"))
    state = state.apply(Roll(1, Dice(6, 1))).apply(PlayMade(1, "24/18 24/23"))
    assert roll_luck(state, 0, Dice(6, 6)) > 0.1
    assert roll_luck(state, 0, Dice(2, 1)) < 0


def test_the_review_measures_every_roll_and_adds_each_players_luck():
    events = [
        OpeningRoll((5, 3)),
        Roll(0, Dice(6, 4)),
        PlayMade(0, "24/14"),
        Roll(1, Dice(2, 2)),
        PlayMade(1, "24/16"),
    ]
    review = review_luck(3, events, rules=MatchRules.of("fevga"))
    assert [(roll.index, roll.player, roll.dice) for roll in review.rolls] == [
        (1, 0, "6-4"),
        (3, 1, "2-2"),
    ]
    data = review.to_json()
    assert data["kind"] == "luck" and data["decisions"] == []
    assert [player["rolls"] for player in data["players"]] == [1, 1]
    assert data["players"][1]["luck"] == round(review.total(1), 4)


def test_an_opening_roll_that_is_played_is_measured_against_the_rolls_without_a_double():
    # Long nardi opens as backgammon does: the higher die plays the opening roll.
    review = review_luck(3, [OpeningRoll((6, 5))], rules=MatchRules.of("long-nardi"))
    assert [(roll.index, roll.player, roll.dice) for roll in review.rolls] == [(0, 0, "6-5")]
    state = MatchState.new(3, MatchRules.of("long-nardi"))
    assert review.rolls[0].luck == pytest.approx(roll_luck(state, 0, Dice(6, 5), opening=True))
    assert review.rolls[0].luck != pytest.approx(roll_luck(state, 0, Dice(6, 5)))


def test_a_gul_bara_climb_is_measured_once_as_the_roll_that_began_it():
    turns = [("6-5", "24/13"), ("6-5", "24/13"), ("2-1", "24/21"), ("2-1", "24/21")]
    turns += [("4-1", "24/19"), ("4-1", "24/19")]
    events: list = [OpeningRoll((5, 2))]
    for number, (dice, play) in enumerate(turns):
        events += [Roll(number % 2, Dice(int(dice[0]), int(dice[2]))), PlayMade(number % 2, play)]
    events += [Roll(0, Dice(5, 5)), PlayMade(0, "24/19(4)"), PlayMade(0, "24/18(4)")]
    review = review_luck(3, events, rules=MatchRules.of("gul-bara"))
    assert [roll.dice for roll in review.rolls][-2:] == ["4-1", "5-5"]
    assert len(review.rolls) == 7
