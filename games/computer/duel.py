"""Bot against bot in process: whole matches with the live bots' decisions and no database.

The dice come from a seeded generator, so a duel can be run again exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.computer.decisions import BotLevel, bot_action
from games.engine import (
    AcceptResignation,
    Dice,
    Double,
    Drop,
    GameRecord,
    MatchState,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Roll,
    Take,
)
from games.engine.events import Event


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Points per game of the first level with its 95% confidence interval."""

    matches: int
    games: int
    points: int
    ppg: float
    low: float
    high: float
    matches_won: int


def play_bot_match(
    match_length: int,
    levels: tuple[BotLevel, BotLevel],
    rng: random.Random,
    record: list[Event] | None = None,
) -> MatchState:
    """A whole match between two bots: ``levels[0]`` is player 0. Its events are appended to
    ``record`` when one is given."""
    state = MatchState.new(match_length)
    record = [] if record is None else record

    def roll() -> Dice:
        return Dice(rng.randint(1, 6), rng.randint(1, 6))

    while not state.is_finished():
        if state.phase == "opening":
            state = _recorded(state, OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))), record)
            continue
        player = state.player_to_act()
        assert player is not None and state.turn is not None
        if state.phase == "rolling" and not state.can_double(player):
            state = _recorded(state, Roll(player, roll()), record)
            continue
        action = bot_action(state, player, levels[player], rng)
        assert action is not None, state
        event: Event
        if action.action == "roll":
            event = Roll(player, roll())
        elif action.action == "move":
            assert action.play is not None
            event = PlayMade(player, action.play)
        else:
            event = _ANSWERS[action.action](player)
        state = _recorded(state, event, record)
    return state


def _recorded(state: MatchState, event: Event, record: list[Event]) -> MatchState:
    record.append(event)
    return state.apply(event)


_ANSWERS: dict[str, Callable[[int], Event]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "accept_resign": AcceptResignation,
    "reject_resign": RejectResignation,
}


def duel(
    first: BotLevel,
    second: BotLevel,
    matches: int,
    *,
    match_length: int = 3,
    seed: int = 2026,
    progress: Callable[[int, DuelResult], None] | None = None,
) -> DuelResult:
    """``matches`` matches of ``first`` against ``second``, each level first player in turn.

    The interval treats each match as one sample of (points won minus lost, games played),
    since the games of one match depend on each other through the score: ppg is the ratio
    of the sums and its standard error the ratio estimator's.
    """
    rng = random.Random(seed)
    samples: list[tuple[int, int]] = []
    won = 0
    result = DuelResult(0, 0, 0, 0.0, 0.0, 0.0, 0)
    for number in range(matches):
        first_is = number % 2
        levels = (first, second) if first_is == 0 else (second, first)
        state = play_bot_match(match_length, levels, rng)
        points = sum(_points_that_count(state, game, first_is) for game in state.games)
        samples.append((points, len(state.games)))
        won += state.winner == first_is
        result = _summary(samples, won)
        if progress is not None:
            progress(number + 1, result)
    return result


def _points_that_count(state: MatchState, game: GameRecord, player: int) -> int:
    """The game's points for ``player`` (negative when lost), no more than the winner needed:
    a cube of 16 in a 3-point match is worth the match, not 16 points."""
    earlier = state.games[: game.number - 1]
    had = sum(g.points for g in earlier if g.winner == game.winner)
    points = min(game.points, max(state.match_length - had, 0))
    return points if game.winner == player else -points


def _summary(samples: list[tuple[int, int]], won: int) -> DuelResult:
    n = len(samples)
    points = sum(p for p, _ in samples)
    games = sum(g for _, g in samples)
    ppg = points / games
    if n < 2:
        return DuelResult(n, games, points, ppg, -math.inf, math.inf, won)
    mean_games = games / n
    spread = sum((p - ppg * g) ** 2 for p, g in samples) / (n - 1)
    error = math.sqrt(spread / n) / mean_games
    return DuelResult(n, games, points, ppg, ppg - 1.96 * error, ppg + 1.96 * error, won)
