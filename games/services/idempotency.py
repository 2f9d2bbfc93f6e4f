"""Idempotency-Key records: the first answer to a keyed POST, replayed on a retry for a day.

A keyed request claims its key in the transaction of what it does (``idempotency_claim``), so
the action and its record are kept together or not at all, and a second request with the key
finds the claim once the first has committed. The answer is built after that transaction, with
its locks released, and kept in the record then (``idempotency_answer_keep``); a retry that
comes meanwhile waits for it (``idempotency_answer_wait``). When it does not come (the first
request's process died between its commit and keeping its answer), the retry may build the
answer from what is there now and keep it instead, for the retries after it.

After ``KEY_LIFETIME`` a key is forgotten: it is new again (its record is replaced), and the
daily purge deletes the records that old.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, Conflict
from games.models import IdempotencyRecord

KEY_LIFETIME = timedelta(days=1)
#: How long a retry waits for the answer of the first request with its key, made meanwhile.
ANSWER_WAIT = timedelta(seconds=10)
_ANSWER_POLL_SECONDS = 0.02


@dataclass(frozen=True)
class IdempotencyKey:
    """A user's key and what it was sent with: the fingerprint (SHA-256) of path and body."""

    user_id: int
    key: str
    fingerprint: str

    def records(self) -> QuerySet[IdempotencyRecord]:
        return IdempotencyRecord.objects.filter(user_id=self.user_id, key=self.key)


def idempotency_cutoff(now: datetime | None = None) -> datetime:
    """Records made before this have expired."""
    return (now or timezone.now()) - KEY_LIFETIME


def idempotency_record_find(key: IdempotencyKey) -> IdempotencyRecord | None:
    """The key's record of the last day (answered or still being answered), if any;
    ApplicationError if it was claimed for a different request."""
    record = key.records().filter(created_at__gte=idempotency_cutoff()).first()
    if record is not None and record.fingerprint != key.fingerprint:
        raise ApplicationError(
            "This Idempotency-Key was used for a different request.", "idempotency_key_reused"
        )
    return record


def idempotency_claim(key: IdempotencyKey) -> None:
    """Claim ``key`` in the caller's transaction, the one that acts, its answer still to come.

    An expired record of the key goes; a claim of the same key by another transaction raises
    IntegrityError (after waiting for it to commit), which rolls back the caller's."""
    key.records().filter(created_at__lt=idempotency_cutoff()).delete()
    IdempotencyRecord.objects.create(
        user_id=key.user_id, key=key.key, fingerprint=key.fingerprint, status_code=None
    )


def idempotency_answer_keep(key: IdempotencyKey, *, status_code: int, body: Any) -> None:
    """Keep the answer of the request that claimed ``key``, for its retries."""
    key.records().filter(status_code__isnull=True).update(status_code=status_code, body=body)


def idempotency_answer_wait(
    key: IdempotencyKey, record: IdempotencyRecord
) -> IdempotencyRecord | None:
    """``record`` once answered: a retry that came while the first request was building its
    answer waits for it (ANSWER_WAIT at most); None if it does not come."""
    deadline = time.monotonic() + ANSWER_WAIT.total_seconds()
    while record.status_code is None:
        if time.monotonic() >= deadline:
            return None
        time.sleep(_ANSWER_POLL_SECONDS)
        record.refresh_from_db(fields=["status_code", "body"])
    return record


def idempotency_answer_missing() -> Conflict:
    """The refusal of a retry whose first request was carried out but never answered, where
    the answer cannot be built again."""
    return Conflict(
        _(
            "The request first sent with this Idempotency-Key was carried out, but its "
            "answer is not ready (still being made, or lost): read the state again."
        ),
        code="idempotency_answer_pending",
    )


def idempotency_records_purge(*, now: datetime | None = None) -> int:
    """Delete the expired records; how many went."""
    deleted, _count = IdempotencyRecord.objects.filter(
        created_at__lt=idempotency_cutoff(now)
    ).delete()
    return deleted
