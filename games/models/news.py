"""News recorded for players, to be emailed once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.challenges import Challenge
from games.models.matches import Match


class Notification(models.Model):
    """One piece of news for one player, recorded once and emailed at most once.

    ``key`` names the news itself (``your_turn:match:7:turn:31``), so a signal sent twice or a
    task run twice finds the row already there; ``delivery`` is the player's choice when it
    was recorded: at once, or in the next daily digest.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", "your turn"
        CHALLENGE = "challenge", "a challenge"
        DEADLINE = "deadline", "a deadline approaching"
        MATCH_FINISHED = "match_finished", "a match finished"
        TOURNAMENT_MATCH = "tournament_match", "a tournament match started"

    class Delivery(models.TextChoices):
        IMMEDIATELY = "immediately", "at once"
        DIGEST = "digest", "daily digest"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        SKIPPED = "skipped", "skipped"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=100)
    delivery = models.CharField(max_length=16, choices=Delivery.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    challenge = models.ForeignKey(
        Challenge, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The match's seq the news is about (a turn's start)."
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_once"),
        ]
        indexes = [
            models.Index(fields=["status", "delivery", "user"], name="notification_pending"),
        ]

    def __str__(self) -> str:
        return f"{self.key} for {self.user}"
