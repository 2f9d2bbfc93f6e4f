"""examples/api_client.py plays a whole match against a live server, as two people would.

Two clients run as subprocesses against pytest-django's live server: one challenges the other to
a 1-point match (of backgammon, or of another variant), the other accepts, and both play until the
match is over.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games.models import Match

CLIENT = Path(__file__).resolve().parents[3] / "examples" / "api_client.py"
#: A hung client's limit, not a speed target: the clients play on random dice, and a tavli
#: best of three took 39 s and more than 60 s in two runs beside stress-ng.
TIMEOUT_SECONDS = 300


@pytest.fixture
def server(live_server: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The live server; on SQLite it handles one request at a time.

    The test database is then an in-memory SQLite database in shared-cache mode, and each of
    the live server's request threads opens its own connection to it: two requests at once
    fail at once on SQLite's table locks ("database table is locked"), which no timeout waits
    for. PostgreSQL serves requests in parallel as usual.
    """
    if connection.vendor == "sqlite":
        httpd = live_server.thread.httpd
        monkeypatch.setattr(httpd, "process_request", httpd.process_request_thread)
    return live_server


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "rules",
    [
        (),
        ("--variant", "plakoto"),
        ("--variant", "long-nardi"),
        ("--variant", "hypergammon"),
        ("--variant", "tavli", "--match-format", "best_of_three"),
    ],
)
def test_two_clients_play_a_match_to_its_end(
    server: Any, tmp_path: Path, rules: tuple[str, ...]
) -> None:
    users = get_user_model().objects
    users.create_user("ann", password="ann-secret-password")
    users.create_user("ben", password="ben-secret-password")

    logs = {name: tmp_path / f"{name}.log" for name in ("ann", "ben")}

    def client(name: str, *args: str) -> subprocess.Popen[bytes]:
        with logs[name].open("w") as log:
            command = [sys.executable, str(CLIENT), server.url, name, f"{name}-secret-password"]
            return subprocess.Popen([*command, *args], stdout=log, stderr=subprocess.STDOUT)

    clients = {
        "ann": client("ann", "--challenge", "ben", "--length", "1", *rules),
        "ben": client("ben", "--accept"),
    }
    deadline = time.monotonic() + TIMEOUT_SECONDS
    # Wait for both, but stop at once when one of them fails (the other would wait for ever).
    while time.monotonic() < deadline:
        codes = [process.poll() for process in clients.values()]
        if None not in codes or any(code not in (None, 0) for code in codes):
            break
        time.sleep(0.2)
    for process in clients.values():
        if process.poll() is None:
            process.kill()
            process.wait()
    outputs = {name: log.read_text() for name, log in logs.items()}

    for name, process in clients.items():
        assert process.returncode == 0, f"{name} (exit {process.returncode}):\n{outputs[name]}"
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    variant = rules[1] if rules else "backgammon"
    assert match.variant == variant
    assert f"{variant} match" in outputs["ben"]
    winner = match.winner.get_username()
    for output in outputs.values():
        assert output.rstrip().splitlines()[-1].endswith(f"winner: {winner}"), output
