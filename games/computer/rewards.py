"""Unlocking the rewards for beating the computer when a match ends.

What each level's reward is, and how a player shows it, is accounts.rewards'.
"""

from __future__ import annotations

from accounts.models import Profile, Unlock, is_computer, profile_of
from accounts.rewards import REWARDS_BY_LEVEL, can_earn_rewards
from games.models import Match


def unlock_for_match(match_id: int) -> Unlock | None:
    """The unlock a finished match earns its winner, created once; None if it earns none.

    Safe to call any number of times for the same match.
    """
    match = (
        Match.objects.select_related(
            "first_player__profile", "second_player__profile", "winner__profile"
        )
        .filter(pk=match_id, status=Match.Status.FINISHED, winner__isnull=False)
        .first()
    )
    if match is None:
        return None
    winner = match.winner
    loser = match.second_player if match.winner_id == match.first_player_id else match.first_player
    loser_profile = profile_of(loser)
    if loser_profile is None or not is_computer(loser) or not can_earn_rewards(winner):
        return None
    reward = REWARDS_BY_LEVEL.get(loser_profile.bot_level)
    if reward is None:
        return None
    unlock, created = Unlock.objects.get_or_create(
        user=winner, reward=reward.name, defaults={"match": match}
    )
    if created and reward.crown:
        # A crown just won is worn at once; the player may take it off in their settings.
        Profile.objects.update_or_create(user=winner, defaults={"wears_crown": True})
    return unlock
