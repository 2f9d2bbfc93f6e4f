"""manage.py rating_engine_score FILE: plain Glicko-2, the length-aware Glicko-2 and FIBS's
formula scored on matches the engine played (ratings/engine_play.py; the table in
docs/ratings.md)."""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.engine_play import (
    RATER_NAMES,
    EngineScores,
    fitted_shapes,
    paired_difference,
    read_matches,
    reordered,
    score,
)
from ratings.simulation import RatingRules


class Command(BaseCommand):
    help = (
        "Fit plain Glicko-2, the length-aware Glicko-2 and FIBS's formula on the first part of "
        "the matches in FILE (written by rating_engine_data) and print their log loss and "
        "Brier score on the rest, by match length, and their final ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the CSV written by rating_engine_data")
        parser.add_argument(
            "--held-out", type=float, default=0.5, help="share of the last matches scored"
        )
        parser.add_argument(
            "--frozen",
            action="store_true",
            help="stop rating after the first part (default: go on learning, as the site does)",
        )
        parser.add_argument(
            "--orders",
            type=int,
            default=0,
            help="also score so many random orders of the same matches (the order's luck)",
        )
        parser.add_argument("--seed", type=int, default=1, help="seed of the random orders")
        parser.add_argument(
            "--shapes",
            action="store_true",
            help="also fit P = logistic((x1 - x2) (n / 5)^a) for a few exponents a",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with options["file"].open(newline="") as file:
                matches = read_matches(file)
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error.strerror}.") from None
        except ValueError as error:
            raise CommandError(f"{options['file']}: {error}.") from None
        limits = settings.RATINGS
        rules = RatingRules(
            reference_length=limits["REFERENCE_MATCH_LENGTH"],
            tau=limits["TAU"],
            new_rating=limits["NEW_RATING"],
            new_deviation=limits["NEW_DEVIATION"],
            new_volatility=limits["NEW_VOLATILITY"],
            min_deviation=limits["MIN_DEVIATION"],
            max_deviation=limits["MAX_DEVIATION"],
        )
        choices = {
            "rules": rules,
            "held_out_share": options["held_out"],
            "frozen": options["frozen"],
        }
        try:
            result = score(matches, **choices)
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(_report(result))
        if options["orders"] > 0:
            losses = reordered(matches, options["orders"], options["seed"], **choices)
            self.stdout.write(_orders_report(losses))
        if options["shapes"]:
            self.stdout.write(
                _shapes_report(fitted_shapes(matches, held_out_share=options["held_out"]))
            )


def _report(result: EngineScores) -> str:
    lengths = list(result.raters[0].by_length)
    counts = result.raters[0].by_length
    how = "frozen after the first part" if result.frozen else "learning on"
    lines = [
        f"{result.matches} matches; scored on the last {result.scored} ({how}); coin toss "
        f"{math.log(2):.4f}",
        f"{'':<30}log loss by match length (scored matches)",
        f"{'rater':<14}{'log loss':>9}{'Brier':>8}"
        + "".join(f"{f'n={length}':>8}" for length in lengths),
        f"{'':<31}" + "".join(f"{f'({counts[length][1]})':>8}" for length in lengths),
    ]
    for rater in result.raters:
        by_length = "".join(f"{rater.by_length[length][0]:8.4f}" for length in lengths)
        lines.append(f"{rater.name:<14}{rater.log_loss:9.4f}{rater.brier:8.4f}{by_length}")
    best = min(result.raters, key=lambda rater: rater.log_loss)
    for rater in result.raters:
        if rater is not best:
            difference, error = paired_difference(rater, best)
            lines.append(
                f"{rater.name} - {best.name}: {difference:+.4f} log loss (standard error "
                f"{error:.4f})"
            )
    players = sorted(result.raters[0].ratings, key=lambda name: result.raters[0].ratings[name])
    lines.append("final ratings: " + f"{'':<1}" + "".join(f"{name:>13}" for name in players))
    for rater in result.raters:
        lines.append(
            f"{rater.name:<15}" + "".join(f"{rater.ratings[name]:13.0f}" for name in players)
        )
    return "\n".join(lines) + "\n"


def _orders_report(losses: dict[str, list[float]]) -> str:
    orders = len(losses[RATER_NAMES[0]])
    best = [
        min(RATER_NAMES, key=lambda name, order=order: losses[name][order])
        for order in range(orders)
    ]
    lines = [f"in {orders} random orders of the same matches: mean log loss (SD), orders best"]
    for name in RATER_NAMES:
        spread = statistics.stdev(losses[name]) if orders > 1 else 0.0
        lines.append(
            f"{name:<14}{statistics.fmean(losses[name]):9.4f} ({spread:.4f}){best.count(name):6d}"
        )
    return "\n".join(lines) + "\n"


def _shapes_report(figures: dict[float, tuple[float, float]]) -> str:
    lines = [
        "strengths fitted by maximum likelihood, P = logistic((x1 - x2) (n / 5)^a):",
        f"{'a':>5}{'held-out log loss':>19}{'log likelihood per match, all':>31}",
    ]
    for exponent, (held_out, in_sample) in figures.items():
        lines.append(f"{exponent:5.2f}{held_out:19.4f}{in_sample:31.4f}")
    return "\n".join(lines) + "\n"
