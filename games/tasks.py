"""Celery tasks of the games app. Each takes ids, re-reads the world and is safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task

from games import services
from games.bot_play import bot_action
from games.bots import bot_level_of
from games.engine import state_from_snapshot
from games.models import Challenge, Match

logger = logging.getLogger(__name__)


# --- Bots ---


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_act(match_id: int, seq: int) -> str:
    """The bot to act in match ``match_id`` at ``seq`` makes its decision.

    Does nothing when the match has moved past ``seq`` or no bot is to act; a Conflict from
    the service means someone else acted first, which is fine.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.seq != seq or match.status != Match.Status.ACTIVE:
        return "stale"
    level = bot_level_of(match.to_act_id)
    if level is None:
        return "no bot to act"
    bot = match.to_act
    player = match.player_index(bot)
    assert player is not None
    decision = bot_action(state_from_snapshot(match.state), player, level)
    if decision is None:
        return "nothing to do"
    try:
        services.match_act(
            match_id=match_id,
            actor=bot,
            expected_seq=seq,
            action=decision.action,
            play=decision.play,
        )
    except services.Conflict:
        return "stale"
    return decision.action


@shared_task(acks_late=True, reject_on_worker_lost=True)
def bot_accept_challenge(challenge_id: int) -> str:
    """A bot accepts the open challenge addressed to it; anything else is left alone."""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or challenge.status != Challenge.Status.OPEN:
        return "closed"
    if bot_level_of(challenge.opponent_id) is None:
        return "not for a bot"
    try:
        services.challenge_accept(challenge_id=challenge_id, user=challenge.opponent)
    except services.ApplicationError as error:
        logger.info("bot could not accept challenge %s: %s", challenge_id, error.message)
        return "refused"
    return "accepted"


# --- Analysis ---


@shared_task(acks_late=True, reject_on_worker_lost=True)
def analyse_match(match_id: int) -> str:
    """Analyse match ``match_id`` as its log stands now; running it twice gives the same."""
    from games.match_analysis import analysis_run

    return "done" if analysis_run(match_id) is not None else "no such match"
