"""The raters scored on matches the engine played: plain Glicko-2 (every match alike), the
length-aware Glicko-2 the site rates with, and FIBS's formula (``ratings.fibs``).

Pure Python: ``manage.py rating_engine_score`` reads the matches that ``manage.py
rating_engine_data`` wrote (bots of known strength playing whole matches of 1 to 17 points) and
prints the table docs/ratings.md reports. Each rater follows the matches in the order they
were played; the first part fits the ratings, and on the rest each rater predicts the first
player's chance before the match, scored by log loss and Brier score. The raters go on
learning from the scored matches, as the site's would (``frozen``: they stop at the first
part).
"""

from __future__ import annotations

import csv
import math
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ratings import fibs
from ratings.simulation import GlickoRater, RatingRules, mean

COLUMNS = ("number", "first", "second", "length", "winner")


@dataclass(frozen=True)
class PlayedMatch:
    first: str
    second: str
    length: int
    first_won: bool


def read_matches(lines: Iterable[str]) -> list[PlayedMatch]:
    """The matches of a CSV written by ``rating_engine_data``, in the order of their numbers.

    >>> read_matches(["number,first,second,length,winner,games", "0,club,expert,3,club,4"])
    [PlayedMatch(first='club', second='expert', length=3, first_won=True)]
    """
    rows = csv.DictReader(lines)
    missing = [column for column in COLUMNS if column not in (rows.fieldnames or [])]
    if missing:
        raise ValueError(f"the matches file has no column {', '.join(missing)}")
    numbered = []
    for line, row in enumerate(rows, start=2):
        try:
            number, length = int(row["number"]), int(row["length"])
        except ValueError:
            raise ValueError(f"line {line}: number and length are whole numbers") from None
        if length < 1:
            raise ValueError(f"line {line}: a match is at least 1 point long")
        if row["first"] == row["second"] or row["winner"] not in (row["first"], row["second"]):
            raise ValueError(f"line {line}: two players, and the winner one of them")
        numbered.append(
            (
                number,
                PlayedMatch(row["first"], row["second"], length, row["winner"] == row["first"]),
            )
        )
    if not numbered:
        raise ValueError("the matches file has no match")
    return [match for _, match in sorted(numbered, key=lambda pair: pair[0])]


class Rater(Protocol):
    name: str

    def chance(self, first: int, second: int, match_length: int) -> float: ...

    def rate(self, first: int, second: int, match_length: int, first_won: bool) -> None: ...


class FibsRater:
    """Every player's FIBS rating and experience (by index), updated match by match."""

    def __init__(self, players: int, name: str = "FIBS") -> None:
        self.name = name
        self.ratings = [fibs.NEW_RATING] * players
        self.experience = [fibs.NEW_EXPERIENCE] * players

    def chance(self, first: int, second: int, match_length: int) -> float:
        return fibs.win_probability(self.ratings[first], self.ratings[second], match_length)

    def rate(self, first: int, second: int, match_length: int, first_won: bool) -> None:
        before = self.ratings[first], self.ratings[second]
        for index, mine, theirs, won in (
            (first, before[0], before[1], first_won),
            (second, before[1], before[0], not first_won),
        ):
            self.ratings[index], self.experience[index] = fibs.rate(
                mine, self.experience[index], theirs, match_length, won=won
            )


@dataclass(frozen=True)
class RaterScore:
    name: str
    log_loss: float
    brier: float
    #: Length -> (log loss, scored matches of that length).
    by_length: dict[int, tuple[float, int]]
    #: Each player's rating after the last match, on the rater's own scale.
    ratings: dict[str, float]
    #: The log loss of each scored match, in order.
    losses: tuple[float, ...]


@dataclass(frozen=True)
class EngineScores:
    matches: int
    scored: int
    frozen: bool
    raters: tuple[RaterScore, ...]


RATER_NAMES = ("Glicko-2", "length-aware", "FIBS")


def raters(players: int, rules: RatingRules) -> tuple[Rater, ...]:
    """The three raters, named as ``RATER_NAMES``, each starting every player anew."""
    return (
        GlickoRater(RATER_NAMES[0], rules, players, by_length=False),
        GlickoRater(RATER_NAMES[1], rules, players, by_length=True),
        FibsRater(players, RATER_NAMES[2]),
    )


def score(
    matches: Sequence[PlayedMatch],
    *,
    rules: RatingRules | None = None,
    held_out_share: float = 0.5,
    frozen: bool = False,
) -> EngineScores:
    """Fit the three raters on the matches before the last ``held_out_share`` and score their
    predictions of the rest."""
    if not 0 < held_out_share < 1:
        raise ValueError("the held-out share is between 0 and 1")
    if len(matches) < 2:
        raise ValueError("at least two matches: one to fit on, one to score")
    rules = rules or RatingRules()
    names = sorted({name for match in matches for name in (match.first, match.second)})
    index = {name: number for number, name in enumerate(names)}
    followers = raters(len(names), rules)
    first_scored = len(matches) - max(1, round(len(matches) * held_out_share))
    results: dict[str, list[tuple[int, float, bool]]] = {rater.name: [] for rater in followers}
    for number, match in enumerate(matches):
        first, second = index[match.first], index[match.second]
        for rater in followers:
            if number >= first_scored:
                chance = rater.chance(first, second, match.length)
                results[rater.name].append((match.length, chance, match.first_won))
                if frozen:
                    continue
            rater.rate(first, second, match.length, match.first_won)
    return EngineScores(
        matches=len(matches),
        scored=len(matches) - first_scored,
        frozen=frozen,
        raters=tuple(_figures(rater, results[rater.name], names) for rater in followers),
    )


