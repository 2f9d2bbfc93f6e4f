"""Backups of the PostgreSQL database, and the check that a backup restores to the same logs.

``database_dump`` runs pg_dump (custom format) in one snapshot while the service runs on.
``restore_check`` restores such a file into a scratch database beside the live one and checks
three things there: every log replays and chains (as ``manage.py verify_matches``), every
restored match's head digest is the live log's digest at the restored seq (the live database
may have moved on since the backup, never aside), and the append-only trigger came back and
still refuses UPDATE, DELETE and TRUNCATE of events (docs/deployment.md, "Backups").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from django.conf import settings
from django.db import DatabaseError, connections

from games.models import GENESIS_DIGEST, Match, MatchEvent

#: The triggers of games/migrations/0002 and 0012 that keep the match log append-only.
APPEND_ONLY_TRIGGERS = ("games_matchevent_append_only", "games_matchevent_no_truncate")
MATCHES = Match._meta.db_table
EVENTS = MatchEvent._meta.db_table
#: Restored heads compared with the live log per query.
HEADS_BATCH = 2000


class BackupError(Exception):
    """A backup or a restore that could not be made; the message says why."""


@dataclass
class RestoreReport:
    """What ``restore_check`` found; sound when ``mismatches`` and ``append_only_problems``
    are both empty."""

    matches: int = 0
    events: int = 0
    mismatches: list[str] = field(default_factory=list)
    append_only_problems: list[str] = field(default_factory=list)
    moved_on: int = 0  # live matches with events after the backup's last
    gone: list[int] = field(default_factory=list)  # restored matches no longer live (purged)
    newer: int = 0  # live matches started after the backup


def postgresql_settings(alias: str = "default") -> dict[str, Any]:
    """The connection settings of ``alias``; a BackupError unless it is PostgreSQL."""
    wrapper = connections[alias]
    if wrapper.vendor != "postgresql":
        raise BackupError(
            f"backups use PostgreSQL's pg_dump and pg_restore; the database is {wrapper.vendor} "
            "(set DATABASE_URL to a postgres:// URL)"
        )
    return wrapper.settings_dict


def libpq_environment(database: dict[str, Any]) -> dict[str, str]:
    """The environment that points pg_dump and pg_restore at ``database`` (the password
    stays out of the command line)."""
    values = {
        "PGHOST": database.get("HOST"),
        "PGPORT": database.get("PORT"),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGDATABASE": database.get("NAME"),
        "PGSSLMODE": database.get("OPTIONS", {}).get("sslmode"),
    }
    return {**os.environ, **{name: str(value) for name, value in values.items() if value}}


def database_dump(database: dict[str, Any], path: Path) -> None:
    """Dump ``database`` to ``path`` with ``pg_dump --format=custom``.

    pg_dump reads every table in one repeatable-read snapshot and takes only ACCESS SHARE
    locks, so the service goes on while it runs and the file holds each match exactly as one
    moment saw it. The file appears only once complete, readable by its owner alone (it holds
    email addresses and password hashes).
    """
    partial = path.with_name(path.name + ".partial")
    try:
        _run(
            [_tool("pg_dump"), "--format=custom", "--no-password", f"--file={partial}"],
            libpq_environment(database),
        )
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)


def scratch_name(database: dict[str, Any]) -> str:
    return f"{database['NAME']}_restore_check"[:63]


def scratch_restore(database: dict[str, Any], path: Path, scratch: str, *, jobs: int) -> None:
    """Create the empty database ``scratch`` beside ``database`` and restore ``path`` into
    it. Owners and grants are left out: the scratch copy belongs to whoever checks it and no
    service role reads it."""
    if not path.is_file():
        raise BackupError(f"{path}: no such backup file")
    quoted = connections["default"].ops.quote_name(scratch)
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [scratch])
        if cursor.fetchone():
            raise BackupError(
                f"the scratch database {scratch} exists already (a run with --keep?): "
                "drop it or name another with --scratch"
            )
        try:
            cursor.execute(f"CREATE DATABASE {quoted} TEMPLATE template0")
        except DatabaseError as error:
            raise BackupError(f"cannot create the scratch database {scratch}: {error}") from error
    try:
        _run(
            [_tool("pg_restore"), "--no-owner", "--no-acl", "--exit-on-error", "--no-password"]
            + [f"--jobs={jobs}", f"--dbname={scratch}", str(path)],
            libpq_environment(database),
        )
    except BackupError:
        scratch_drop(scratch)
        raise


def scratch_drop(scratch: str) -> None:
    quoted = connections["default"].ops.quote_name(scratch)
    with connections["default"].cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")


def restore_check(database: dict[str, Any], scratch: str) -> RestoreReport:
    """Check the restored database ``scratch`` against itself and against the live one."""
    report = RestoreReport()
    with _connect(database, scratch) as restored:
        report.append_only_problems = append_only_problems(restored)
        report.events = restored.execute(f"SELECT count(*) FROM {EVENTS}").fetchone()[0]
        heads = restored.execute(f"SELECT id, seq, head_digest FROM {MATCHES} ORDER BY id")
        heads = heads.fetchall()
    report.matches = len(heads)
    report.mismatches += _verify_matches(database, scratch)
    for start in range(0, len(heads), HEADS_BATCH):
        _compare_heads(heads[start : start + HEADS_BATCH], report)
    live_matches = Match.objects.using("default").count()
    report.newer = live_matches - (len(heads) - len(report.gone))
    return report


def _verify_matches(database: dict[str, Any], scratch: str) -> list[str]:
    """``manage.py verify_matches`` run on the restore, in a process of its own: the problems
    it names."""
    finished = subprocess.run(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "verify_matches"],
        env={**os.environ, "DATABASE_URL": database_url({**database, "NAME": scratch})},
        capture_output=True,
        text=True,
        check=False,
    )
    problems = [line for line in finished.stderr.splitlines() if line.startswith("match ")]
    if finished.returncode != 0 and not problems:
        raise BackupError(f"verify_matches could not check the restore: {finished.stderr}")
    return problems


def database_url(database: dict[str, Any]) -> str:
    """A DATABASE_URL naming ``database`` (a host that is a socket folder is percent-encoded,
    as dj-database-url reads it)."""
    user = quote(str(database.get("USER") or ""), safe="")
    password = quote(str(database.get("PASSWORD") or ""), safe="")
    login = f"{user}:{password}@" if password else f"{user}@" if user else ""
    host = quote(str(database.get("HOST") or ""), safe="")
    port = f":{database['PORT']}" if database.get("PORT") else ""
    sslmode = database.get("OPTIONS", {}).get("sslmode")
    query = f"?sslmode={sslmode}" if sslmode else ""
    return f"postgres://{login}{host}{port}/{quote(str(database['NAME']), safe='')}{query}"


def _compare_heads(heads: list[tuple[int, int, str]], report: RestoreReport) -> None:
    """Each restored head digest against the live log's digest at the restored seq."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            f"""
            SELECT wanted.id, live.seq, event.digest
            FROM unnest(%s::bigint[], %s::bigint[]) AS wanted(id, seq)
            LEFT JOIN {MATCHES} live ON live.id = wanted.id
            LEFT JOIN {EVENTS} event ON event.match_id = wanted.id AND event.seq = wanted.seq
            """,
            [[pk for pk, _, _ in heads], [seq for _, seq, _ in heads]],
        )
        live = {pk: (seq, digest) for pk, seq, digest in cursor.fetchall()}
    for pk, seq, head_digest in heads:
        live_seq, live_digest = live[pk]
        if live_seq is None:
            report.gone.append(pk)
            continue
        if live_seq < seq:
            report.mismatches.append(
                f"match {pk}: the live log ends at #{live_seq}, before the backup's #{seq}"
            )
            continue
        if (live_digest if seq else GENESIS_DIGEST) != head_digest:
            report.mismatches.append(
                f"match {pk}: the backup's head digest at #{seq} is not the live log's"
            )
        if live_seq > seq:
            report.moved_on += 1


def append_only_problems(restored: psycopg.Connection[Any]) -> list[str]:
    """What is wrong with the append-only guard of the restored database: each trigger must
    be there, enabled, and refuse its statement. Every statement tried is rolled back."""
    problems: list[str] = []
    found = restored.execute(
        "SELECT tgname, tgenabled FROM pg_trigger"
        " WHERE tgrelid = %s::regclass AND NOT tgisinternal",
        [EVENTS],
    )
    enabled = {name: state in ("O", "A") for name, state in found.fetchall()}
    for trigger in APPEND_ONLY_TRIGGERS:
        if trigger not in enabled:
            problems.append(f"the trigger {trigger} is missing")
        elif not enabled[trigger]:
            problems.append(f"the trigger {trigger} is disabled")
    one_event = f"WHERE id = (SELECT min(id) FROM {EVENTS})"
    attempts = {
        "UPDATE": f"UPDATE {EVENTS} SET kind = kind {one_event}",
        "DELETE": f"DELETE FROM {EVENTS} {one_event}",
        "TRUNCATE": f"TRUNCATE {EVENTS}",
    }
    with restored.transaction() as attempt:
        has_events = restored.execute(f"SELECT EXISTS (SELECT 1 FROM {EVENTS})").fetchone()[0]
        for statement, sql in attempts.items():
            if statement != "TRUNCATE" and not has_events:
                continue
            try:
                with restored.transaction():
                    restored.execute(sql)
            except psycopg.errors.RestrictViolation:
                continue
            problems.append(f"the restored database lets {statement} of events through")
        raise psycopg.Rollback(attempt)
    return problems


def _connect(database: dict[str, Any], name: str) -> psycopg.Connection[Any]:
    values = {
        "host": database.get("HOST"),
        "port": database.get("PORT"),
        "user": database.get("USER"),
        "password": database.get("PASSWORD"),
        "sslmode": database.get("OPTIONS", {}).get("sslmode"),
    }
    present = {key: str(value) for key, value in values.items() if value}
    return psycopg.connect(dbname=name, autocommit=True, **present)


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not on the PATH: install PostgreSQL's client tools "
            "(Debian: postgresql-client), the same major version as the server or newer"
        )
    return found


def _run(command: list[str], env: dict[str, str]) -> None:
    finished = subprocess.run(
        command, env=env, capture_output=True, text=True, check=False, umask=0o077
    )
    if finished.returncode != 0:
        tool = Path(command[0]).name
        raise BackupError(f"{tool} failed (exit {finished.returncode}): {finished.stderr.strip()}")
