"""What the players of a match say to each other: not part of the match's log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.matches import Match


class ChatMessage(models.Model):
    """Something one player of a match said to the other; not part of the match's log.

    ``seq`` is the match's seq when it was sent, so the conversation reads beside the moves.
    A moderator hides a message rather than deleting it: it stays recorded, with who hid it.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.TextField(max_length=500)
    seq = models.PositiveIntegerField(help_text="The match's seq when the message was sent.")
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The moderator who hid the message.",
    )

    class Meta:
        indexes = [models.Index(fields=["match", "created_at"], name="chat_message_match")]
        permissions = [("moderate_chat", "Can hide players' chat messages")]

    def __str__(self) -> str:
        return f"{self.author} in match {self.match_id}: {self.text[:40]}"


class ChatReport(models.Model):
    """A player's report of a message their opponent sent, for the moderators to handle."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} by {self.reporter}"


class ChatMute(models.Model):
    """A player of a match who silenced their opponent there; the opponent is not told."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "muter"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.muter} muted their opponent in match {self.match_id}"
