"""The fair-play statistic tried on the bots' own matches (``manage.py fair_play_measure``).

Django-free. Bots of the three levels with noise play 1-point matches among themselves, each
reviewed as the analysis reviews a match (bgsage, here at one ply to keep 1,000 matches within
minutes): each side gives one ``PlayedMatch`` of its level. In the cheating matches one side's
moves are all the Expert's (two ply, no noise) while the player is of a weaker level.

A bot "player" is a run of its level's matches in a random order: ``false_alarms`` opens the
statistic over honest runs and counts the players for whom a case would open;
``detections`` runs a player's honest history and then cheating matches and counts those
caught, and how soon.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.computer.decisions import BotLevel, level_named
from games.computer.duel import play_bot_match
from games.computer.review import review_match
from games.engine.events import Event
from games.services.fair_play_statistic import MatchErrors, match_score

#: The levels whose players are tried: the Expert has no noise to measure.
TRIED_LEVELS = ("beginner", "intermediate", "advanced")
#: The review's depth in the trials: bgsage's cheap evaluator.
TRIAL_PLIES = 1


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One side of a bot match as the analysis saw it."""

    level: str
    cheating: bool
    decisions: int
    errors: int

    @property
    def errors_made(self) -> MatchErrors:
        return MatchErrors(self.decisions, self.errors)


def honest_pairings() -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(TRIED_LEVELS) for b in TRIED_LEVELS[i:]]


def play_trials(
    matches: int,
    cheating: int,
    *,
    seed: int = 2026,
    progress: Callable[[int], None] | None = None,
) -> list[PlayedMatch]:
    """``matches`` honest 1-point matches between the tried levels (every pairing in turn),
    then ``cheating`` matches in which one side of a tried level plays the Expert's moves."""
    rng = random.Random(seed)
    expert = level_named("expert")
    played: list[PlayedMatch] = []
    pairings = honest_pairings()
    for number in range(matches + cheating):
        if number < matches:
            names = pairings[number % len(pairings)]
            sides = (level_named(names[0]), level_named(names[1]))
            seats: tuple[tuple[str, bool], tuple[str, bool]] = (
                (names[0], False),
                (names[1], False),
            )
        else:
            turn = number - matches
            posing = TRIED_LEVELS[turn % len(TRIED_LEVELS)]
            opponent = TRIED_LEVELS[(turn // len(TRIED_LEVELS)) % len(TRIED_LEVELS)]
            sides = (expert, level_named(opponent))
            seats = ((posing, True), (opponent, False))
        if number % 2:
            sides, seats = (sides[1], sides[0]), (seats[1], seats[0])
        played.extend(_played_match(sides, seats, rng))
        if progress is not None:
            progress(number + 1)
    return played


def _played_match(
    sides: tuple[BotLevel, BotLevel],
    seats: tuple[tuple[str, bool], tuple[str, bool]],
    rng: random.Random,
) -> list[PlayedMatch]:
    record: list[Event] = []
    play_bot_match(1, sides, rng, record)
    review = review_match(1, record, plies=TRIAL_PLIES)
    played = []
    for player, (level, cheating) in enumerate(seats):
        figures = review.player(player)
        played.append(
            PlayedMatch(level, cheating, figures.decisions, figures.errors + figures.blunders)
        )
    return played


@dataclass(frozen=True, slots=True)
class LevelFigures:
    level: str
    matches: int
    decisions: int
    rate: float


def level_figures(played: Iterable[PlayedMatch]) -> list[LevelFigures]:
    """Each tried level's honest matches, decisions and rate of errors."""
    figures = []
    for level in TRIED_LEVELS:
        own = [match for match in played if match.level == level and not match.cheating]
        decisions = sum(match.decisions for match in own)
        errors = sum(match.errors for match in own)
        figures.append(
            LevelFigures(level, len(own), decisions, errors / decisions if decisions else 0.0)
        )
    return figures


def first_case(run: list[PlayedMatch], rating: float) -> int | None:
    """The match (from 1) of ``run`` after which a case opens, or None."""
    history: list[MatchErrors] = []
    statistic = 0.0
    for number, match in enumerate(run, start=1):
        score = match_score(
            match.errors_made, rating=rating, history=history, statistic_before=statistic
        )
        if score.crosses:
            return number
        statistic = score.statistic
        history.append(match.errors_made)
    return None


@dataclass(frozen=True, slots=True)
class FalseAlarms:
    level: str
    players: int
    run_length: int
    alarmed: int

    @property
    def rate(self) -> float:
        """The share of honest players of ``run_length`` matches for whom a case opened."""
        return self.alarmed / self.players if self.players else 0.0

    @property
    def per_match(self) -> float:
        return self.alarmed / (self.players * self.run_length) if self.players else 0.0


def false_alarms(
    played: list[PlayedMatch],
    ratings: dict[str, float],
    *,
    run_length: int,
    players: int | None,
    seed: int = 1,
) -> list[FalseAlarms]:
    """For each tried level: ``players`` honest players, each a run of ``run_length`` of the
    level's matches drawn at random (without repeats within a run), and how many a case
    caught. Without ``players``, the level's matches in the order played, cut into runs."""
    rng = random.Random(seed)
    found = []
    for level in TRIED_LEVELS:
        own = [match for match in played if match.level == level and not match.cheating]
        if len(own) < run_length:
            continue
        if players is None:
            runs = [own[start : start + run_length] for start in range(0, len(own), run_length)]
            runs = [run for run in runs if len(run) == run_length]
        else:
            runs = [rng.sample(own, run_length) for _ in range(players)]
        alarmed = sum(first_case(run, ratings[level]) is not None for run in runs)
        found.append(FalseAlarms(level, len(runs), run_length, alarmed))
    return found


@dataclass(frozen=True, slots=True)
class Detections:
    level: str
    players: int
    cheating_matches: int
    share: float
    caught: int
    alarmed_before: int
    median_matches: float | None

    @property
    def rate(self) -> float:
        return self.caught / self.players if self.players else 0.0


def detections(
    played: list[PlayedMatch],
    ratings: dict[str, float],
    *,
    history: int,
    cheating_matches: int,
    players: int,
    share: float = 1.0,
    seed: int = 2,
) -> list[Detections]:
    """For each tried level: ``players`` players, each ``history`` honest matches of the
    level and then ``cheating_matches`` matches of which each is, at random, one with the
    Expert's moves (``share`` of them) or an honest one, all drawn at random; how many a case
    caught while cheating (and how many matches of the cheating run it took, the median), and
    how many were (falsely) caught in their honest history."""
    rng = random.Random(seed)
    found = []
    for level in TRIED_LEVELS:
        honest = [match for match in played if match.level == level and not match.cheating]
        cheats = [match for match in played if match.level == level and match.cheating]
        if len(honest) < history or len(cheats) < cheating_matches:
            continue
        caught_after: list[int] = []
        alarmed_before = 0
        for _ in range(players):
            run = rng.sample(honest, history) + [
                rng.choice(cheats) if rng.random() < share else rng.choice(honest)
                for _ in range(cheating_matches)
            ]
            number = first_case(run, ratings[level])
            if number is None:
                continue
            if number <= history:
                alarmed_before += 1
            else:
                caught_after.append(number - history)
        found.append(
            Detections(
                level,
                players,
                cheating_matches,
                share,
                len(caught_after),
                alarmed_before,
                statistics.median(caught_after) if caught_after else None,
            )
        )
    return found
