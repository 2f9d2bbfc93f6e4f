"""What keeps the service's promises: replayed answers, dice counts, heartbeats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """The first answer to a POST sent with an Idempotency-Key, replayed on a retry."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=100)
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the path and body.")
    status_code = models.PositiveSmallIntegerField(
        null=True, help_text="Empty while the first request is building its answer."
    )
    body = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


class DicePairCount(models.Model):
    """How often a scope (the site, or one player) rolled ``first``-``second``."""

    scope = models.CharField(max_length=40)
    first = models.PositiveSmallIntegerField()
    second = models.PositiveSmallIntegerField()
    count = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "first", "second"], name="dice_pair_once"),
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.first}-{self.second}: {self.count}"


class Heartbeat(models.Model):
    """When a job that keeps the service's promises (the sweep) last finished a run:
    `manage.py health` reads it."""

    name = models.CharField(max_length=40, primary_key=True)
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} at {self.at:%Y-%m-%d %H:%M:%S}"
