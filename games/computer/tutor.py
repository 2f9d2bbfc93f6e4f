"""The tutor's judgement of a play: what it lost against the best play, in bgsage's cubeful
equity at the match score, judged as the Intermediate bot judges its own plays (one ply: a
few hundredths of a second), and marked as the analysis marks it (games.computer.review).
Where a verdict is kept and who may have one is the services' (games.services.tutor).
"""

from __future__ import annotations

import logging
from typing import Any

from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, Forbidden
from games import selectors, services
from games.computer.decisions import LEVELS_BY_NAME, ranked_plays
from games.computer.review import mark_of
from games.engine import (
    EngineError,
    MatchState,
    format_play,
    parse_play,
    state_from_snapshot,
)
from games.log.integrity import fold_events
from games.models import Match

logger = logging.getLogger(__name__)

TUTOR_PLIES = LEVELS_BY_NAME["intermediate"].plies


def judge_play(state: MatchState, player: int, notation: str) -> dict[str, Any] | None:
    """The tutor's verdict on ``player`` playing ``notation`` in ``state`` (the match before
    the play): the play, the best play, the equity it lost and its mark. None when the play
    was not a choice (one legal play), is not legal, or is in a game the tutor does not read.
    """
    if state.phase != "moving" or state.turn != player or state.dice is None:
        return None
    if not state.game_variant.holds_position or len(state.legal_plays()) < 2:
        return None
    position, dice = state.position_for(player), state.dice
    try:
        played = parse_play(notation, position, dice)
    except EngineError:
        return None
    ranked = ranked_plays(state, player, TUTOR_PLIES)
    reached = position.apply(played)
    equity = next(
        equity
        for ranked_notation, equity in ranked
        if position.apply(parse_play(ranked_notation, position, dice)) == reached
    )
    lost = max(0.0, ranked[0][1] - equity)
    return {
        "variant": state.game_variant.name,
        "position_id": position.position_id(),
        "dice": [dice.first, dice.second],
        "played": format_play(played),
        "best": ranked[0][0],
        "equity_lost": round(lost, 3),
        "mark": mark_of(lost),
    }


def best_play(state: MatchState, player: int) -> str | None:
    """The best play of the roll ``player`` is to play now, in notation; None when there is
    nothing to play."""
    if state.phase != "moving" or state.turn != player or state.dice is None:
        return None
    ranked = ranked_plays(state, player, TUTOR_PLIES)
    return ranked[0][0] if ranked else None


def tutor_after_play(
    *, match: Match, actor: Any, expected_seq: int, action: str, play: str | None
) -> None:
    """After ``actor``'s action on ``match`` was taken at ``expected_seq``: when it was a
    play the tutor watches, judge it on the match as it stood and keep the verdict."""
    if action != "move" or play is None or not match.tutored:
        return
    seat = match.player_index(actor)
    if seat is None or seat != selectors.tutored_seat(match):
        return
    before = fold_events(
        match.match_length, match.events.filter(seq__lte=expected_seq).order_by("seq")
    )
    try:
        verdict = judge_play(before, seat, play)
    except Exception:  # bgsage is a native extension: the play stands without its verdict
        logger.exception("The tutor could not judge the play at seq %s", expected_seq + 1)
        return
    if verdict is not None:
        services.tutor_verdict_keep(
            match_id=match.pk, player=actor, seq=expected_seq + 1, verdict=verdict
        )


def tutor_hint(match: Match, viewer: Any) -> str:
    """The best play of the roll the viewer is to play now, for the player the tutor helps
    only; ApplicationError when there is no hint to give."""
    seat = match.player_index(viewer) if viewer is not None else None
    if seat is None or seat != selectors.tutored_seat(match):
        raise Forbidden(_("Hints are for the player the tutor helps, in a tutored match."))
    best = best_play(state_from_snapshot(match.state), seat)
    if best is None:
        raise ApplicationError(_("A hint is given when you have a roll to play."), "no_hint")
    return best
