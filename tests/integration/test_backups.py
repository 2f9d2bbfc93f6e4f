"""`manage.py backup` of a running service and `manage.py restore_check` of its file, on
PostgreSQL: the restore replays clean, its digests are the live logs', its trigger still
guards the log; a tampered restore is reported."""

from __future__ import annotations

import random
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from io import StringIO
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games import services
from games.engine import state_from_snapshot
from games.log.integrity import event_digest
from games.management.commands import restore_check
from games.management.commands.simulate_matches import random_action
from games.models import Match
from tests.games.factories import make_user, start_match

pytestmark = [
    pytest.mark.skipif(
        shutil.which("pg_dump") is None or shutil.which("pg_restore") is None,
        reason="needs PostgreSQL's pg_dump and pg_restore on the PATH (postgresql-client)",
    ),
    pytest.mark.django_db(transaction=True),
]

MATCHES = 6
ACTIONS_EACH = 8


@pytest.fixture(autouse=True)
def scratch_name() -> Iterator[str]:
    """The scratch database restore_check makes by default, never left behind by a test."""
    if connection.vendor != "postgresql":
        pytest.skip("backups are pg_dump and pg_restore of PostgreSQL (set DATABASE_URL)")
    name = connection.settings_dict["NAME"] + "_restore_check"
    yield name
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def act_at_random(match: Match, rng: random.Random) -> None:
    """One random legal action on ``match``, through the services."""
    state = state_from_snapshot(match.state)
    player = state.player_to_act()
    action, extra = random_action(state, player, rng)
    services.match_act(
        match_id=match.pk,
        actor=match.players[player],
        expected_seq=match.seq,
        action=action,
        **extra,
    )


def active_matches() -> list[Match]:
    return list(Match.objects.filter(status=Match.Status.ACTIVE).order_by("pk"))


@pytest.fixture
def played() -> list[Match]:
    """Several matches part-way through, played through the services."""
    players = [make_user(f"player{number}") for number in range(4)]
    for number in range(MATCHES):
        start_match(players[number % 4], players[(number + 1) % 4], length=7)
    rng = random.Random(23)
    for _ in range(ACTIONS_EACH):
        for match in active_matches():
            act_at_random(match, rng)
    return active_matches()


@pytest.fixture
def running_service() -> Iterator[Callable[[], int]]:
    """A thread acting on the matches until the test ends; call it for the actions so far."""
    stop = threading.Event()
    taken = [0]
    failures: list[BaseException] = []

    def play() -> None:
        rng = random.Random(5)
        try:
            while not stop.is_set() and (matches := active_matches()):
                act_at_random(rng.choice(matches), rng)
                taken[0] += 1
        except BaseException as failure:
            failures.append(failure)
            raise
        finally:
            connection.close()

    def actions() -> int:
        assert not failures, f"the service stopped: {failures[0]!r}"
        return taken[0]

    thread = threading.Thread(target=play)
    thread.start()
    yield actions
    stop.set()
    thread.join(timeout=30)
    assert not failures, f"the service stopped: {failures[0]!r}"


def wait_for_actions(actions: Callable[[], int], at_least: int) -> None:
    for _ in range(400):
        if actions() >= at_least:
            return
        threading.Event().wait(0.05)
    raise AssertionError(f"the service took only {actions()} actions")


def test_a_backup_of_a_running_service_restores_to_the_same_logs(
    played, running_service, tmp_path, scratch_name
):
    backup = tmp_path / "backgammon.dump"
    wait_for_actions(running_service, 5)
    before = running_service()

    call_command("backup", to=backup, stdout=StringIO())

    assert running_service() > before, "nothing was played while the backup ran"
    wait_for_actions(running_service, running_service() + 5)
    out = StringIO()
    call_command("restore_check", backup, keep=True, stdout=out)

    report = out.getvalue().splitlines()
    words = report[-1].split()
    assert words[:3] == ["restore_check:", "matches", str(MATCHES)], report
    assert words[5:] == ["mismatches", "0", "append_only", "yes"], report
    assert int(words[4]) > MATCHES
    moved_on = next(line for line in report if line.startswith("live since the backup"))
    assert not moved_on.startswith("live since the backup: 0 matches moved on"), report
    with scratch(scratch_name) as restored:
        triggers = restored.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'games_matchevent'::regclass"
            " AND NOT tgisinternal AND tgenabled = 'O' ORDER BY tgname"
        ).fetchall()
        assert triggers == [("games_matchevent_append_only",), ("games_matchevent_no_truncate",)]
        with pytest.raises(psycopg.errors.RestrictViolation):
            restored.execute("UPDATE games_matchevent SET kind = 'roll' WHERE seq = 2")


