"""Glicko-2 (ratings/glicko2.py): Glickman's worked example, and properties of any update."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import glicko2
from ratings.glicko2 import CENTRE, SCALE, rate, widened

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
results = st.lists(st.tuples(ratings_, deviations, scores), min_size=0, max_size=12)


@settings(max_examples=300, deadline=None)
@given(ratings_, deviations, volatilities, ratings_, deviations, taus)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(r, d, v, opp_r, opp_d, tau):
    assert rate(r, d, v, [(opp_r, opp_d, 1)], tau=tau)[0] >= r
    assert rate(r, d, v, [(opp_r, opp_d, 0)], tau=tau)[0] <= r


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
    st.lists(st.tuples(ratings_, deviations, scores), min_size=1, max_size=12),
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
