"""The computer opponents in the service: which accounts are bots, and when they act.

A bot is an ordinary account whose profile has a ``bot_level``. It accepts the challenges
addressed to it at once and acts whenever a match waits for it, through the same services as
everyone else, from Celery tasks (``games.tasks.bot_accept_challenge`` and ``bot_act``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.dispatch import receiver

from accounts.models import is_computer
from games.computer.decisions import BotLevel, level_named
from games.signals import challenge_created, match_changed


def bot_level_of(user_id: int | None) -> BotLevel | None:
    """The level ``user_id`` plays at when it is a bot, else None."""
    if user_id is None:
        return None
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if user is None or not is_computer(user):
        return None
    return level_named(user.profile.bot_level)


@receiver(match_changed, dispatch_uid="games.computer.bot_accounts.act_when_a_bot_is_to_act")
def _act_when_a_bot_is_to_act(
    sender: Any, *, match_id: int, seq: int, to_act_id: int | None, **kwargs: Any
) -> None:
    if kwargs.get("bot_to_act") is False:
        return
    if bot_level_of(to_act_id) is not None:
        from games.tasks import bot_act

        bot_act.delay(match_id, seq)


@receiver(challenge_created, dispatch_uid="games.computer.bot_accounts.accept_challenges_to_bots")
def _accept_challenges_to_bots(sender: Any, *, challenge_id: int, **kwargs: Any) -> None:
    from games.models import Challenge
    from games.tasks import bot_accept_challenge

    opponent_id = (
        Challenge.objects.filter(pk=challenge_id).values_list("opponent_id", flat=True).first()
    )
    if bot_level_of(opponent_id) is not None:
        bot_accept_challenge.delay(challenge_id)
