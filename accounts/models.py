"""Player profiles: the preferences that change how the service plays for a player."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Profile(models.Model):
    """A player's preferences; created on first use with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    auto_play_forced = models.BooleanField(
        default=True,
        help_text="Play a roll for me when it has only one legal play.",
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=4, help_text="Vacation days available (2 are earned every 30 days, up to 30)."
    )
    vacation_counted_until = models.DateTimeField(
        default=timezone.now, help_text="Vacation days are earned from this moment on."
    )
    vacation_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the vacation now on began; empty when off."
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["vacation_started_at"],
                name="profile_on_vacation",
                condition=models.Q(vacation_started_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"Profile of {self.user}"
