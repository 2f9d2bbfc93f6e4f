"""How the computer opponents decide, in every variant: one function for live play and for
bot duels alike.

Who judges a position depends on the game's variant: bgsage, the neural network, plays the
variants whose board and moves are backgammon's (``Variant.holds_position``: backgammon,
nackgammon, hypergammon, tavla, and portes, whose plays are scored by its own points: no
triple game); the hand-built evaluation of ``variant_eval`` with the expectimax of
``variant_player`` plays plakoto, fevga, long nardi, Gul Bara, Jacquet and acey-deucey (whose
checkers waiting to enter bgsage cannot see). After acey-deucey's 1-2 the bot names the double
whose best play leaves it best placed, trying all six. A Tavli match's bot plays the game of
the rotation being played.

A level is a search depth and some deliberate noise: each candidate's equity gets a normal
random error of ``noise`` (checker plays) or ``cube_noise`` (cube decisions) before the bot
picks the best, so a weaker bot makes the kind of mistakes a weaker player makes (close
choices often, big ones rarely). Django-free, so ``bot_duel`` can play thousands of games in
process with exactly the decisions the live bots make.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.computer import sage, variant_player
from games.computer.stakes import Chances, Stakes
from games.computer.variant_eval import WEIGHTS
from games.engine import Dice, MatchState, Variant, format_play
from games.engine.variants import HYPERGAMMON, VARIANTS


@dataclass(frozen=True, slots=True)
class BotLevel:
    name: str
    label: str
    plies: int
    noise: float
    cube_noise: float


#: Weakest first, as bgsage plays them (backgammon, nackgammon, hypergammon, portes). The
#: noise was calibrated with ``manage.py bot_duel`` (see docs/bots.md).
LEVELS: tuple[BotLevel, ...] = (
    BotLevel("beginner", "Beginner", plies=1, noise=0.25, cube_noise=0.25),
    BotLevel("intermediate", "Intermediate", plies=1, noise=0.10, cube_noise=0.08),
    BotLevel("advanced", "Advanced", plies=1, noise=0.05, cube_noise=0.04),
    BotLevel("expert", "Expert", plies=2, noise=0.0, cube_noise=0.0),
)
LEVELS_BY_NAME = {level.name: level for level in LEVELS}

#: The same levels in the variants whose games need their own settings: the hand-built
#: evaluation's (its equities are on the same scale, its errors its own; ``cube_noise`` is
#: there an error in the winning chance that the cube rule reads), and hypergammon, whose
#: three checkers make bgsage's small errors decide little. Calibrated with
#: ``manage.py bot_duel --variant``.
_OWN_EVALUATION = (
    BotLevel("beginner", "Beginner", plies=1, noise=0.5, cube_noise=0.15),
    BotLevel("intermediate", "Intermediate", plies=1, noise=0.2, cube_noise=0.08),
    BotLevel("advanced", "Advanced", plies=1, noise=0.08, cube_noise=0.04),
    BotLevel("expert", "Expert", plies=2, noise=0.0, cube_noise=0.0),
)
_HYPERGAMMON = (
    BotLevel("beginner", "Beginner", plies=1, noise=0.8, cube_noise=0.25),
    BotLevel("intermediate", "Intermediate", plies=1, noise=0.3, cube_noise=0.1),
    BotLevel("advanced", "Advanced", plies=1, noise=0.1, cube_noise=0.06),
    BotLevel("expert", "Expert", plies=2, noise=0.0, cube_noise=0.0),
)
#: The levels' settings in every variant, keyed by the variant: bgsage's plays for the
#: variants that hit (``LEVELS``, or their own where noted), the hand-built evaluation's
#: for those in ``variant_eval.WEIGHTS``.
VARIANT_LEVELS: dict[Variant, tuple[BotLevel, ...]] = {
    **{variant: LEVELS for variant in VARIANTS.values() if variant.holds_position},
    **{variant: _OWN_EVALUATION for variant in WEIGHTS},
    HYPERGAMMON: _HYPERGAMMON,
}


@dataclass(frozen=True, slots=True)
class BotAction:
    """What the bot does: an action name as ``services.match_act`` takes it, with its play."""

    action: str
    play: str | None = None
    number: int | None = None


def level_named(name: str) -> BotLevel:
    try:
        return LEVELS_BY_NAME[name.lower()]
    except KeyError:
        raise ValueError(
            f"no bot level {name!r}; the levels are {', '.join(LEVELS_BY_NAME)}"
        ) from None


def level_in(level: BotLevel, variant: Variant) -> BotLevel:
    """The settings ``level`` plays ``variant``'s games with: a level of its own making (not one
    of the four, as ``rating_engine_data``'s players of known strength) plays with its own."""
    return next(
        (settings for settings in VARIANT_LEVELS[variant] if settings.name == level.name), level
    )


def bot_action(
    state: MatchState, player: int, level: BotLevel, rng: random.Random | None = None
) -> BotAction | None:
    """The bot's decision as ``player`` in ``state``; None when it is not the bot's to make."""
    rng = rng or random.Random()
    if state.player_to_act() != player:
        return None
    level = level_in(level, state.game_variant)
    if state.phase == "moving":
        ranked = ranked_plays(state, player, level.plies)
        if not ranked:
            return None
        chosen = max(ranked, key=lambda ranked_play: ranked_play[1] + _error(rng, level.noise))
        return BotAction("move", chosen[0])
    if state.phase == "naming":
        return BotAction("name_double", number=_double_to_name(state, player, level, rng))
    if state.phase == "rolling":
        if state.can_double(player) and _wants_to_double(state, player, level, rng):
            return BotAction("double")
        return BotAction("roll")
    if state.phase == "doubled":
        return BotAction("take" if _takes(state, level, rng) else "drop")
    if state.phase == "resigned":
        return BotAction("accept_resign" if _resignation_is_fair(state) else "reject_resign")
    return None


