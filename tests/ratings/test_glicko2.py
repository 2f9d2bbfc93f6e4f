"""Glicko-2 (ratings/glicko2.py): Glickman's worked example, and properties of any update."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import glicko2
from ratings.glicko2 import CENTRE, SCALE, length_factor, rate, widened, win_probability

PAPER_RESULTS = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_the_papers_example_to_its_published_precision():
    """1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300: 1464.06 / 151.52 / 0.05999.

    The paper converts back from mu' = -0.2069 and phi' = 0.8722, rounded to four places, and
    prints sigma' cut to five: those are exactly our values at that precision.
    """
    rating, deviation, volatility = rate(1500, 200, 0.06, PAPER_RESULTS, tau=0.5)
    assert round((rating - CENTRE) / SCALE, 4) == -0.2069
    assert round(deviation / SCALE, 4) == 0.8722
    assert math.floor(volatility * 100_000) / 100_000 == 0.05999
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=0.00001)


def test_the_papers_intermediate_steps():
    """Step 3's g and E for the three opponents, as the paper prints them, and step 5's new
    volatility from the paper's own v = 1.7785 and delta = -0.4834 (with phi = 1.1513)."""
    discounts = [glicko2._g(d / SCALE) for _, d, _ in PAPER_RESULTS]
    expected = [
        glicko2._expected(0.0, (r - CENTRE) / SCALE, g)
        for (r, _, _), g in zip(PAPER_RESULTS, discounts, strict=True)
    ]
    assert [round(g, 4) for g in discounts] == [0.9955, 0.9531, 0.7242]
    assert [round(e, 3) for e in expected] == [0.639, 0.432, 0.303]
    new_volatility = glicko2._volatility(1.1513, 0.06, 1.7785, -0.4834, 0.5)
    assert math.floor(new_volatility * 100_000) / 100_000 == 0.05999


def test_no_games_only_widens_the_deviation():
    """Step 6 alone, as in the paper: phi* = sqrt(1.1513^2 + 0.05999^2) = 1.152862 (the paper
    rounds phi = 200 / 173.7178 to 1.1513 first); the rating and volatility stay."""
    rating, deviation, volatility = rate(1500, 200, 0.05999, [])
    assert (rating, volatility) == (1500, 0.05999)
    assert deviation / SCALE == pytest.approx(1.152862, abs=1e-5)
    assert deviation == pytest.approx(200.27, abs=0.01)


def test_widening_by_several_periods_is_step_6_repeated():
    deviation = 60.0
    for _ in range(5):
        deviation = rate(1500, deviation, 0.06, [])[1]
    assert widened(60, 0.06, 5) == pytest.approx(deviation)
    assert widened(60, 0.06, 0) == pytest.approx(60)


@pytest.mark.parametrize(
    "arguments",
    [
        (1500, 0, 0.06, []),
        (1500, 200, 0, []),
        (1500, 200, 0.06, [(1500, 200, 2)]),
        (1500, 200, 0.06, [(1500, 200, -1)]),
        (1500, 200, 0.06, [(1500, 200, 1, 0)]),
        (1500, 200, 0.06, [(1500, 200, 1, -1)]),
    ],
)
def test_impossible_inputs_are_refused(arguments):
    with pytest.raises(ValueError):
        rate(*arguments)


def test_a_draw_between_equals_moves_no_rating():
    rating, deviation, _ = rate(1500, 200, 0.06, [(1500, 200, 0.5)])
    assert rating == pytest.approx(1500)
    assert deviation < 200


# --- Properties --------------------------------------------------------------------------------

