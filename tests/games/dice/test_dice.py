"""The derived dice are fair: chi-square tests of games.dice.rolls.roll over many derived rolls.

Both tests fail a fair die with probability 1e-6 each, so a failure means the dice are biased
(or dependent, for the pairs), not bad luck.
"""

import math
import secrets
from collections import Counter

import pytest

from games.dice.rolls import roll
from games.dice.statistics import chi_square_p_value

FACES = range(1, 7)
SINGLE_ROLLS = 300_000
PAIRS = 180_000
P_VALUE = 1e-6

# Upper 1e-6 quantiles of the chi-square distribution (p = 1e-6), computed by
# chi_square_critical below; the first test recomputes them:
#   5 degrees of freedom (six faces):            35.8882
#   35 degrees of freedom (36 ordered pairs):    89.9467
CRITICAL_5_DOF = 35.8882
CRITICAL_35_DOF = 89.9467


def chi_square_survival(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with an odd number of degrees of freedom.

    For odd dof the regularized upper gamma function has a closed form:
    Q = erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) * sum_{k=1}^{(dof-1)/2} x^(k-1) / (1*3*...*(2k-1)).
    """
    assert dof % 2 == 1
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range(1, (dof - 1) // 2 + 1):
        total += term
        term *= x / (2 * k + 1)
    return total


def chi_square_critical(p: float, dof: int) -> float:
    """The x with P(X >= x) = p, by bisection (the survival function decreases in x)."""
    low, high = 0.0, 1000.0
    for _ in range(200):
        middle = (low + high) / 2
        if chi_square_survival(middle, dof) > p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[cell] - expected) ** 2 / expected for cell in cells)


def test_the_critical_values_are_the_chi_square_quantiles():
    # The textbook 5% points check the survival function itself.
    assert math.isclose(chi_square_survival(11.0705, 5), 0.05, rel_tol=1e-4)
    assert math.isclose(chi_square_survival(49.8018, 35), 0.05, rel_tol=1e-4)
    assert math.isclose(chi_square_critical(P_VALUE, 5), CRITICAL_5_DOF, abs_tol=1e-3)
    assert math.isclose(chi_square_critical(P_VALUE, 35), CRITICAL_35_DOF, abs_tol=1e-3)


def derived_dice(count: int) -> list[int]:
    """``count`` dice from derived rolls: many matches' seeds, many roll indices each."""
    dice: list[int] = []
    while len(dice) < count:
        server_seed = secrets.token_bytes(32)
        seeds = (secrets.token_hex(8), secrets.token_hex(8))
        for index in range(1000):
            dice.extend(roll(server_seed, seeds, index))
    return dice[:count]


def test_the_statistics_page_p_values_match_the_closed_form():
    for dof in (1, 5, 35):
        for x in (0.5, 3.0, 11.07, 40.0, 89.9):
            expected = chi_square_survival(x, dof)
            assert math.isclose(chi_square_p_value(x, dof), expected, rel_tol=1e-9)


@pytest.mark.slow
def test_each_face_comes_up_equally_often():
    rolls = derived_dice(SINGLE_ROLLS)
    counts = Counter(rolls)

    assert set(counts) == set(FACES)
    statistic = chi_square(counts, list(FACES), SINGLE_ROLLS)
    assert statistic < CRITICAL_5_DOF, (statistic, sorted(counts.items()))


@pytest.mark.slow
def test_each_ordered_pair_of_two_dice_comes_up_equally_often():
    dice = derived_dice(2 * PAIRS)
    counts = Counter(zip(dice[0::2], dice[1::2], strict=True))
    cells = [(first, second) for first in FACES for second in FACES]

    assert set(counts) == set(cells)
    statistic = chi_square(counts, cells, PAIRS)
    assert statistic < CRITICAL_35_DOF, (statistic, sorted(counts.items()))
