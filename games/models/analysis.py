"""Matches played elsewhere, and the computer's reviews of matches."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.matches import Match


class ImportedMatch(models.Model):
    """A match played elsewhere, read from a .mat file and checked by the engine.

    ``events`` are its rules events as ``{"kind", "payload"}`` in MatchEvent's payload form,
    so a replay or an analysis reads them as it reads a match's log; ``mat_text`` is the file
    as uploaded.
    """

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="imported_matches"
    )
    first_player_name = models.CharField(max_length=100)
    second_player_name = models.CharField(max_length=100)
    match_length = models.PositiveSmallIntegerField()
    mat_text = models.TextField()
    events = models.JSONField()
    score = models.JSONField(help_text="The score where the file ends: [first, second].")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["uploaded_by", "-created_at"], name="imported_match_uploader"),
        ]

    def __str__(self) -> str:
        return f"Imported match {self.pk}: {self.first_player_name} v {self.second_player_name}"

    @property
    def names(self) -> tuple[str, str]:
        return self.first_player_name, self.second_player_name


class MatchAnalysis(models.Model):
    """The review of a match's decisions by bgsage and, where it is installed, GNU Backgammon
    (games.computer.review), up to event ``seq``.

    Of a match played here (``match``) or of one imported (``imported``), never both.
    ``result`` is ``MatchReview.to_json()`` with each decision's ``seq``: its event's seq in a
    match's log, or its step in an imported match's replay (its place among the events, from 1).
    ``plies`` is bgsage's depth; gnubg's is in ``result["engines"]``.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        DONE = "done", "done"
        FAILED = "failed", "failed"

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, related_name="analysis", null=True, blank=True
    )
    imported = models.OneToOneField(
        ImportedMatch, on_delete=models.CASCADE, related_name="analysis", null=True, blank=True
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    seq = models.PositiveIntegerField(default=0, help_text="The last event analysed.")
    plies = models.PositiveSmallIntegerField(default=2)
    result = models.JSONField(default=dict, blank=True)
    requested_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=False, imported__isnull=True)
                | models.Q(match__isnull=True, imported__isnull=False),
                name="analysis_of_one_match",
            ),
        ]

    def __str__(self) -> str:
        if self.match_id is None:
            return f"Analysis of imported match {self.imported_id} ({self.status})"
        return f"Analysis of match {self.match_id} ({self.status})"
