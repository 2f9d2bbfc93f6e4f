"""The audit record: what a director or a moderator did to a player outside any match's log
(a removal from an event, a suspension, a fair-play case decided), modelled on Zulip's
RealmAuditLog.

One append-only table: each row is written by games/services/ in the same transaction as the
change it records, and never changed afterwards (on PostgreSQL the database refuses it too).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models.matches import AppendOnlyError


class AuditRecord(models.Model):
    """Who acted, on whom, what they did, when and why; ``details`` holds the facts of the
    kind (the event removed from, the matches forfeited or paused)."""

    class Kind(models.TextChoices):
        EVENT_ENTRY_REMOVED = "event_entry_removed", "removed from an event"
        ACCOUNT_SUSPENDED = "account_suspended", "account suspended"
        ACCOUNT_REACTIVATED = "account_reactivated", "account reactivated"
        FAIR_PLAY_CASE_DECIDED = "fair_play_case_decided", "fair-play case decided"

    acting_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    modified_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="audit_records"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    created_at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=500)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["modified_user", "kind", "-created_at"], name="audit_of_user"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.modified_user} by {self.acting_user}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            raise AppendOnlyError("Audit records are append-only: a record is never changed.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        raise AppendOnlyError("Audit records are append-only: a record is never deleted.")
