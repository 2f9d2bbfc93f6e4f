"""The rating simulation (ratings/simulation.py, manage.py rating_simulation): seeded, and the
length-aware rating predicts simulated matches of mixed lengths better than today's."""

from __future__ import annotations

import math
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from ratings.simulation import RatingRules, fibs_truth, race_truth, simulate

SMALL = {"players": 40, "matches": 3000, "seed": 1}


def test_the_same_seed_gives_the_same_figures_and_another_seed_others():
    first = simulate(**SMALL)
    assert simulate(**SMALL) == first
    assert simulate(**{**SMALL, "seed": 2}) != first
    assert first.held_out == 750
    assert [rater.name for rater in first.raters] == ["today", "length-aware"]
    assert sorted(first.raters[0].log_loss_by_length) == [1, 3, 5, 7, 11, 17]


@pytest.mark.parametrize("truth", ["fibs", "race"])
def test_the_length_aware_rating_predicts_better(truth):
    result = simulate(**SMALL, truth=truth)
    today, length_aware = result.raters
    assert result.truth_log_loss < length_aware.log_loss < today.log_loss < math.log(2)
    # Today's rating is sure of itself in 1-point matches, where luck rules.
    assert length_aware.log_loss_by_length[1] < today.log_loss_by_length[1]
    assert length_aware.correlation > today.correlation > 0.8


def test_at_a_single_length_equal_to_the_reference_the_two_raters_agree():
    result = simulate(**SMALL, lengths=[5])
    today, length_aware = result.raters
    assert today.log_loss == length_aware.log_loss
    assert today.rmse == length_aware.rmse


def test_the_rules_are_the_ones_given():
    looser = simulate(**SMALL, rules=RatingRules(min_deviation=90))
    assert looser != simulate(**SMALL)


@given(st.floats(min_value=-1500, max_value=1500), st.sampled_from([1, 3, 5, 7, 11, 17, 25]))
def test_each_truth_gives_the_two_players_chances_that_add_up_to_one(difference, length):
    for truth in (fibs_truth, race_truth):
        assert truth(difference, length) + truth(-difference, length) == pytest.approx(1.0)
    assert race_truth(difference, 1) == pytest.approx(fibs_truth(difference, 1))


def test_the_race_favours_the_stronger_player_more_the_longer_it_is():
    chances = [race_truth(150, n) for n in (1, 3, 5, 7, 11, 17)]
    assert chances == sorted(chances) and chances[0] > 0.5


def test_the_command_prints_the_figures(db):
    out = StringIO()
    call_command(
        "rating_simulation", "--players", "40", "--matches", "3000", "--seed", "1", stdout=out
    )
    text = out.getvalue()
    for truth in ("fibs", "race"):
        result = simulate(**SMALL, truth=truth)
        assert f"truth: {truth}; 40 players, 3000 matches, seed 1" in text
        for rater in result.raters:
            assert f"{rater.log_loss:10.4f}{rater.rmse:8.1f}{rater.correlation:7.3f}" in text
        assert f"{result.truth_log_loss:10.4f}" in text


@pytest.mark.parametrize(
    "arguments", [["--lengths", "0", "3"], ["--players", "1"], ["--reference-length", "0"]]
)
def test_the_command_refuses_impossible_settings(db, arguments):
    with pytest.raises(CommandError):
        call_command("rating_simulation", "--matches", "10", *arguments, stdout=StringIO())
