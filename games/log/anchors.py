"""Anchors: every match's head digest, listed, signed and kept outside the database.

The digest chain catches an edit by anyone who cannot recompute it; the tables' owner can
(disable the trigger, edit an event, recompute the chain). An anchor file lists each match's
seq and head digest as they stood when it was written, signed with LOG_ANCHOR_KEY, a key the
database never holds, and is written where the database roles cannot write. Checked later, a
log rewritten at or before its anchored seq no longer reaches the anchored digest, and a match
that vanished is missed (a match that began between guests may go: the guest purge removes
it). docs/database-role.md says what this stops and what it does not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.log.records import began_between_guests
from games.models import Match, MatchEvent

SCHEME = "hmac-sha256-v1"
MIN_KEY_LENGTH = 32
CHUNK = 500


class AnchorError(Exception):
    """Anchors cannot be written or read: no key, no such file, not an anchor file."""


def anchor_key() -> bytes:
    key = settings.LOG_ANCHOR_KEY
    if len(key) < MIN_KEY_LENGTH:
        raise AnchorError(
            f"LOG_ANCHOR_KEY must be set to at least {MIN_KEY_LENGTH} characters, kept out of "
            'the database: python -c "import secrets; print(secrets.token_urlsafe(32))"'
        )
    return key.encode()


def _signature(body: dict[str, Any], key: bytes) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    return hmac.new(key, canonical, hashlib.sha256).hexdigest()


def anchored_heads() -> Iterator[list[Any]]:
    """``[match id, seq, head digest, began between guests]`` for every match with a log."""
    matches = Match.objects.filter(seq__gt=0).order_by("pk").values_list("pk", "seq", "head_digest")
    chunk: list[tuple[int, int, str]] = []
    for row in matches.iterator(chunk_size=CHUNK):
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield from _with_starts(chunk)
            chunk = []
    yield from _with_starts(chunk)


def _with_starts(chunk: list[tuple[int, int, str]]) -> Iterator[list[Any]]:
    starts = dict(
        MatchEvent.objects.filter(
            match_id__in=[pk for pk, _, _ in chunk], seq=1, kind="match_started"
        ).values_list("match_id", "payload")
    )
    for pk, seq, digest in chunk:
        yield [pk, seq, digest, began_between_guests(starts.get(pk, {}))]


def anchors_write(directory: Path, *, now: datetime | None = None) -> Path:
    """Write the anchor file of every match's head now into ``directory``; its path. The file
    appears only once complete, readable and writable by its owner alone."""
    key = anchor_key()
    if not directory.is_dir():
        raise AnchorError(f"{directory}: no such directory for the anchors")
    written_at = (now or timezone.now()).astimezone(UTC)
    body = {
        "scheme": SCHEME,
        "written_at": written_at.isoformat(),
        "matches": list(anchored_heads()),
    }
    path = directory / f"anchors-{written_at:%Y-%m-%dT%H%M%SZ}.json"
    partial = path.with_name(path.name + ".partial")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump({**body, "signature": _signature(body, key)}, file)
    partial.replace(path)
    return path


def anchor_files(path: Path) -> list[Path]:
    """``path`` itself, or every anchor file in the directory ``path``, oldest first."""
    if path.is_dir():
        files = sorted(path.glob("anchors-*.json"))
        if not files:
            raise AnchorError(f"{path}: no anchor files (anchors-*.json) in this directory")
        return files
    if path.is_file():
        return [path]
    raise AnchorError(f"{path}: no such anchor file or directory")


def anchors_check(files: Iterable[Path]) -> list[str]:
    """Every way the database disagrees with the anchor files; empty when it agrees."""
    key = anchor_key()
    problems: list[str] = []
    for path in files:
        try:
            signed = json.loads(path.read_text())
            body = {name: signed[name] for name in ("scheme", "written_at", "matches")}
            signature = signed["signature"]
        except (OSError, ValueError, KeyError, TypeError) as error:
            problems.append(f"{path.name}: not an anchor file ({error})")
            continue
        if not hmac.compare_digest(str(signature), _signature(body, key)):
            problems.append(
                f"{path.name}: its signature is not LOG_ANCHOR_KEY's (altered, or signed with "
                "another key)"
            )
            continue
        entries = body["matches"]
        for start in range(0, len(entries), CHUNK):
            problems += _chunk_problems(path.name, entries[start : start + CHUNK])
    return problems


def _chunk_problems(name: str, entries: list[list[Any]]) -> list[str]:
    ids = [entry[0] for entry in entries]
    live = set(Match.objects.filter(pk__in=ids).values_list("pk", flat=True))
    digests = {
        (match_id, seq): digest
        for match_id, seq, digest in MatchEvent.objects.filter(
            match_id__in=ids, seq__in={entry[1] for entry in entries}
        ).values_list("match_id", "seq", "digest")
    }
    problems = []
    for match_id, seq, digest, between_guests in entries:
        if match_id not in live:
            if not between_guests:
                problems.append(f"match {match_id}: anchored in {name} at #{seq}, and gone")
        elif digests.get((match_id, seq)) != digest:
            problems.append(
                f"match {match_id}: its log at #{seq} is not the one anchored in {name} "
                "(rewritten or cut)"
            )
    return problems