def _double_to_name(state: MatchState, player: int, level: BotLevel, rng: random.Random) -> int:
    """The double whose best play (at one ply) is worth the most, each with the level's
    noise."""
    board = state.board_for(player)
    stakes = Stakes.of(state, player)
    return max(
        range(1, 7),
        key=lambda number: (
            variant_player.best_equity(board, Dice(number, number), stakes)
            + _error(rng, level.noise)
        ),
    )


#: What bgsage's match equities count a gammon and a backgammon.
BGSAGE_SCORING = (2, 3)


def _scored_as_backgammon(variant: Variant) -> bool:
    """bgsage's equities count a game as ``variant`` does (1, 2 or 3 points)."""
    return (variant.gammon, variant.backgammon) == BGSAGE_SCORING


def ranked_plays(state: MatchState, player: int, plies: int) -> list[tuple[str, float]]:
    """The legal plays of the player on roll, in notation, with their equities, best first."""
    assert state.dice is not None
    variant = state.game_variant
    if variant.holds_position and not _scored_as_backgammon(variant):
        stakes = Stakes.of(state, player)
        judged = sage.play_chances(state.position_for(player), state.dice, plies=plies)
        return sorted(
            ((format_play(play), stakes.equity(chances)) for play, chances in judged),
            key=lambda ranked_play: -ranked_play[1],
        )
    if variant.holds_position:
        context = sage.MatchContext.of(state, player)
        ranked = sage.rank_plays(state.position_for(player), state.dice, context, plies=plies)
        return [(play.notation, play.equity) for play in ranked]
    judged_plays = variant_player.rank_plays(
        state.board_for(player), state.dice, Stakes.of(state, player), plies=plies
    )
    return [(judged.notation, judged.equity) for judged in judged_plays]


def best_equity(state: MatchState, player: int, dice: Dice) -> float:
    """The equity for ``player`` (on roll in ``state``) of the best play of ``dice`` at one
    ply, by the game's stakes and cubeless; the board as it stands when nothing can be
    played. What luck is measured in (``variant_review``)."""
    stakes = Stakes.of(state, player)
    if not state.game_variant.holds_position:
        return variant_player.best_equity(state.board_for(player), dice, stakes)
    position = state.position_for(player)
    judged = sage.play_chances(position, dice)
    if not judged:
        return stakes.equity(sage.chances_on_roll(position.flipped()).flipped())
    return max(stakes.equity(chances) for _, chances in judged)


def chances_on_roll(state: MatchState, player: int) -> Chances:
    """The cubeless chances of ``player``, as if on roll before rolling."""
    if state.game_variant.holds_position:
        return sage.chances_on_roll(state.position_for(player))
    return variant_player.chances_on_roll(state.board_for(player))


#: Below this quick estimate of its winning chance a bot does not weigh doubling at all
#: (which saves a full bgsage cube evaluation on most turns), except as the trailer after
#: the Crawford game, who doubles early.
THINKABLE_DOUBLE = 0.55
#: The cube rule of the hand-built evaluation's variants, on the winning chance of the
#: player on roll (money play's classic figures): double from DOUBLE_FROM, but play on for
#: the double game from TOO_GOOD when a third of the wins or more are worth two; take from
#: TAKE_FROM.
DOUBLE_FROM = 0.68
TOO_GOOD = 0.85
TAKE_FROM = 0.25


def _wants_to_double(state: MatchState, player: int, level: BotLevel, rng: random.Random) -> bool:
    if state.game_variant.holds_position:
        trailer = state.points_needed(1 - player) == 1
        if not trailer and sage.winning_chance(state.position_for(player)) < THINKABLE_DOUBLE:
            return False
        context = sage.MatchContext.of(state, player)
        cube = sage.cube_decision(state.position_for(player), context, plies=level.plies)
        return cube.double + _error(rng, level.cube_noise) > cube.no_double
    if state.points_needed(1 - player) <= state.cube_value:
        return True  # whatever the cube, the opponent's next win ends the match
    chances = chances_on_roll(state, player)
    win = chances.win + _error(rng, level.cube_noise)
    if win >= TOO_GOOD and chances.double_win >= chances.win / 3:
        return False
    return win >= DOUBLE_FROM


def _takes(state: MatchState, level: BotLevel, rng: random.Random) -> bool:
    assert state.turn is not None
    doubler = state.turn
    if state.game_variant.holds_position:
        context = sage.MatchContext.of(state, doubler)
        cube = sage.cube_decision(state.position_for(doubler), context, plies=level.plies)
        return cube.double_pass - cube.double_take + _error(rng, level.cube_noise) >= 0
    doubler_chances = chances_on_roll(state, doubler)
    return doubler_chances.losing + _error(rng, level.cube_noise) >= TAKE_FROM


def _error(rng: random.Random, spread: float) -> float:
    return rng.gauss(0.0, spread) if spread else 0.0


def _resignation_is_fair(state: MatchState) -> bool:
    """Accept when the points offered are at least what the resigner expects to lose.

    The resigner's expected cubeless points by the game's own scoring (portes counts a
    backgammon as a gammon), from its chances on roll against the offer of 1, 2 or 3 points
    per cube: a bot takes a resignation it would, on average, do no better than by playing on.
    """
    assert state.turn is not None and state.resignation is not None
    resigner = chances_on_roll(state, state.turn)
    resigner_expects = Stakes.cubeless(state.game_variant).equity(resigner)
    return state.resignation >= -resigner_expects
