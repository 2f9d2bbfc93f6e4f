"""Bot against bot in process: whole matches with the live bots' decisions and no database.

The dice come from a seeded generator, so a duel can be run again exactly.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from games.computer.decisions import BotAction, BotLevel, bot_action, level_named
from games.engine import (
    AcceptResignation,
    Dice,
    Double,
    DoubleNamed,
    Drop,
    GameRecord,
    MatchRules,
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


def middle_game_positions(
    rules: MatchRules, count: int, rng: random.Random, *, turns: range = range(10, 41, 10)
) -> list[MatchState]:
    """``count`` positions waiting for a play, taken from games two beginners play by
    ``rules``: at each of ``turns`` (plays made in the game so far) that a game reaches."""
    beginner = level_named("beginner")
    found: list[MatchState] = []
    while len(found) < count:
        state = MatchState.new(1, rules)
        made = 0
        while not state.is_finished() and len(found) < count:
            if state.phase == "opening":
                state = state.apply(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
                continue
            player = state.player_to_act()
            assert player is not None
            if state.phase == "moving":
                if made in turns:
                    found.append(state)
                made += 1
            action = bot_action(state, player, beginner, rng)
            assert action is not None
            state = state.apply(_event(player, action, rng))
    return found


def play_bot_match(
    match_length: int,
    levels: tuple[BotLevel, BotLevel],
    rng: random.Random,
    record: list[Event] | None = None,
    *,
    rules: MatchRules | None = None,
) -> MatchState:
    """A whole match by ``rules`` (backgammon's unless given) between two bots: ``levels[0]``
    is player 0. Its events are appended to ``record`` when one is given."""
    state = MatchState.new(match_length, rules)
    record = [] if record is None else record
    while not state.is_finished():
        if state.phase == "opening":
            state = _recorded(state, OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))), record)
            continue
        player = state.player_to_act()
        assert player is not None and state.turn is not None
        if state.phase == "rolling" and not state.can_double(player):
            state = _recorded(state, _event(player, BotAction("roll"), rng), record)
            continue
        action = bot_action(state, player, levels[player], rng)
        assert action is not None, state
        state = _recorded(state, _event(player, action, rng), record)
    return state


def _event(player: int, action: BotAction, rng: random.Random) -> Event:
    """``player``'s action as an event, the server rolling the dice a roll asks for."""
    if action.action == "roll":
        return Roll(player, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    if action.action == "move":
        assert action.play is not None
        return PlayMade(player, action.play)
    if action.action == "name_double":
        assert action.number is not None
        return DoubleNamed(player, action.number)
    return _ANSWERS[action.action](player)


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
    rules: MatchRules | None = None,
    progress: Callable[[int, DuelResult], None] | None = None,
) -> DuelResult:
    """``matches`` matches by ``rules`` (backgammon's unless given) of ``first`` against
    ``second``, each level first player in turn.

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
        state = play_bot_match(match_length, levels, rng, rules=rules)
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