ratings_ = st.floats(min_value=500, max_value=2800)
deviations = st.floats(min_value=30, max_value=350)
volatilities = st.floats(min_value=0.01, max_value=0.2)
taus = st.floats(min_value=0.2, max_value=1.2)
scores = st.sampled_from([0, 0.5, 1])
factors = st.floats(min_value=0.2, max_value=4.0)
results = st.lists(
    st.one_of(
        st.tuples(ratings_, deviations, scores), st.tuples(ratings_, deviations, scores, factors)
    ),
    min_size=0,
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(ratings_, deviations, volatilities, ratings_, deviations, taus, factors)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(r, d, v, opp_r, opp_d, tau, factor):
    assert rate(r, d, v, [(opp_r, opp_d, 1, factor)], tau=tau)[0] >= r
    assert rate(r, d, v, [(opp_r, opp_d, 0, factor)], tau=tau)[0] <= r


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(ratings_, deviations, volatilities, results, taus)
def test_volatility_stays_positive_and_every_value_finite(r, d, v, games, tau):
    new_r, new_d, new_v = rate(r, d, v, games, tau=tau)
    assert new_v > 0
    assert all(math.isfinite(x) for x in (new_r, new_d, new_v))
    assert new_d > 0


@settings(max_examples=300, deadline=None)
@given(
    ratings_,
    deviations,
    volatilities,
    results.filter(bool),
    taus,
)
def test_games_never_leave_a_deviation_above_the_widened_one(r, d, v, games, tau):
    """Results only add information: the deviation ends at most where step 6 put it."""
    new_r, new_d, new_v = rate(r, d, v, games, tau=tau)
    assert new_d <= SCALE * math.sqrt((d / SCALE) ** 2 + new_v**2) + 1e-9


@settings(max_examples=300, deadline=None)
@given(
    deviations.filter(lambda d: d >= 110),
    st.floats(min_value=0.03, max_value=0.08),
    st.floats(min_value=-400, max_value=400),
    deviations,
    scores,
)
def test_a_rated_match_shrinks_a_provisional_deviation(d, v, difference, opp_d, score):
    """Above the provisional threshold, one match's information outweighs the volatility.

    (Near the floor it need not: with one result per period a deviation settles where the two
    balance, about 60 at volatility 0.06, as in Glicko-2 proper.)
    """
    assert rate(1500, d, v, [(1500 + difference, opp_d, score)], tau=0.5)[1] < d


@settings(max_examples=300, deadline=None)
@given(ratings_, ratings_, deviations, volatilities, taus)
def test_both_sides_of_a_match_between_equally_certain_players_mirror_each_other(
    r_a, r_b, d, v, tau
):
    """A's win over B is B's loss to A: the gain is the loss, the new deviations and
    volatilities agree."""
    a = rate(r_a, d, v, [(r_b, d, 1)], tau=tau)
    b = rate(r_b, d, v, [(r_a, d, 0)], tau=tau)
    assert a[0] - r_a == pytest.approx(r_b - b[0], rel=1e-9, abs=1e-9)
    assert a[1] == pytest.approx(b[1], rel=1e-9)
    assert a[2] == pytest.approx(b[2], rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(ratings_, deviations, volatilities, ratings_, deviations, scores, taus)
def test_any_match_moves_the_two_ratings_in_opposite_directions(
    r_a, d_a, v_a, r_b, d_b, score, tau
):
    a = rate(r_a, d_a, v_a, [(r_b, d_b, score)], tau=tau)[0] - r_a
    b = rate(r_b, d_b, v_a, [(r_a, d_a, 1 - score)], tau=tau)[0] - r_b
    assert a * b <= 1e-12


@pytest.mark.parametrize("module", ["ratings.glicko2", "ratings.today", "ratings.simulation"])
def test_the_examples_in_the_docstrings(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0
    assert result.failed == 0


# --- Match length ------------------------------------------------------------------------------


def test_the_length_factor_is_the_square_root_of_the_length_over_the_reference():
    assert length_factor(5, 5) == 1.0
    assert length_factor(1, 5) == pytest.approx(math.sqrt(0.2))
    assert length_factor(20, 5) == pytest.approx(2.0)
    assert length_factor(25, 25) == 1.0
    for impossible in [(0, 5), (-3, 5), (5, 0)]:
        with pytest.raises(ValueError):
            length_factor(*impossible)


@settings(max_examples=200, deadline=None)
@given(ratings_, deviations, volatilities, st.lists(st.tuples(ratings_, deviations, scores)))
def test_a_match_of_the_reference_length_is_glickos_update_exactly(r, d, v, games):
    """A factor of 1 (a match of the reference length) changes nothing, to the last bit."""
    at_reference = [(*game, length_factor(5, 5)) for game in games]
    assert rate(r, d, v, at_reference) == rate(r, d, v, games)


@settings(max_examples=200, deadline=None)
@given(
    ratings_,
    st.floats(min_value=40, max_value=300),
    ratings_,
    st.floats(min_value=40, max_value=300),
    scores,
    st.floats(min_value=0.3, max_value=3.0),
)
def test_a_match_is_one_game_on_a_scale_magnified_by_its_length_factor(
    r, d, opp_r, opp_d, score, factor
):
    """The model the update is derived from: a match of factor s is one ordinary game between
    players whose ratings, and uncertainties, are s times as far apart.

    Rating that game with Glickman's update and shrinking the result back by s gives the
    length-aware update. (The volatility is not magnified, so it is held all but still here.)
    """

    def magnified(value: float) -> float:
        return CENTRE + factor * (value - CENTRE)

    still = {"tau": 1e-4}
    weighted = rate(r, d, 1e-5, [(opp_r, opp_d, score, factor)], **still)
    game = rate(
        magnified(r), factor * d, 1e-5, [(magnified(opp_r), factor * opp_d, score)], **still
    )
    assert weighted[0] == pytest.approx(CENTRE + (game[0] - CENTRE) / factor, abs=1e-6)
    assert weighted[1] == pytest.approx(game[1] / factor, rel=1e-6)


def gain(deviation: float, opponent_deviation: float, match_length: int) -> float:
    """What a win against an equally rated opponent adds to a rating of 1500."""
    factor = length_factor(match_length, 5)
    return rate(1500, deviation, 0.06, [(1500, opponent_deviation, 1, factor)])[0] - 1500


def deviation_after(deviation: float, opponent_deviation: float, match_length: int) -> float:
    factor = length_factor(match_length, 5)
    return rate(1500, deviation, 0.06, [(1500, opponent_deviation, 1, factor)])[1]


LENGTHS = [1, 3, 5, 7, 11, 17, 25]


@pytest.mark.parametrize(("deviation", "opponent_deviation"), [(60, 60), (100, 100), (350, 350)])
def test_between_equals_a_longer_match_moves_a_rating_more_and_makes_it_surer(
    deviation, opponent_deviation
):
    """Between equals a win gains phi'^2 G / 2 with G = s g(s phi_opponent) and
    1 / phi'^2 = 1 / phi*^2 + G^2 / 4: the gain grows with G while G < 2 / phi*, which
    holds for established players at any length and for two newcomers too (G never passes
    pi / (sqrt(3) phi_opponent))."""
    gains = [gain(deviation, opponent_deviation, n) for n in LENGTHS]
    deviations_after = [deviation_after(deviation, opponent_deviation, n) for n in LENGTHS]
    assert gains == sorted(gains) and len(set(gains)) == len(gains)
    assert deviations_after == sorted(deviations_after, reverse=True)
    assert len(set(deviations_after)) == len(deviations_after)


def test_an_established_players_one_point_win_counts_for_less_than_a_seventeen_point_one():
    assert gain(60, 60, 1) < gain(60, 60, 5) / 2 < gain(60, 60, 17) / 2


def test_a_long_match_against_a_sure_opponent_pins_an_unsure_rating_down():
    """Beyond G = 2 / phi* a longer match shrinks the deviation by more than it adds to the
    evidence, so a provisional player's win moves their rating less: the gain has a peak."""
    gains = {n: gain(200, 60, n) for n in LENGTHS}
    assert gains[1] < gains[5] < gains[11] < gains[17]
    assert gains[25] < gains[17]


def test_a_longer_match_gives_the_stronger_player_a_better_chance():
    chances = [win_probability(1700, 60, 1500, 60, length_factor(n, 5)) for n in LENGTHS]
    assert chances == sorted(chances) and len(set(chances)) == len(chances)
    assert chances[0] > 0.5
    assert win_probability(1600, 80, 1600, 200, length_factor(17, 5)) == 0.5


@settings(max_examples=200, deadline=None)
@given(ratings_, deviations, ratings_, deviations, factors)
def test_the_two_players_chances_add_up_to_one(r, d, opp_r, opp_d, factor):
    assert win_probability(r, d, opp_r, opp_d, factor) + win_probability(
        opp_r, opp_d, r, d, factor
    ) == pytest.approx(1.0)
