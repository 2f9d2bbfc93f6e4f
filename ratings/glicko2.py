"""Glicko-2, exactly as in Mark Glickman's "Example of the Glicko-2 system" (steps 1 to 8),
with each result weighted by its match's length (docs/ratings.md).

A match of length n is rated as one game in which the two players' difference in strength is
magnified by the match's length factor s = sqrt(n / n_ref), as FIBS's formula magnifies it:
the factor multiplies the opponent's uncertainty inside g, and g itself, in the expected score,
the variance and the improvement (steps 3 and 4). A factor of 1 is Glickman's update exactly.

Pure Python, standard library only. Ratings, deviations and the opponents' values are given
and returned on the Glicko scale (a new player is 1500, deviation 350); the computation runs
on the Glicko-2 scale, a factor of 173.7178 smaller, as the paper does.

The paper's worked example gives 1464.06, 151.52 and 0.05999. The paper converts back from
intermediate values it has rounded to four places (mu' = -0.2069, phi' = 0.8722) and cuts the
volatility short; without rounding the same steps give 1464.0507, 151.5165 and 0.0599960,
within the last published digit of each:

>>> rating, deviation, volatility = rate(
...     1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)], tau=0.5
... )
>>> round((rating - CENTRE) / SCALE, 4), round(deviation / SCALE, 4)
(-0.2069, 0.8722)
>>> abs(rating - 1464.06) < 0.01, abs(deviation - 151.52) < 0.01, abs(volatility - 0.05999) < 1e-5
(True, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Between the Glicko and Glicko-2 scales (step 2 of the paper): 400 / ln(10).
SCALE = 173.7178
#: The Glicko rating that is 0 on the Glicko-2 scale.
CENTRE = 1500.0
#: The convergence tolerance of the volatility iteration (step 5 of the paper).
EPSILON = 0.000001

#: (opponent's rating, opponent's deviation, score), the score 1 for a win, 0.5 a draw, 0 a
#: loss; optionally followed by the match's length factor (``length_factor``), 1 if left out.
Result = tuple[float, float, float] | tuple[float, float, float, float]


def rate(
    rating: float,
    deviation: float,
    volatility: float,
    results: Sequence[Result],
    tau: float = 0.5,
) -> tuple[float, float, float]:
    """A player's (rating, deviation, volatility) after one rating period of ``results``.

    With no results the player only grows less certain: the deviation widens by the
    volatility (step 6 alone) and the rating and volatility stay.

    >>> rate(1500, 200, 0.06, [])[0], round(rate(1500, 200, 0.06, [])[1], 3)
    (1500, 200.271)
    """
    if deviation <= 0 or volatility <= 0 or tau <= 0:
        raise ValueError("deviation, volatility and tau are positive")
    if not results:
        return rating, widened(deviation, volatility), volatility
    # Step 2: to the Glicko-2 scale.
    mu = (rating - CENTRE) / SCALE
    phi = deviation / SCALE

    opponents = [
        (
            _weighted_g(opponent_deviation / SCALE, factor),
            (opponent_rating - CENTRE) / SCALE,
            _score(score),
        )
        for opponent_rating, opponent_deviation, score, factor in map(_with_factor, results)
    ]
    # E and 1 - E, each computed on its own: in a long match between far-apart players E can
    # round to 1, and 1 - E computed from it to 0.
    chances = [(_expected(mu, mu_j, g_j), _expected(mu_j, mu, g_j)) for g_j, mu_j, _ in opponents]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    variance = 1.0 / sum(
        g_j * g_j * e_j * f_j for (g_j, _, _), (e_j, f_j) in zip(opponents, chances, strict=True)
    )
    # Step 4: the estimated improvement in rating (s - E, written as s (1 - E) - (1 - s) E).
    improvement_sum = sum(
        g_j * (s_j * f_j - (1.0 - s_j) * e_j)
        for (g_j, _, s_j), (e_j, f_j) in zip(opponents, chances, strict=True)
    )
    delta = variance * improvement_sum
    # Step 5: the new volatility.
    new_volatility = _volatility(phi, volatility, variance, delta, tau)
    # Step 6: the pre-rating-period deviation.
    phi_star = math.sqrt(phi * phi + new_volatility * new_volatility)
    # Step 7: the new deviation and rating.
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / variance)
    new_mu = mu + new_phi * new_phi * improvement_sum
    # Step 8: back to the Glicko scale.
    return SCALE * new_mu + CENTRE, SCALE * new_phi, new_volatility


def widened(deviation: float, volatility: float, periods: int = 1) -> float:
    """The deviation after ``periods`` rating periods without a game (step 6, repeated).

    Each period adds the volatility's square to the deviation's square on the Glicko-2 scale,
    so ``periods`` of them add it ``periods`` times.

    >>> round(widened(200, 0.06, 0), 6), round(widened(200, 0.06, 2), 3)
    (200.0, 200.542)
    """
    if periods < 0:
        raise ValueError("a number of periods is not negative")
    phi = deviation / SCALE
    return SCALE * math.sqrt(phi * phi + periods * volatility * volatility)


def length_factor(match_length: int, reference_length: float) -> float:
    """How much a ``match_length``-point match magnifies a difference in strength, relative to
    a match of ``reference_length`` points: sqrt(n / n_ref), from FIBS's sqrt(n).

    >>> length_factor(5, 5), round(length_factor(1, 5), 4), round(length_factor(20, 5), 4)
    (1.0, 0.4472, 2.0)
    """
    if match_length < 1 or reference_length <= 0:
        raise ValueError("a match is at least 1 point long, and the reference length positive")
    return math.sqrt(match_length / reference_length)


def win_probability(
    rating: float,
    deviation: float,
    opponent_rating: float,
    opponent_deviation: float,
    factor: float = 1.0,
) -> float:
    """The chance that the first player wins a match of length factor ``factor``, before it is
    played: the expected score with both players' uncertainty combined, as Glickman predicts a
    game between two rated players.

    >>> win_probability(1500, 80, 1500, 300)
    0.5
    >>> round(win_probability(1700, 50, 1500, 50), 3)
    0.755
    >>> round(win_probability(1700, 50, 1500, 50, factor=2), 3)
    0.891
    """
    combined = math.sqrt(deviation * deviation + opponent_deviation * opponent_deviation)
    discount = _weighted_g(combined / SCALE, _factor(factor))
    return _expected((rating - CENTRE) / SCALE, (opponent_rating - CENTRE) / SCALE, discount)


def _with_factor(result: Result) -> tuple[float, float, float, float]:
    if len(result) == 3:
        return (*result, 1.0)
    opponent_rating, opponent_deviation, score, factor = result
    return opponent_rating, opponent_deviation, score, _factor(factor)


def _factor(factor: float) -> float:
    if not factor > 0:
        raise ValueError(f"a length factor is positive, not {factor!r}")
    return float(factor)


def _weighted_g(phi: float, factor: float) -> float:
    """g for a match whose strength difference is magnified by ``factor``: s * g(s * phi).

    The opponent's true strength is uncertain by phi; magnified by s, the difference is
    uncertain by s * phi, and Glickman's approximation of the averaged logistic then gives
    s * g(s * phi) as the slope. With s = 1 this is g itself, to the last bit.
    """
    return factor * _g(factor * phi)


def _g(phi: float) -> float:
    """How much an opponent's own uncertainty discounts a result against them (step 3)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, opponent_mu: float, g_opponent: float) -> float:
    """The expected score against the opponent (step 3)."""
    return 1.0 / (1.0 + math.exp(-g_opponent * (mu - opponent_mu)))


def _score(score: float) -> float:
    if not 0 <= score <= 1:
        raise ValueError(f"a score is between 0 and 1, not {score!r}")
    return float(score)


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (a regula falsi variant)."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    delta2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        denominator = 2.0 * (phi2 + variance + ex) ** 2
        return ex * (delta2 - phi2 - variance - ex) / denominator - (x - a) / (tau * tau)

    # Step 5.2: bracket the root.
    big_a = a
    if delta2 > phi2 + variance:
        big_b = math.log(delta2 - phi2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    # Steps 5.3 and 5.4: narrow the bracket until it is within epsilon.
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    # Step 5.5.
    return math.exp(big_a / 2.0)
