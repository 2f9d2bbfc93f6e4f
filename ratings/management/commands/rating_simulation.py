"""manage.py rating_simulation: today's rating update against the length-aware one, on
simulated players of known strength (ratings/simulation.py; the figures in docs/ratings.md)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ratings.simulation import LENGTHS, TRUTHS, RatingRules, Simulation, simulate


class Command(BaseCommand):
    help = (
        "Rate random matches of mixed lengths between simulated players of known strength, "
        "with today's update and the length-aware one, and print each one's log loss on the "
        "held-out later matches and the RMSE of its ratings to the true strengths."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument("--matches", type=int, default=20_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--truth",
            choices=[*TRUTHS, "both"],
            default="both",
            help="who wins: FIBS's formula, a race to n won games, or each in turn (default)",
        )
        parser.add_argument(
            "--spread", type=float, default=300.0, help="SD of the true strengths, FIBS points"
        )
        parser.add_argument(
            "--held-out", type=float, default=0.25, help="share of the last matches scored"
        )
        parser.add_argument(
            "--reference-length",
            type=float,
            default=None,
            help="the length-aware rater's n_ref (default: RATINGS['REFERENCE_MATCH_LENGTH'])",
        )
        parser.add_argument(
            "--lengths",
            type=int,
            nargs="+",
            default=list(LENGTHS),
            help="match lengths, drawn alike",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if min(options["lengths"]) < 1:
            raise CommandError("A match is at least 1 point long.")
        limits = settings.RATINGS
        reference_length = options["reference_length"]
        if reference_length is None:
            reference_length = limits["REFERENCE_MATCH_LENGTH"]
        if reference_length <= 0:
            raise CommandError("The reference length is a positive number of points.")
        rules = RatingRules(
            reference_length=reference_length,
            tau=limits["TAU"],
            new_rating=limits["NEW_RATING"],
            new_deviation=limits["NEW_DEVIATION"],
            new_volatility=limits["NEW_VOLATILITY"],
            min_deviation=limits["MIN_DEVIATION"],
            max_deviation=limits["MAX_DEVIATION"],
        )
        truths = list(TRUTHS) if options["truth"] == "both" else [options["truth"]]
        for truth in truths:
            try:
                result = simulate(
                    players=options["players"],
                    matches=options["matches"],
                    seed=options["seed"],
                    truth=truth,
                    spread=options["spread"],
                    held_out_share=options["held_out"],
                    lengths=options["lengths"],
                    rules=rules,
                )
            except ValueError as error:
                raise CommandError(str(error)) from None
            self.stdout.write(_report(result, rules))


def _report(result: Simulation, rules: RatingRules) -> str:
    lengths = list(result.raters[0].log_loss_by_length)
    lines = [
        f"truth: {result.truth}; {result.players} players, {result.matches} matches, seed "
        f"{result.seed}; scored on the last {result.held_out}; reference length "
        f"{rules.reference_length:g}",
        f"{'':<39}log loss by match length",
        f"{'rater':<14}{'log loss':>10}{'RMSE':>8}{'corr':>7}"
        + "".join(f"{f'n={length}':>8}" for length in lengths),
    ]
    for rater in result.raters:
        by_length = "".join(f"{rater.log_loss_by_length[length]:8.4f}" for length in lengths)
        lines.append(
            f"{rater.name:<14}{rater.log_loss:10.4f}{rater.rmse:8.1f}{rater.correlation:7.3f}"
            f"{by_length}"
        )
    lines.append(f"{'truth':<14}{result.truth_log_loss:10.4f}")
    return "\n".join(lines) + "\n"
