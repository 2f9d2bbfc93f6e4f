"""The fair-play statistic (pure): how improbably few errors a player made, match after match.

Each analysed match gives, for one player, ``decisions`` (counted by the analysis) and
``errors`` (errors and blunders: a loss of at least 0.04). What the player was expected to err
is ``expected_rate``: the rating's rate (``rating_rate``) taken as ``PRIOR_DECISIONS``
decisions' worth of evidence, blended with the player's own earlier analysed decisions. The
match's score is the z of the errors it lacked,

    z = (n p - e) / sqrt(phi n p (1 - p) (1 + n / N))

positive when the player erred less than expected: the binomial spread of the errors, widened
by the spread of p itself (estimated from N decisions: the prior's and the player's own) and
by ``OVERDISPERSION`` phi (some matches hold more hard decisions than others). A one-sided
CUSUM sums the scores beyond a slack ``SLACK``: S = max(0, S_before + z - SLACK). One good
match is luck and is soon forgotten; a run of them builds S up, and S >= ``THRESHOLD`` opens a
case. The slack and the threshold were measured on the bots' own matches (``manage.py
fair_play_measure``, docs/fair-play.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The reference value k of the CUSUM: half the shift (in z per match) it is tuned to find.
SLACK = 0.75
#: The CUSUM's decision interval h: a case opens at S >= THRESHOLD.
THRESHOLD = 5.0
#: How many decisions' worth of evidence the rating's rate counts for beside the player's own.
PRIOR_DECISIONS = 100
#: The player's own history read: their last analysed matches, at most this many.
HISTORY_MATCHES = 50
#: The rate of errors expected of a rating: logistic in the rating, fitted on the bot levels
#: (docs/fair-play.md). 1500 is a new player's rating.
RATE_AT_1500 = 0.28
RATE_SLOPE_PER_400 = 1.66
#: How much more the errors of a match spread than a binomial's: the variance of z measured on
#: the bots' matches (1.56 for the Beginner, about 1.1 for the others; docs/fair-play.md).
OVERDISPERSION = 1.5
#: No expectation is trusted below or above these rates.
LOWEST_RATE = 0.01
HIGHEST_RATE = 0.6


@dataclass(frozen=True, slots=True)
class MatchErrors:
    """One player's decisions and errors in one analysed match."""

    decisions: int
    errors: int

    @property
    def rate(self) -> float:
        return self.errors / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match weighed against what was expected of the player: the expected rate, the
    match's z and the CUSUM after it."""

    expected_rate: float
    z: float
    statistic: float

    @property
    def crosses(self) -> bool:
        return self.statistic >= THRESHOLD


def rating_rate(rating: float) -> float:
    """The rate of errors a player of ``rating`` makes, as the bots' levels show it."""
    logit = math.log(RATE_AT_1500 / (1 - RATE_AT_1500))
    return _bounded(1 / (1 + math.exp(-(logit - RATE_SLOPE_PER_400 * (rating - 1500) / 400))))


def expected_rate(rating: float, history: list[MatchErrors]) -> float:
    """What the player is expected to err: the rating's rate as PRIOR_DECISIONS decisions,
    with the player's own last HISTORY_MATCHES analysed matches (oldest first)."""
    return _expectation(rating, history)[0]


def _expectation(rating: float, history: list[MatchErrors]) -> tuple[float, int]:
    """The expected rate and the number of decisions it stands on."""
    recent = history[-HISTORY_MATCHES:]
    decisions = sum(match.decisions for match in recent)
    errors = sum(match.errors for match in recent)
    weight = PRIOR_DECISIONS + decisions
    return _bounded((PRIOR_DECISIONS * rating_rate(rating) + errors) / weight), weight


def match_score(
    match: MatchErrors, *, rating: float, history: list[MatchErrors], statistic_before: float
) -> MatchScore:
    """The match weighed against the player's rating and ``history`` (their earlier matches,
    oldest first), and the CUSUM that ``statistic_before`` becomes."""
    rate, weight = _expectation(rating, history)
    if match.decisions == 0:
        return MatchScore(rate, 0.0, statistic_before)
    expected = match.decisions * rate
    spread = OVERDISPERSION * expected * (1 - rate) * (1 + match.decisions / weight)
    z = (expected - match.errors) / math.sqrt(spread)
    return MatchScore(rate, z, max(0.0, statistic_before + z - SLACK))


def _bounded(rate: float) -> float:
    return min(max(rate, LOWEST_RATE), HIGHEST_RATE)
