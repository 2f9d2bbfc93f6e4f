"""Simulated players of known strength, rated by today's update and by the length-aware one.

Pure Python (standard library and ratings.glicko2): ``manage.py rating_simulation`` runs it
with the site's rating settings and prints the figures docs/ratings.md reports.

Each player has a true strength, in FIBS rating points. Pairs of players, drawn at random,
play matches of lengths drawn at random, and a ground truth decides who wins. Two raters follow
the same matches in order, each match one rating period for both players, as the service rates
a match when it ends: "today" weighs every match alike (length factor 1), "length-aware" weighs
an n-point match by sqrt(n / n_ref). Before each match each rater predicts the first player's
chance; the later matches (the held-out share) score those predictions by their log loss, and
at the end each rater's ratings are compared with the true strengths.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ratings import glicko2

#: The lengths played, each as likely as the others.
LENGTHS = (1, 3, 5, 7, 11, 17)

#: A ground truth: the chance that a player stronger by ``difference`` FIBS points wins an
#: ``n``-point match.
Truth = Callable[[float, int], float]


def fibs_truth(difference: float, match_length: int) -> float:
    """FIBS's own model: 1 / (1 + 10^(-D sqrt(n) / 2000)).

    >>> fibs_truth(0, 7), round(fibs_truth(200, 1), 4), round(fibs_truth(200, 9), 4)
    (0.5, 0.5573, 0.6661)
    """
    return 1.0 / (1.0 + math.pow(10.0, -difference * math.sqrt(match_length) / 2000.0))


def race_truth(difference: float, match_length: int) -> float:
    """A match as a race to n won games, each game won with FIBS's 1-point chance p: the
    chance of n wins before n losses, sum over k < n of C(n - 1 + k, k) p^n (1 - p)^k.

    Gammons and the cube are left out, so it is not backgammon either; it differs from FIBS's
    sqrt(n) in shape (it grows about as 2 sqrt(n / pi)), which is what makes it a check.

    >>> race_truth(0, 5), round(race_truth(200, 1), 4), round(race_truth(200, 9), 4)
    (0.5, 0.5573, 0.6848)
    """
    p = fibs_truth(difference, 1)
    n = match_length
    return sum(math.comb(n - 1 + k, k) * p**n * (1.0 - p) ** k for k in range(n))


TRUTHS: dict[str, Truth] = {"fibs": fibs_truth, "race": race_truth}


@dataclass(frozen=True)
class RatingRules:
    """The rating settings a simulation rates with (the site's RATINGS)."""

    reference_length: float = 5
    tau: float = 0.5
    new_rating: float = 1500.0
    new_deviation: float = 350.0
    new_volatility: float = 0.06
    min_deviation: float = 45.0
    max_deviation: float = 350.0


@dataclass(frozen=True)
class RaterFigures:
    """How well one rater did: log loss of its predictions on the held-out matches (overall and
    by match length), and its final ratings against the true strengths."""

    name: str
    log_loss: float
    log_loss_by_length: dict[int, float]
    rmse: float
    correlation: float


@dataclass(frozen=True)
class Simulation:
    truth: str
    players: int
    matches: int
    held_out: int
    seed: int
    #: The log loss of the true chances on the held-out matches: no rater can beat it on average.
    truth_log_loss: float
    raters: tuple[RaterFigures, ...]


@dataclass
class _Player:
    rating: float
    deviation: float
    volatility: float


class GlickoRater:
    """One Glicko-2 rating of every player (by index), updated match by match as
    ratings.services does: weighing every match alike, or by its length."""

    def __init__(self, name: str, rules: RatingRules, players: int, *, by_length: bool) -> None:
        self.name = name
        self.rules = rules
        self.by_length = by_length
        self.players = [
            _Player(rules.new_rating, rules.new_deviation, rules.new_volatility)
            for _ in range(players)
        ]

    def factor(self, match_length: int) -> float:
        if not self.by_length:
            return 1.0
        return glicko2.length_factor(match_length, self.rules.reference_length)

    def chance(self, first: int, second: int, match_length: int) -> float:
        one, other = self.players[first], self.players[second]
        return glicko2.win_probability(
            one.rating, one.deviation, other.rating, other.deviation, self.factor(match_length)
        )

    def rate(self, first: int, second: int, match_length: int, first_won: bool) -> None:
        factor = self.factor(match_length)
        before = {index: self.players[index] for index in (first, second)}
        for index, opponent, score in ((first, second, first_won), (second, first, not first_won)):
            mine, theirs = before[index], before[opponent]
            rating, deviation, volatility = glicko2.rate(
                mine.rating,
                mine.deviation,
                mine.volatility,
                [(theirs.rating, theirs.deviation, 1.0 if score else 0.0, factor)],
                tau=self.rules.tau,
            )
            deviation = min(max(deviation, self.rules.min_deviation), self.rules.max_deviation)
            self.players[index] = _Player(rating, deviation, volatility)


def simulate(
    *,
    players: int = 200,
    matches: int = 20_000,
    seed: int = 1,
    truth: str = "fibs",
    spread: float = 300.0,
    held_out_share: float = 0.25,
    lengths: Sequence[int] = LENGTHS,
    rules: RatingRules | None = None,
) -> Simulation:
    """Play ``matches`` random matches between ``players`` players whose true strengths are
    drawn from N(1500, ``spread``) FIBS points, decided by ``truth`` ("fibs" or "race"), and
    rate them with today's update and the length-aware one. Same ``seed``, same figures."""
    if players < 2 or matches < 1 or not 0 < held_out_share <= 1:
        raise ValueError("at least two players, one match, and a held-out share in (0, 1]")
    rules = rules or RatingRules()
    chance_of = TRUTHS[truth]
    dice = random.Random(seed)
    strengths = [dice.gauss(1500.0, spread) for _ in range(players)]
    raters = (
        GlickoRater("today", rules, players, by_length=False),
        GlickoRater("length-aware", rules, players, by_length=True),
    )
    first_scored = matches - max(1, round(matches * held_out_share))
    losses: dict[str, dict[int, list[float]]] = {rater.name: {} for rater in raters}
    truth_losses: list[float] = []
    for number in range(matches):
        first, second = dice.sample(range(players), 2)
        match_length = dice.choice(lengths)
        true_chance = chance_of(strengths[first] - strengths[second], match_length)
        first_won = dice.random() < true_chance
        if number >= first_scored:
            truth_losses.append(prediction_loss(true_chance, first_won))
        for rater in raters:
            if number >= first_scored:
                predicted = rater.chance(first, second, match_length)
                losses[rater.name].setdefault(match_length, []).append(
                    prediction_loss(predicted, first_won)
                )
            rater.rate(first, second, match_length, first_won)
    on_scale = [_on_rating_scale(strength, rules) for strength in strengths]
    return Simulation(
        truth=truth,
        players=players,
        matches=matches,
        held_out=matches - first_scored,
        seed=seed,
        truth_log_loss=mean(truth_losses),
        raters=tuple(
            RaterFigures(
                name=rater.name,
                log_loss=mean([x for by_length in losses[rater.name].values() for x in by_length]),
                log_loss_by_length={
                    length: mean(values) for length, values in sorted(losses[rater.name].items())
                },
                rmse=_centred_rmse([player.rating for player in rater.players], on_scale),
                correlation=_correlation([player.rating for player in rater.players], on_scale),
            )
            for rater in raters
        ),
    )


def _on_rating_scale(fibs_strength: float, rules: RatingRules) -> float:
    """A FIBS strength on the length-aware rating's scale: there a difference d gives an n-point
    match 1 / (1 + 10^(-d sqrt(n / n_ref) / 400)), FIBS's chance when d = D sqrt(n_ref) / 5."""
    return rules.new_rating + (fibs_strength - 1500.0) * math.sqrt(rules.reference_length) / 5.0


def prediction_loss(chance: float, won: bool) -> float:
    """The log loss of one prediction: -ln(the chance it gave to what happened)."""
    return -math.log(chance if won else 1.0 - chance)


def mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values)


def _centred_rmse(ratings: Sequence[float], truths: Sequence[float]) -> float:
    """Ratings are relative: both sides are centred on their own mean before they are compared."""
    rating_mean, truth_mean = mean(ratings), mean(truths)
    return math.sqrt(
        mean(
            [
                ((r - rating_mean) - (t - truth_mean)) ** 2
                for r, t in zip(ratings, truths, strict=True)
            ]
        )
    )


def _correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    x_mean, y_mean = mean(xs), mean(ys)
    covariance = math.fsum((x - x_mean) * (y - y_mean) for x, y in zip(xs, ys, strict=True))
    x_spread = math.sqrt(math.fsum((x - x_mean) ** 2 for x in xs))
    y_spread = math.sqrt(math.fsum((y - y_mean) ** 2 for y in ys))
    return covariance / (x_spread * y_spread)
