"""The computer opponents in the service: which accounts are bots, and how they act.

A bot is an ordinary account whose profile has a ``bot_level``. It accepts the challenges
addressed to it at once and acts whenever a match waits for it, through the same services as
everyone else, from Celery tasks (``games.tasks.bot_accept_challenge`` and ``bot_act``, queued
by games/receivers.py).
"""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model

from accounts.models import is_computer
from backgammon_site.core.errors import ApplicationError, Conflict
from games import services
from games.computer.decisions import BotLevel, bot_action, level_named
from games.engine import state_from_snapshot
from games.models import Challenge, Match

logger = logging.getLogger(__name__)


def bot_level_of(user_id: int | None) -> BotLevel | None:
    """The level ``user_id`` plays at when it is a bot, else None."""
    if user_id is None:
        return None
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if user is None or not is_computer(user):
        return None
    return level_named(user.profile.bot_level)


def is_challenge_to_a_bot(challenge_id: int) -> bool:
    opponent_id = (
        Challenge.objects.filter(pk=challenge_id).values_list("opponent_id", flat=True).first()
    )
    return bot_level_of(opponent_id) is not None


def bot_decide(*, match_id: int, seq: int) -> str:
    """The bot to act in match ``match_id`` at ``seq`` makes its decision; says what it did.

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
            number=decision.number,
        )
    except Conflict:
        return "stale"
    return decision.action


def bot_accept(*, challenge_id: int) -> str:
    """A bot accepts the open challenge addressed to it; anything else is left alone."""
    challenge = Challenge.objects.filter(pk=challenge_id).first()
    if challenge is None or challenge.status != Challenge.Status.OPEN:
        return "closed"
    if bot_level_of(challenge.opponent_id) is None:
        return "not for a bot"
    try:
        services.challenge_accept(challenge_id=challenge_id, user=challenge.opponent)
    except ApplicationError as error:
        logger.info("bot could not accept challenge %s: %s", challenge_id, error.message)
        return "refused"
    return "accepted"
