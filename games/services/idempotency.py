"""Idempotency-Key records: the first answer to a keyed POST, replayed on a retry for a day.

After ``KEY_LIFETIME`` a key is forgotten: the API treats it as new (and replaces its record),
and the daily purge deletes the records that old.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import IdempotencyRecord

KEY_LIFETIME = timedelta(days=1)


def idempotency_cutoff(now: datetime | None = None) -> datetime:
    """Records made before this have expired."""
    return (now or timezone.now()) - KEY_LIFETIME


def idempotency_records_purge(*, now: datetime | None = None) -> int:
    """Delete the expired records; how many went."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=idempotency_cutoff(now)).delete()
    return deleted
