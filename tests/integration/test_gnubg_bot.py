"""GNU Backgammon plays a whole match against the site's ExpertBot through the live stack:
examples/gnubg_bot.py, in a process of its own, hears of each turn on the event stream of the
site served under daphne in another process, where the ExpertBot's replies run (the tests' Celery
is eager: the task runs in the process whose change queued it)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from knox.models import AuthToken

from accounts.models import Profile
from games.models import Match
from games.receivers import _analyse_finished_matches
from games.signals import match_changed
from tests.browser.conftest import daphne
from tests.conftest import _ANALYSE_FINISHED_MATCHES as ANALYSE_FINISHED_MATCHES
from tests.conftest import REPO_ROOT
from tests.games.factories import make_user, migration_made_rows
from tests.integration.conftest import needs_postgres_and_redis

GNUBG = "/usr/games/gnubg"

pytestmark = [
    needs_postgres_and_redis,
    pytest.mark.skipif(not os.access(GNUBG, os.X_OK), reason="needs gnubg (Debian's gnubg)"),
    pytest.mark.django_db(transaction=True),
]

#: Generous: the match takes a minute or two; a loaded machine may take several.
MATCH_BUDGET = 1500


@pytest.fixture
def no_analysis() -> Iterator[None]:
    """The finished match is not analysed in the server's process: a minute of bgsage that
    this test is not about (the server forks with this process's receivers)."""
    match_changed.disconnect(dispatch_uid=ANALYSE_FINISHED_MATCHES)
    yield
    match_changed.connect(_analyse_finished_matches, dispatch_uid=ANALYSE_FINISHED_MATCHES)


def test_gnubg_plays_a_whole_three_point_match_through_the_event_stream(no_analysis) -> None:
    migration_made_rows()
    program = make_user("gnubg")
    Profile.objects.create(user=program, is_program=True)
    token = AuthToken.objects.create(program)[1]
    with daphne() as base:
        done = subprocess.run(
            [sys.executable, str(REPO_ROOT / "examples" / "gnubg_bot.py"), base]
            + ["--token", token, "--challenge", "ExpertBot", "--length", "3"]
            + ["--matches", "1", "--plies", "0", "--gnubg", GNUBG],
            capture_output=True,
            text=True,
            timeout=MATCH_BUDGET,
        )
    assert done.returncode == 0, (done.stdout[-3000:], done.stderr[-3000:])
    match = Match.objects.get(first_player__username__in=["gnubg", "ExpertBot"])
    assert match.status == Match.Status.FINISHED and match.match_length == 3
    assert {match.first_player.username, match.second_player.username} == {"gnubg", "ExpertBot"}
    assert match.winner is not None and not match.rated
    assert f"match {match.pk} ended: {match.winner.username} won" in done.stdout
    moves = [line for line in done.stdout.splitlines() if ": move " in line]
    assert moves, done.stdout[-3000:]
    assert "refused" not in done.stdout, done.stdout[-3000:]
    assert "the stream dropped" not in done.stderr, done.stderr[-3000:]
