"""manage.py rating_engine_data: matches between the computer's levels and players of known
strength made from them, played by the engine alone, written as the data on which the raters
are scored (``manage.py rating_engine_score``; docs/ratings.md, "Ratings on engine play")."""

from __future__ import annotations

import csv
import random
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.computer.decisions import LEVELS, BotLevel
from games.computer.duel import play_bot_match

#: The four levels, and four players made from them by other noise (one ply each), so the
#: field spans from weaker than Beginner to between Advanced and Expert.
PLAYERS: tuple[BotLevel, ...] = (
    BotLevel("novice", "Novice", plies=1, noise=0.45, cube_noise=0.40),
    *LEVELS[:1],
    BotLevel("casual", "Casual", plies=1, noise=0.17, cube_noise=0.15),
    *LEVELS[1:2],
    BotLevel("club", "Club", plies=1, noise=0.075, cube_noise=0.06),
    *LEVELS[2:3],
    BotLevel("one-ply", "One-ply", plies=1, noise=0.0, cube_noise=0.0),
    *LEVELS[3:],
)
LENGTHS = tuple(range(1, 18, 2))
COLUMNS = ("number", "first", "second", "length", "winner", "games")


def scheduled(seed: int, number: int) -> tuple[BotLevel, BotLevel, int]:
    """Who plays match ``number`` of the run seeded ``seed`` (first player first), and to how
    many points: every match is drawn on its own, so a shorter run is a prefix of a longer."""
    draw = random.Random(f"schedule:{seed}:{number}")
    first, second = draw.sample(PLAYERS, 2)
    return first, second, draw.choice(LENGTHS)


class Command(BaseCommand):
    help = (
        "Play matches of 1 to 17 points between the bot levels and players made from them "
        "(in process: the engine and the live bots' decisions, seeded dice, no database) and "
        "write each as a CSV row: number, first, second, length, winner, games."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("output", type=Path, help="the CSV file to write")
        parser.add_argument("--matches", type=int, default=1000, help="at most so many matches")
        parser.add_argument(
            "--minutes", type=float, default=0, help="start no match after so many minutes"
        )
        parser.add_argument("--seed", type=int, default=2026)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["matches"] < 1:
            raise CommandError("--matches is a number of matches, at least 1.")
        if options["minutes"] < 0:
            raise CommandError("--minutes is a duration, not below 0 (0: no limit).")
        seed, output = options["seed"], options["output"]
        deadline = time.monotonic() + options["minutes"] * 60 if options["minutes"] else None
        played = 0
        with output.open("w", newline="") as file:
            writer = csv.writer(file)
            writer.writerow(COLUMNS)
            for number in range(options["matches"]):
                if deadline is not None and time.monotonic() > deadline:
                    break
                first, second, length = scheduled(seed, number)
                dice = random.Random(f"dice:{seed}:{number}")
                state = play_bot_match(length, (first, second), dice)
                winner = (first, second)[state.winner].name
                writer.writerow((number, first.name, second.name, length, winner, len(state.games)))
                file.flush()
                played += 1
        self.stdout.write(f"{played} matches written to {output}")