def paired_difference(one: RaterScore, other: RaterScore) -> tuple[float, float]:
    """``one``'s log loss minus ``other``'s on the same matches, with its standard error (the
    per-match differences' standard deviation over the square root of their number).

    >>> one = RaterScore("a", 0.5, 0.2, {}, {}, (0.4, 0.6, 0.5))
    >>> other = RaterScore("b", 0.6, 0.2, {}, {}, (0.5, 0.6, 0.7))
    >>> [round(x, 4) for x in paired_difference(one, other)]
    [-0.1, 0.0577]
    """
    differences = [a - b for a, b in zip(one.losses, other.losses, strict=True)]
    if len(differences) < 2:
        return mean(differences), math.inf
    return mean(differences), statistics.stdev(differences) / math.sqrt(len(differences))


def reordered(
    matches: Sequence[PlayedMatch], orders: int, seed: int, **options: object
) -> dict[str, list[float]]:
    """Each rater's log loss in ``orders`` random orders of the same matches (each match's
    players and length are drawn on their own, so any order is as likely as the played one):
    how much of a difference between the raters is the order's luck."""
    dice = random.Random(seed)
    losses: dict[str, list[float]] = {name: [] for name in RATER_NAMES}
    for _ in range(orders):
        shuffled = list(matches)
        dice.shuffle(shuffled)
        for rater in score(shuffled, **options).raters:  # type: ignore[arg-type]
            losses[rater.name].append(rater.log_loss)
    return losses


def _figures(rater: Rater, results: list[tuple[int, float, bool]], names: list[str]) -> RaterScore:
    by_length: dict[int, list[float]] = {}
    losses = tuple(_log_loss(chance, won) for _, chance, won in results)
    for (length, _, _), loss in zip(results, losses, strict=True):
        by_length.setdefault(length, []).append(loss)
    return RaterScore(
        name=rater.name,
        log_loss=mean([x for losses in by_length.values() for x in losses]),
        brier=mean([(chance - won) ** 2 for _, chance, won in results]),
        by_length={
            length: (mean(losses), len(losses)) for length, losses in sorted(by_length.items())
        },
        ratings={name: _rating(rater, number) for number, name in enumerate(names)},
        losses=losses,
    )


def _log_loss(chance: float, won: bool) -> float:
    """-ln(the chance given to what happened), never infinite: a rater certain of a result
    that did not happen pays ln(10^12)."""
    given = chance if won else 1.0 - chance
    return -math.log(max(given, 1e-12))


def _rating(rater: Rater, number: int) -> float:
    if isinstance(rater, FibsRater):
        return rater.ratings[number]
    assert isinstance(rater, GlickoRater)
    return rater.players[number].rating


#: The exponents of match length tried by ``fitted_shapes``: 0 is a model blind to length,
#: 0.5 FIBS's (and the length-aware rating's) square root.
SHAPES = (0.0, 0.25, 0.5, 0.75, 1.0)


def fitted_shapes(
    matches: Sequence[PlayedMatch],
    *,
    held_out_share: float = 0.5,
    exponents: Sequence[float] = SHAPES,
) -> dict[float, tuple[float, float]]:
    """For each exponent a, the model P = 1 / (1 + exp(-(x1 - x2) (n / 5)^a)) with one
    strength x per player fitted by maximum likelihood: (log loss on the held-out matches with
    the strengths fitted on the first part, log likelihood per match fitted on all of them).
    No update rule, no deviation: which shape of the length's effect the matches bear out."""
    first_scored = len(matches) - max(1, round(len(matches) * held_out_share))
    figures = {}
    for exponent in exponents:
        fitted = _fit_strengths(matches[:first_scored], exponent)
        held_out = [
            _log_loss(_shape_chance(fitted, match, exponent), match.first_won)
            for match in matches[first_scored:]
        ]
        everything = _fit_strengths(matches, exponent)
        in_sample = [
            _log_loss(_shape_chance(everything, match, exponent), match.first_won)
            for match in matches
        ]
        figures[exponent] = (mean(held_out), -mean(in_sample))
    return figures


def _shape_chance(strengths: dict[str, float], match: PlayedMatch, exponent: float) -> float:
    edge = (strengths.get(match.first, 0.0) - strengths.get(match.second, 0.0)) * (
        match.length / 5
    ) ** exponent
    return 1.0 / (1.0 + math.exp(-edge))


def _fit_strengths(
    matches: Sequence[PlayedMatch], exponent: float, *, steps: int = 3000
) -> dict[str, float]:
    """Maximum likelihood strengths by gradient ascent, with a weak normal prior (SD 3 on the
    logistic scale, about 520 Elo points) that keeps an unbeaten player's strength finite."""
    strengths = {name: 0.0 for match in matches for name in (match.first, match.second)}
    rate = 2.0 / len(matches)
    for _ in range(steps):
        slope = {name: -value / 9.0 for name, value in strengths.items()}
        for match in matches:
            weight = (match.length / 5) ** exponent
            surprise = match.first_won - _shape_chance(strengths, match, exponent)
            slope[match.first] += weight * surprise
            slope[match.second] -= weight * surprise
        for name in strengths:
            strengths[name] += rate * slope[name]
    return strengths
