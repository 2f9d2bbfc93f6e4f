"""Invitations to a match."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon_site.core.variants import DEFAULT_VARIANT, variant_title
from games.models.matches import Match


class Challenge(models.Model):
    """An invitation to a match: to one player, or open to anyone when ``opponent`` is None."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELLED = "cancelled", "cancelled"

    class MatchFormat(models.TextChoices):
        POINTS = "points", "to N points"
        BEST_OF_THREE = "best_of_three", "best of three games (Tavli)"

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    opponent = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="challenges_received",
    )
    match_length = models.PositiveSmallIntegerField(default=5)
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT)
    match_format = models.CharField(
        max_length=16, choices=MatchFormat.choices, default=MatchFormat.POINTS
    )
    cube = models.BooleanField(default=True, help_text="The match is played with the cube.")
    rated = models.BooleanField(default=True)
    time_control = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    challenger_seed = models.CharField(
        max_length=200, blank=True, help_text="The challenger's own dice seed, if they gave one."
    )
    match = models.OneToOneField(
        Match, on_delete=models.PROTECT, null=True, blank=True, related_name="challenge"
    )
    challenger_plays_first = models.BooleanField(
        default=True, help_text="The challenger takes the first player's seat and colour."
    )
    rematch_of = models.ForeignKey(
        Match,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematches",
        help_text="The finished match this challenge offers to play again.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "opponent"], name="challenge_status_opponent"),
            models.Index(fields=["status", "challenger"], name="challenge_status_challenger"),
        ]

    def __str__(self) -> str:
        return f"Challenge {self.pk}: {self.challenger} to {self.opponent or 'anyone'}"

    @property
    def variant_title(self) -> str:
        """The challenge's variant for people, in the reader's language."""
        return variant_title(self.variant)
