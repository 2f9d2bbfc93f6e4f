"""manage.py bot_timings [--positions N] [--variant V ...]: how long each bot level takes to
choose a play, in each variant."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.computer.decisions import LEVELS, bot_action
from games.computer.duel import middle_game_positions
from games.engine import MatchRules
from games.engine.variants import VARIANTS


class Command(BaseCommand):
    help = (
        "Time each bot level's choice of a play in middle-game positions of each variant "
        "(positions reached by beginners' play, after 10, 20, 30 and 40 plays of a game) and "
        "print the median and the longest, in seconds. The networks are loaded first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--positions", type=int, default=50, help="positions a variant (50)")
        parser.add_argument(
            "--variant",
            action="append",
            choices=list(VARIANTS),
            help="a variant to time (again for more); all of them by default",
        )
        parser.add_argument("--seed", type=int, default=2026, help="seed of the positions")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["positions"] < 1:
            raise CommandError("--positions is a number of positions, at least 1.")
        rng = random.Random(options["seed"])
        self.stdout.write(f"{'variant':<12} {'level':<13} {'median s':>9} {'max s':>7}")
        for name in options["variant"] or list(VARIANTS):
            positions = middle_game_positions(MatchRules.of(name), options["positions"], rng)
            bot_action(positions[0], _mover(positions[0]), LEVELS[-1], rng)  # load the networks
            for level in LEVELS:
                spent = []
                for state in positions:
                    started = time.perf_counter()
                    bot_action(state, _mover(state), level, rng)
                    spent.append(time.perf_counter() - started)
                self.stdout.write(
                    f"{name:<12} {level.name:<13} {statistics.median(spent):>9.3f} "
                    f"{max(spent):>7.3f}"
                )
                self.stdout.flush()


def _mover(state: Any) -> int:
    assert state.turn is not None
    return int(state.turn)
