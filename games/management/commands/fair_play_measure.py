"""manage.py fair_play_measure [--matches 1000] [--cheating 300]: the fair-play statistic's
false-alarm rate on the bots' own matches, and its detection rate when one side plays the
Expert's moves (docs/fair-play.md)."""

from __future__ import annotations

import csv
import dataclasses
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.computer.fair_play_trials import (
    PlayedMatch,
    detections,
    false_alarms,
    level_figures,
    play_trials,
)
from games.services.fair_play_statistic import SLACK, THRESHOLD, rating_rate

#: The rating each level's players are given: the bots' yardstick, a level 200 points apart
#: (docs/fair-play.md). The rating's rate only starts a player's expectation.
LEVEL_RATINGS = {"beginner": 1300.0, "intermediate": 1500.0, "advanced": 1700.0}
NEW_PLAYER = 1500.0
FIELDS = [field.name for field in dataclasses.fields(PlayedMatch)]


class Command(BaseCommand):
    help = (
        "Play 1-point bot matches (each level with its own noise), review them as the "
        "analysis does, and print the fair-play statistic's false-alarm rate on honest "
        "players and its detection rate on players whose moves are the Expert's."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=1000, help="honest matches (1000)")
        parser.add_argument(
            "--cheating", type=int, default=300, help="matches with one side the Expert's (300)"
        )
        parser.add_argument("--seed", type=int, default=2026, help="seed of the dice and noise")
        parser.add_argument(
            "--records",
            type=Path,
            help="a CSV of each side's figures: written after playing, or read instead of "
            "playing when it exists",
        )
        parser.add_argument("--players", type=int, default=2000, help="players tried per level")
        parser.add_argument("--run", type=int, default=30, help="matches per honest player (30)")
        parser.add_argument(
            "--history", type=int, default=10, help="honest matches before cheating (10)"
        )
        parser.add_argument(
            "--cheating-run", type=int, default=10, help="cheating matches per player (10)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path | None = options["records"]
        started = time.process_time()
        if path is not None and path.exists():
            played = _read(path)
            self.stdout.write(f"Read {len(played)} sides from {path}.")
        else:
            if options["matches"] < 1 or options["cheating"] < 0:
                raise CommandError("--matches is at least 1 and --cheating at least 0.")
            played = play_trials(options["matches"], options["cheating"], seed=options["seed"])
            seconds = time.process_time() - started
            total = options["matches"] + options["cheating"]
            self.stdout.write(
                f"Played and reviewed {total} matches in {seconds:.0f} s of CPU "
                f"({seconds / total:.2f} s a match)."
            )
            if path is not None:
                _write(path, played)
        self.stdout.write(f"Statistic: one-sided CUSUM, slack {SLACK}, threshold {THRESHOLD}.")
        for level in level_figures(played):
            rating = LEVEL_RATINGS[level.level]
            self.stdout.write(
                f"{level.level}: {level.matches} honest sides, {level.decisions} decisions, "
                f"error rate {level.rate:.3f} (rating {rating:.0f} expects "
                f"{rating_rate(rating):.3f})"
            )
        new_players = dict.fromkeys(LEVEL_RATINGS, NEW_PLAYER)
        tries = (
            (LEVEL_RATINGS, None, ", in the order played"),
            (LEVEL_RATINGS, options["players"], ""),
            (new_players, options["players"], ", all rated 1500"),
        )
        for ratings, players, rated in tries:
            for alarm in false_alarms(played, ratings, run_length=options["run"], players=players):
                self.stdout.write(
                    f"false alarms{rated}, {alarm.level}: {alarm.alarmed} of {alarm.players} "
                    f"players of {alarm.run_length} matches ({alarm.rate:.2%}; "
                    f"{alarm.per_match:.4%} a match)"
                )
        for share in (1.0, 0.5):
            for found in detections(
                played,
                LEVEL_RATINGS,
                history=options["history"],
                cheating_matches=options["cheating_run"],
                players=options["players"],
                share=share,
            ):
                median = "-" if found.median_matches is None else f"{found.median_matches:g}"
                self.stdout.write(
                    f"detection ({share:.0%} of matches the Expert's), {found.level}: "
                    f"{found.caught} of {found.players} players within "
                    f"{found.cheating_matches} matches ({found.rate:.1%}; median {median} "
                    f"matches); alarmed in their honest history: {found.alarmed_before}"
                )


def _write(path: Path, played: list[PlayedMatch]) -> None:
    with path.open("w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=FIELDS)
        writer.writeheader()
        writer.writerows(dataclasses.asdict(match) for match in played)


def _read(path: Path) -> list[PlayedMatch]:
    with path.open(newline="") as file:
        return [
            PlayedMatch(
                row["level"],
                row["cheating"] == "True",
                int(row["decisions"]),
                int(row["errors"]),
            )
            for row in csv.DictReader(file)
        ]
