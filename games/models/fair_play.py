"""Fair-play signals for moderators: each analysed rated correspondence match weighed against
what the player's rating and history predict, and the cases opened when a run of matches is
improbably good (games/services/fair_play.py, docs/fair-play.md). Never shown to players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.matches import Match


class FairPlayCase(models.Model):
    """An improbable run of one player's matches, for a moderator to judge: opened by the
    statistic, never decided by it. One open case per player; later matches join it."""

    class Status(models.TextChoices):
        OPEN = "open", "open"
        DISMISSED = "dismissed", "dismissed"
        CONFIRMED = "confirmed", "confirmed"

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fair_play_cases"
    )
    opened_at = models.DateTimeField(default=timezone.now)
    statistic = models.FloatField(help_text="The CUSUM when the case opened (or last rose).")
    threshold = models.FloatField(help_text="The CUSUM's threshold then.")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN)
    note = models.TextField(blank=True, help_text="The moderator's note.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["player"],
                condition=models.Q(status="open"),
                name="fair_play_one_open_case",
            ),
        ]

    def __str__(self) -> str:
        return f"Fair-play case {self.pk}: {self.player} ({self.status})"


class FairPlayMatch(models.Model):
    """One player's figures in one analysed match, weighed by the statistic: the evidence of
    a case. ``decisions_made`` lists the player's decisions as the analysis weighed them:
    ``{seq, kind, position_id, chosen, best, equity_lost}``."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="fair_play_matches"
    )
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    case = models.ForeignKey(
        FairPlayCase,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="matches",
    )
    analysed_at = models.DateTimeField(default=timezone.now)
    rating = models.FloatField(help_text="The player's rating before the match.")
    decisions = models.PositiveIntegerField()
    errors = models.PositiveIntegerField(help_text="Errors and blunders.")
    expected_rate = models.FloatField()
    z = models.FloatField(help_text="How many errors fewer than expected, in deviations.")
    statistic = models.FloatField(help_text="The CUSUM after this match.")
    decisions_made = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-analysed_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["player", "match"], name="fair_play_match_once"),
        ]
        indexes = [
            models.Index(fields=["player", "-analysed_at"], name="fair_play_history"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in match {self.match_id}"

    @property
    def error_rate(self) -> float:
        return self.errors / self.decisions if self.decisions else 0.0
