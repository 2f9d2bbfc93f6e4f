"""manage.py bot_duel LEVEL_A LEVEL_B N [--variant V]: how much stronger one bot level is
than another, in any variant."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.computer.decisions import LEVELS_BY_NAME, level_named
from games.computer.duel import DuelResult, duel
from games.engine import MatchRules
from games.engine.variants import DEFAULT_MATCH_VARIANT, MATCH_VARIANTS


class Command(BaseCommand):
    help = (
        "Play N matches between two bot levels in process (the live bots' decisions, "
        "seeded dice, no database) and print LEVEL_A's points per game with a 95% "
        "confidence interval; the last line is `ppg: P ci95: LOW HIGH`."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        levels = ", ".join(LEVELS_BY_NAME)
        parser.add_argument("level_a", help=f"one of {levels}")
        parser.add_argument("level_b", help=f"one of {levels}")
        parser.add_argument("matches", type=int, help="how many matches to play")
        parser.add_argument("--length", type=int, default=3, help="match length (default 3)")
        parser.add_argument(
            "--variant",
            default=DEFAULT_MATCH_VARIANT,
            help=f"the match's variant: one of {', '.join(MATCH_VARIANTS)} (default backgammon)",
        )
        parser.add_argument("--seed", type=int, default=2026, help="seed of the dice and noise")
        parser.add_argument(
            "--every", type=int, default=0, help="print the running figures every so many matches"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            first, second = level_named(options["level_a"]), level_named(options["level_b"])
        except ValueError as error:
            raise CommandError(str(error)) from None
        if options["variant"] not in MATCH_VARIANTS:
            raise CommandError(
                f"There is no variant {options['variant']!r}; choose one of "
                f"{', '.join(MATCH_VARIANTS)}."
            )
        rules = MatchRules.of(options["variant"])
        if options["matches"] < 1:
            raise CommandError("N is a number of matches, at least 1.")
        every = options["every"]

        def progress(done: int, result: DuelResult) -> None:
            if every and done % every == 0 and done < options["matches"]:
                self.stdout.write(_line(result))
                self.stdout.flush()

        result = duel(
            first,
            second,
            options["matches"],
            match_length=options["length"],
            seed=options["seed"],
            rules=rules,
            progress=progress,
        )
        self.stdout.write(
            f"{first.label} against {second.label}, {rules.title}: {result.matches} matches to "
            f"{options['length']}, {result.games} games, {first.label} won "
            f"{result.matches_won} matches and {result.points:+d} points"
        )
        self.stdout.write(f"ppg: {result.ppg:.3f} ci95: {result.low:.3f} {result.high:.3f}")


def _line(result: DuelResult) -> str:
    return (
        f"after {result.matches} matches ({result.games} games): "
        f"ppg {result.ppg:.3f} ci95 {result.low:.3f} {result.high:.3f}"
    )
