"""Rewards for beating the computer: what each level's first defeat unlocks, and how it shows.

A signed-in player's first match won against a computer opponent of a level unlocks that
level's reward, once (``Unlock``, made by games.computer.rewards when the match ends). Beginner
and Intermediate unlock checker colours, Advanced a second checker style, Expert a crown beside
the player's name. The player picks among what they have unlocked in their settings; the choice
lives on their Profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from accounts.models import Profile, Unlock, is_computer, profile_of

CROWN_LABEL = gettext_lazy("crowned: beat the Expert")


@dataclass(frozen=True)
class Reward:
    """What beating ``level`` for the first time unlocks."""

    name: str
    level: str
    title: str
    colours: tuple[str, ...] = ()
    style: str = ""
    crown: bool = False


REWARDS: tuple[Reward, ...] = (
    Reward(
        "beginner-colours",
        "beginner",
        gettext_lazy("Ruby and sapphire checkers"),
        colours=("ruby", "sapphire"),
    ),
    Reward(
        "intermediate-colours",
        "intermediate",
        gettext_lazy("Emerald and gold checkers"),
        colours=("emerald", "gold"),
    ),
    Reward("advanced-style", "advanced", gettext_lazy("Ringed checkers"), style="ringed"),
    Reward("expert-crown", "expert", gettext_lazy("The Expert's crown"), crown=True),
)
REWARDS_BY_LEVEL = {reward.level: reward for reward in REWARDS}
REWARDS_BY_NAME = {reward.name: reward for reward in REWARDS}
#: The colours' and the styles' names as the settings page shows them.
LOOK_NAMES = {
    "ruby": gettext_lazy("Ruby"),
    "sapphire": gettext_lazy("Sapphire"),
    "emerald": gettext_lazy("Emerald"),
    "gold": gettext_lazy("Gold"),
    "ringed": gettext_lazy("Ringed"),
}
COLOURS = tuple(colour for reward in REWARDS for colour in reward.colours)
STYLES = tuple(reward.style for reward in REWARDS if reward.style)


class LockedReward(ValueError):
    """A cosmetic the player has not unlocked yet."""


def can_earn_rewards(user: Any) -> bool:
    """Whether ``user`` keeps what they win: an active, signed-up person.

    Computer opponents earn nothing; nor will guests, once there are any (a profile flag
    ``is_guest``, read here when it exists).
    """
    if user is None or not user.is_active:
        return False
    profile = profile_of(user)
    if profile is None:
        return True
    return not is_computer(user) and not getattr(profile, "is_guest", False)


def unlocked_rewards(user: Any) -> list[Reward]:
    """The rewards ``user`` has unlocked, in the order of the levels."""
    names = set(Unlock.objects.filter(user=user).values_list("reward", flat=True))
    return [reward for reward in REWARDS if reward.name in names]


def appearance_choose(*, user: Any, colour: str, style: str, crown: bool) -> Profile:
    """Set the player's checker colour, checker style and crown; refuses what is still locked.

    An empty colour or style is the board's own.
    """
    unlocked = unlocked_rewards(user)
    if colour and colour not in {c for reward in unlocked for c in reward.colours}:
        raise LockedReward(_locked(f"The {colour} checker colour", colour))
    if style and style not in {reward.style for reward in unlocked}:
        raise LockedReward(_locked(f"The {style} checker style", style))
    if crown and not any(reward.crown for reward in unlocked):
        raise LockedReward(_locked("The crown", "crown"))
    profile, _ = Profile.objects.get_or_create(user=user)
    profile.checker_colour, profile.checker_style, profile.wears_crown = colour, style, crown
    profile.save(update_fields=["checker_colour", "checker_style", "wears_crown"])
    return profile


def _locked(what: str, cosmetic: str) -> str:
    reward = next(
        (r for r in REWARDS if cosmetic in (*r.colours, r.style, "crown" if r.crown else "")),
        None,
    )
    if reward is None:
        return f"{what} does not exist."
    return f"{what} is locked: win a match against the {reward.level.capitalize()} bot first."


def wears_crown(user: Any) -> bool:
    """Whether the Expert's crown shows beside ``user``'s name.

    Lists load ``<user>__profile`` with the user so this costs no query.
    """
    profile = profile_of(user) if user is not None else None
    return bool(profile is not None and profile.wears_crown)
