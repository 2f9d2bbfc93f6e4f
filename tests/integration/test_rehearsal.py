"""`manage.py rehearsal --short` end to end: its own PostgreSQL database and Redis, two web
servers behind HAProxy, two workers and beat, nodes killed under load, and a clean last line."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse

import pytest

from games.management.rehearsal.stack import missing_programs
from tests.conftest import REPO_ROOT

LAST_LINE_WORDS = [
    "rehearsal:",
    "actions",
    "lost",
    "duplicated",
    "timeouts",
    "applied_once",
    "errors_outside_kills",
]


def postgres_server() -> str | None:
    """The PostgreSQL server the tests use, as a URL to its maintenance database."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    return urllib.parse.urlsplit(url)._replace(path="/postgres").geturl()


def test_the_short_rehearsal_loses_nothing_and_applies_each_timeout_once():
    server = postgres_server()
    if server is None:
        pytest.skip("the rehearsal creates a database of its own on PostgreSQL (DATABASE_URL)")
    missing = missing_programs()
    if missing:
        pytest.skip(f"the rehearsal needs {', '.join(missing)} (.ci/run installs them)")

    finished = subprocess.run(
        [sys.executable, "manage.py", "rehearsal", "--short", f"--postgres={server}"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )

    lines = finished.stdout.splitlines()
    assert lines, finished.stderr[-3000:]
    words = lines[-1].split()
    report = finished.stdout[-4000:] + finished.stderr[-3000:]
    assert words[0] == LAST_LINE_WORDS[0] and words[1::2] == LAST_LINE_WORDS[1:], report
    figures = dict(zip(words[1::2], words[2::2], strict=True))
    assert int(figures["actions"]) > 100, report
    assert figures["lost"] == figures["duplicated"] == figures["errors_outside_kills"] == "0", (
        report
    )
    assert int(figures["timeouts"]) > 0 and figures["applied_once"] == figures["timeouts"], report
    assert finished.returncode == 0, report
