"""Shared fixtures.

The test settings need no environment: pyproject.toml's [tool.pytest_env] gives a test-only
DJANGO_SECRET_KEY, because pytest-django imports the settings before any conftest runs.
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import settings as hypothesis_settings

from tests.games.factories import (
    PASSWORD,
    ScriptedDice,
    lose_on_time,
    make_moderator,
    make_user,
    script_dice,
    win_by_award,
)

REPO_ROOT = Path(__file__).resolve().parent.parent

# In CI the property tests and the API fuzzing draw the same examples on every run, so a run is
# red only when the code changed; on a developer's machine they explore new examples each time.
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

RunPython = Callable[..., subprocess.CompletedProcess[str]]

#: The markers a whole folder of tests carries (registered in pyproject.toml).
FOLDER_MARKERS = {
    "browser": pytest.mark.browser,
    "integration": pytest.mark.integration,
    "api_fuzz": pytest.mark.slow,
    "form_fuzz": pytest.mark.slow,
    "perf": pytest.mark.slow,
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by its folder, before -m chooses which tests run; then put the longest
    sets first, so that parallel workers (-n) end together instead of on one long test."""
    tests = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(tests):
            for folder in item.path.relative_to(tests).parts[:-1]:
                if folder in FOLDER_MARKERS:
                    item.add_marker(FOLDER_MARKERS[folder])
    items.sort(key=_set_rank)


def _set_rank(item: pytest.Item) -> int:
    """Integration tests first (the longest, waiting on workers), then browser, slow, fast."""
    return next(
        (
            rank
            for rank, name in enumerate(("integration", "browser", "slow"))
            if item.get_closest_marker(name)
        ),
        3,
    )


#: The sets of tests, in the order a test is counted in the first that names it.
TEST_SETS = ("browser", "integration", "slow")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The time each set of tests took (browser, integration, slow, and the fast rest), summed
    over the processes that ran them: where the suite's time goes."""
    seconds: dict[str, float] = {}
    counts: dict[str, int] = {}
    for outcome in ("passed", "failed", "error", "skipped", ""):
        for report in terminalreporter.stats.get(outcome, []):
            if not hasattr(report, "keywords") or not hasattr(report, "duration"):
                continue
            name = next((set_ for set_ in TEST_SETS if set_ in report.keywords), "fast")
            seconds[name] = seconds.get(name, 0.0) + report.duration
            if report.when == "call" or (outcome == "skipped" and report.when == "setup"):
                counts[name] = counts.get(name, 0) + 1
    if not seconds:
        return
    terminalreporter.write_sep("=", "time by set (summed over the processes)")
    for name in (*TEST_SETS, "fast"):
        if name in seconds:
            terminalreporter.write_line(
                f"{name:12} {counts.get(name, 0):5d} tests {seconds[name]:8.0f} s"
            )


@pytest.fixture
def run_python() -> RunPython:
    """Run `python -c CODE` from the repo root, in this environment changed by `env`.

    A value of None in `env` removes that variable.
    """

    def run(code: str, env: dict[str, str | None]) -> subprocess.CompletedProcess[str]:
        child_env = dict(os.environ)
        for name, value in env.items():
            if value is None:
                child_env.pop(name, None)
            else:
                child_env[name] = value
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO_ROOT,
            env=child_env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    return run


@pytest.fixture(autouse=True)
def _empty_cache() -> Any:
    """Replays and throttles keep state in the cache: no test sees another's."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True, scope="session")
def _flush_past_the_logs_truncate_guard() -> Iterator[None]:
    """After a transactional test Django empties every table with one TRUNCATE, which the match
    log's trigger refuses to everyone (games/migrations/0012). The tests' superuser takes
    PostgreSQL's own way past triggers for that transaction: session_replication_role."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self: DatabaseOperations, *args: Any, **kwargs: Any) -> list[str]:
        statements = truncate(self, *args, **kwargs)
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else []

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


@pytest.fixture(autouse=True)
def _quick_password_hashing(settings: Any) -> None:
    """Passwords in tests protect nothing, and the real hasher takes a noticeable time for each
    one set or checked."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: Debian's GNU Backgammon (package gnubg), where it is installed: CI installs it.
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
NO_GNUBG = "GNU Backgammon is not installed (Debian package: gnubg)"


@pytest.fixture(autouse=True)
def _quick_analyses(settings: Any) -> None:
    """Tasks run in the test's own process (pyproject.toml sets CELERY_TASK_ALWAYS_EAGER), so
    the analysis of every match a test finishes would run too: at 1 ply, bgsage's quickest, and
    without gnubg's second opinion unless a test asks for it (the ``gnubg`` fixture)."""
    settings.MATCH_ANALYSIS_PLIES = 1
    settings.GNUBG_PATH = ""


_ANALYSE_FINISHED_MATCHES = "games.computer.analysis.analyse_finished_matches"


@pytest.fixture(autouse=True)
def _finished_matches_analysed_only_where_asked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A finished match is analysed (about two seconds of bgsage) only in a test that asks for
    it with the ``analyses`` fixture, or that runs a real worker: most tests that finish a match
    are about something else, and their analyses took a third of their time."""
    if "analyses" in request.fixturenames or request.node.get_closest_marker("integration"):
        yield
        return
    from games.receivers import _analyse_finished_matches
    from games.signals import match_changed

    match_changed.disconnect(dispatch_uid=_ANALYSE_FINISHED_MATCHES)
    yield
    match_changed.connect(_analyse_finished_matches, dispatch_uid=_ANALYSE_FINISHED_MATCHES)


@pytest.fixture
def analyses() -> None:
    """Matches this test finishes are analysed, as the service analyses them."""


@pytest.fixture
def gnubg(settings: Any) -> str:
    """Analyses in this test get gnubg's second opinion, at 0 ply (its quickest)."""
    if GNUBG is None:
        pytest.skip(NO_GNUBG)
    settings.GNUBG_PATH = GNUBG
    settings.GNUBG_ANALYSIS_PLIES = 0
    return GNUBG


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> ScriptedDice:
    """The server's dice, scripted by the test: ``dice.add(3, 1)``."""
    return script_dice(monkeypatch)


# The players every test may ask for: each signs in with PASSWORD and has an email address.


@pytest.fixture
def alice(db: Any) -> Any:
    return make_user("alice", password=PASSWORD, email="alice@example.com")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_user("bob", password=PASSWORD, email="bob@example.com")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_user("carol", password=PASSWORD, email="carol@example.com")


@pytest.fixture
def moderator(db: Any) -> Any:
    return make_moderator("mod", password=PASSWORD, email="mod@example.com")


@pytest.fixture
def dropper(dice: Any, alice: Any, bob: Any, moderator: Any) -> Any:
    """Alice lost 2 of her 5 matches of the last 90 days on time (40%), the older 50 days ago;
    one more, 100 days ago, is out of the window."""
    lose_on_time(dice, alice, bob, days_ago=100)
    lose_on_time(dice, alice, bob, days_ago=50)
    lose_on_time(dice, alice, bob, days_ago=10)
    for days_ago in (60, 5, 1):
        win_by_award(dice, alice, bob, moderator, days_ago=days_ago)
    return alice


@pytest.fixture
def signed_in(db: Any) -> Callable[[Any], Client]:
    """A fresh browser signed in as the given player."""

    def sign_in(user: Any) -> Client:
        browser = Client()
        browser.force_login(user)
        return browser

    return sign_in