def payload_altered(restored: psycopg.Connection[Any]) -> None:
    restored.execute("SET session_replication_role = replica")
    restored.execute(
        "UPDATE games_matchevent SET payload = payload || '{\"dice\": [6, 6]}'"
        " WHERE id = (SELECT min(id) FROM games_matchevent WHERE kind = 'roll')"
    )


def rechained(restored: psycopg.Connection[Any]) -> None:
    """One event's time moved by a second and every digest after it made again, so the
    restore is consistent in itself: only the live log can tell."""
    restored.execute("SET session_replication_role = replica")
    restored.execute("SET TIME ZONE 'UTC'")
    match_id = restored.execute("SELECT min(id) FROM games_match").fetchone()[0]
    events = restored.execute(
        "SELECT id, seq, kind, payload, actor_id, created_at, digest FROM games_matchevent"
        " WHERE match_id = %s ORDER BY seq",
        [match_id],
    ).fetchall()
    previous = events[1][6]
    for pk, seq, kind, payload, actor_id, created_at, _ in events[2:]:
        if seq == 3:
            created_at += timedelta(seconds=1)
        previous = event_digest(
            previous,
            match_id=match_id,
            seq=seq,
            kind=kind,
            payload=payload,
            actor_id=actor_id,
            created_at=created_at,
        )
        restored.execute(
            "UPDATE games_matchevent SET created_at = %s, digest = %s WHERE id = %s",
            [created_at, previous, pk],
        )
    restored.execute("UPDATE games_match SET head_digest = %s WHERE id = %s", [previous, match_id])


def trigger_dropped(restored: psycopg.Connection[Any]) -> None:
    restored.execute("DROP TRIGGER games_matchevent_append_only ON games_matchevent")


@pytest.mark.parametrize(
    ("tamper", "reported"),
    [
        (payload_altered, "(roll) does not match its digest"),
        (rechained, "head digest at #"),
        (trigger_dropped, "the trigger games_matchevent_append_only is missing"),
    ],
)
def test_a_tampered_restore_is_reported(
    played, tmp_path, monkeypatch, scratch_name, tamper, reported
):
    backup = tmp_path / "backgammon.dump"
    call_command("backup", to=backup, stdout=StringIO())
    restore = restore_check.scratch_restore

    def restore_then_tamper(database: dict[str, Any], path: Path, name: str, **kw: Any) -> None:
        restore(database, path, name, **kw)
        with scratch(name) as restored:
            tamper(restored)

    monkeypatch.setattr(restore_check, "scratch_restore", restore_then_tamper)
    out, err = StringIO(), StringIO()

    with pytest.raises(CommandError, match="does not match the live database"):
        call_command("restore_check", backup, stdout=out, stderr=err)

    assert reported in err.getvalue()
    assert out.getvalue().splitlines()[-1].startswith(f"restore_check: matches {MATCHES} ")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [scratch_name])
        assert cursor.fetchone() is None, "the scratch database was left behind"


def test_backups_refuse_a_file_that_is_not_one(tmp_path):
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("not a dump")

    with pytest.raises(CommandError, match="pg_restore failed"):
        call_command("restore_check", not_a_backup, stdout=StringIO())


@contextmanager
def scratch(name: str) -> Iterator[psycopg.Connection[Any]]:
    """A superuser's connection to a scratch database of the test's."""
    database = connection.settings_dict
    restored = psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname=name,
        autocommit=True,
    )
    try:
        yield restored
    finally:
        restored.close()
