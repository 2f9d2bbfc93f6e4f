"""How the computer opponents decide: one function for live play and for bot duels alike.

A level is a search depth and some deliberate noise: each candidate's equity gets a normal
random error of ``noise`` (checker plays) or ``cube_noise`` (cube decisions) before the bot
picks the best, so a weaker bot makes the kind of mistakes a weaker player makes (close
choices often, big ones rarely). Django-free, so ``bot_duel`` can play thousands of games in
process with exactly the decisions the live bots make.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.computer.sage import (
    MatchContext,
    cube_decision,
    expected_points,
    rank_plays,
    winning_chance,
)
from games.engine import MatchState


@dataclass(frozen=True, slots=True)
class BotLevel:
    name: str
    label: str
    plies: int
    noise: float
    cube_noise: float


#: Weakest first. The noise was calibrated with ``manage.py bot_duel`` (see docs/bots.md).
LEVELS: tuple[BotLevel, ...] = (
    BotLevel("beginner", "Beginner", plies=1, noise=0.25, cube_noise=0.25),
    BotLevel("intermediate", "Intermediate", plies=1, noise=0.10, cube_noise=0.08),
    BotLevel("advanced", "Advanced", plies=1, noise=0.05, cube_noise=0.04),
    BotLevel("expert", "Expert", plies=2, noise=0.0, cube_noise=0.0),
)
LEVELS_BY_NAME = {level.name: level for level in LEVELS}


@dataclass(frozen=True, slots=True)
class BotAction:
    """What the bot does: an action name as ``services.match_act`` takes it, with its play."""

    action: str
    play: str | None = None


def level_named(name: str) -> BotLevel:
    try:
        return LEVELS_BY_NAME[name.lower()]
    except KeyError:
        raise ValueError(
            f"no bot level {name!r}; the levels are {', '.join(LEVELS_BY_NAME)}"
        ) from None


def bot_action(
    state: MatchState, player: int, level: BotLevel, rng: random.Random | None = None
) -> BotAction | None:
    """The bot's decision as ``player`` in ``state``; None when it is not the bot's to make."""
    rng = rng or random.Random()
    if state.player_to_act() != player:
        return None
    context = MatchContext.of(state, player)
    if state.phase == "moving":
        assert state.dice is not None
        ranked = rank_plays(state.position_for(player), state.dice, context, plies=level.plies)
        if not ranked:
            return None
        chosen = max(ranked, key=lambda ranked_play: ranked_play.equity + _error(rng, level.noise))
        return BotAction("move", chosen.notation)
    if state.phase == "rolling":
        if state.can_double(player) and _double_is_thinkable(state, player):
            cube = cube_decision(state.position_for(player), context, plies=level.plies)
            if cube.double + _error(rng, level.cube_noise) > cube.no_double:
                return BotAction("double")
        return BotAction("roll")
    if state.phase == "doubled":
        assert state.turn is not None
        doubler = state.turn
        cube = cube_decision(
            state.position_for(doubler), MatchContext.of(state, doubler), plies=level.plies
        )
        take_edge = cube.double_pass - cube.double_take
        return BotAction("take" if take_edge + _error(rng, level.cube_noise) >= 0 else "drop")
    if state.phase == "resigned":
        return BotAction("accept_resign" if _resignation_is_fair(state) else "reject_resign")
    return None


#: Below this quick estimate of its winning chance a bot does not weigh doubling at all
#: (which saves a full cube evaluation on most turns), except as the trailer after the
#: Crawford game, who doubles early.
THINKABLE_DOUBLE = 0.55


def _double_is_thinkable(state: MatchState, player: int) -> bool:
    if state.points_needed(1 - player) == 1:
        return True
    return winning_chance(state.position_for(player)) >= THINKABLE_DOUBLE


def _error(rng: random.Random, spread: float) -> float:
    return rng.gauss(0.0, spread) if spread else 0.0


def _resignation_is_fair(state: MatchState) -> bool:
    """Accept when the points offered are at least what the resigner expects to lose.

    The resigner's expected cubeless points (from bgsage, at 1 ply) against the offer of
    1, 2 or 3 points per cube: a bot takes a resignation it would, on average, do no
    better than by playing on.
    """
    assert state.turn is not None and state.resignation is not None
    resigner_expects = expected_points(state.position_for(state.turn))
    return state.resignation >= -resigner_expects
