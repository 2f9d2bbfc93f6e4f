"""Player profiles: the preferences that change how the service plays for a player."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Profile(models.Model):
    """A player's preferences; created on first use with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    auto_play_forced = models.BooleanField(
        default=True,
        help_text="Play a roll for me when it has only one legal play.",
    )
    bot_level = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=[
            ("beginner", "Beginner"),
            ("intermediate", "Intermediate"),
            ("advanced", "Advanced"),
            ("expert", "Expert"),
        ],
        help_text="Set on the computer opponents only: the level the bot plays at.",
    )

    def __str__(self) -> str:
        return f"Profile of {self.user}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)
