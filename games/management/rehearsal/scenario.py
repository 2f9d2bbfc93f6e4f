"""The rehearsal's plan and run: the stack up, players playing through HAProxy, nodes killed
and started again on a timetable, then every log checked and one last line.

Times are seconds from the start of the load. An outage kills a service with SIGKILL (its
whole process group) and starts it again ``down_for`` seconds later; its window, in which the
players may see errors, lasts from the kill until the service serves again plus WINDOW_GRACE.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.management.rehearsal.players import Api, Journal, Player, resolve_given_up
from games.management.rehearsal.stack import Stack

#: Seconds after a service is back during which errors still count as the outage's.
WINDOW_GRACE = 5.0
#: Seconds a live player plays its match before leaving it to run out.
LIVE_PLAY = 5.0


@dataclass(frozen=True)
class Outage:
    at: float
    service: str
    down_for: float


@dataclass(frozen=True)
class Form:
    load_seconds: float
    played: int
    #: When each live match is challenged to (its clock runs out a minute or so later).
    live_starts: tuple[float, ...]
    #: When each untouched correspondence match's deadline passes.
    deadlines: tuple[float, ...]
    outages: tuple[Outage, ...]
    sweep_interval: float
    match_length: int = 3
    live_length: int = 7


SHORT = Form(
    load_seconds=75,
    played=6,
    live_starts=(0, 2, 4, 6),
    deadlines=(12, 24, 36, 48),
    outages=(Outage(8, "web1", 5), Outage(25, "redis", 3), Outage(62, "urgent", 8)),
    sweep_interval=15,
)
FULL = Form(
    load_seconds=180,
    played=12,
    live_starts=(0, 10, 20, 30, 40, 50, 60, 70, 80, 95),
    deadlines=(12, 30, 50, 70, 90, 110, 130, 150),
    outages=(
        Outage(10, "web1", 5),
        Outage(30, "background", 6),
        Outage(55, "urgent", 10),
        Outage(75, "redis", 4),
        Outage(100, "web2", 6),
        Outage(125, "urgent", 10),
    ),
    sweep_interval=60,
)


@dataclass
class Window:
    service: str
    start: float
    end: float = float("inf")


def run(form: Form, *, postgres: str, keep: bool, say: Callable[[str], None]) -> tuple[str, bool]:
    """Run the rehearsal; its last line and whether it passed."""
    folder = Path(tempfile.mkdtemp(prefix="rehearsal-"))
    stack = Stack.on_loopback(folder, postgres, form.sweep_interval)
    stack.define()
    say(
        f"database {stack.database.name}, Redis on {stack.redis_port}, HAProxy on "
        f"{stack.haproxy_port} (https; http on {stack.plain_port}), web on {stack.web_ports}, "
        f"logs in {folder}"
    )
    stack.database.create()
    passed = False
    try:
        line, passed = _run(stack, form, say)
        return line, passed
    finally:
        stack.stop_all()
        if keep:
            say(f"kept database {stack.database.name}")
        else:
            stack.database.drop()
        if passed:
            shutil.rmtree(folder, ignore_errors=True)
        else:
            say(f"the services' logs are kept in {folder}")


def _run(stack: Stack, form: Form, say: Callable[[str], None]) -> tuple[str, bool]:
    started = time.monotonic()
    stack.start("redis")
    _stage(stack, ["migrate", "--no-input", "-v0"])
    stack.start("web1", "web2", "urgent", "background", "beat")
    stack.start("haproxy")
    say(f"stack up in {time.monotonic() - started:.0f} s")
    plan = json.loads(
        _stage(
            stack,
            ["rehearsal", "--stage=prepare"]
            + [f"--played={form.played}", f"--live={len(form.live_starts)}"]
            + [f"--length={form.match_length}"]
            + [f"--deadline={offset:g}" for offset in form.deadlines],
        )
    )
    journal = Journal()
    api = Api(stack.base_url, journal, stack.client_tls())
    stop = threading.Event()
    load_started = time.monotonic()
    players = [Player(api, row, stop, match_length=form.match_length) for row in plan["played"]] + [
        Player(
            api,
            row,
            stop,
            match_length=form.live_length,
            live_from=load_started + start,
            live_for=LIVE_PLAY,
        )
        for row, start in zip(plan["live"], form.live_starts, strict=True)
    ]
    for player in players:
        player.start()
    try:
        windows = _outages(stack, form, load_started, say)
        _sleep_until(load_started + form.load_seconds)
    finally:
        stop.set()
    for player in players:
        player.join(timeout=60)
    resent = resolve_given_up(api)
    say(
        f"load over: {len(journal.accepted)} actions accepted, {len(journal.failures)} failed "
        f"attempts, {len(journal.given_up)} requests given up ({resent} found applied)"
    )
    _wait_for_timeouts(api, plan, journal, form, say)
    result = json.loads(
        _stage(
            stack,
            ["rehearsal", "--stage=check"],
            stdin=json.dumps(
                {
                    "plan": plan,
                    "journal": {
                        "accepted": journal.accepted,
                        "left_to_run_out": journal.left_to_run_out,
                    },
                }
            ),
        )
    )
    outside = [
        (at, what)
        for at, what in journal.failures
        if not any(window.start <= at <= window.end for window in windows)
    ]
    for window in windows:
        inside = Counter(
            what.rsplit(": ", 1)[-1].split("\n")[0]
            for at, what in journal.failures
            if window.start <= at <= window.end
        )
        seen = ", ".join(f"{what} x{count}" for what, count in inside.most_common())
        say(
            f"{window.service} down at {window.start - load_started:.1f} s, serving again "
            f"{window.end - WINDOW_GRACE - load_started:.1f} s: {inside.total()} failed "
            f"attempts{f' ({seen})' if seen else ''}"
        )
    for at, what in outside[:20]:
        say(f"error outside the kill windows at {at - load_started:.1f} s: {what}")
    for problem in result["problems"][:30]:
        say(f"problem: {problem}")
    say(f"verify_matches: {result['verify_matches']}")
    line = (
        f"rehearsal: actions {result['actions']} lost {result['lost']} duplicated "
        f"{result['duplicated']} timeouts {result['timeouts']} applied_once "
        f"{result['applied_once']} errors_outside_kills {len(outside)}"
    )
    passed = (
        result["lost"] == 0
        and result["duplicated"] == 0
        and not outside
        and result["applied_once"] == result["timeouts"]
        and not result["problems"]
    )
    say(f"took {time.monotonic() - started:.0f} s")
    return line, passed


def _outages(
    stack: Stack, form: Form, load_started: float, say: Callable[[str], None]
) -> list[Window]:
    """Kill and restart the services on the form's timetable; each outage's window."""
    windows = []
    for outage in form.outages:
        _sleep_until(load_started + outage.at)
        service = stack.services[outage.service]
        window = Window(outage.service, time.monotonic())
        windows.append(window)
        service.kill()
        say(f"{time.monotonic() - load_started:5.1f} s: killed {outage.service} (SIGKILL)")
        _sleep_until(window.start + outage.down_for)
        service.start()
        service.wait_ready()
        window.end = time.monotonic() + WINDOW_GRACE
        say(f"{time.monotonic() - load_started:5.1f} s: {outage.service} serving again")
    return windows


def _wait_for_timeouts(
    api: Api, plan: dict[str, Any], journal: Journal, form: Form, say: Callable[[str], None]
) -> None:
    """Wait (at most two sweeps and a minute) until every match left to run out is over."""
    # Anyone may read a match: one token does for all.
    reader = (plan["played"] + plan["live"] + plan["deadlines"])[0]["tokens"][0]
    expected = [row["match"] for row in plan["deadlines"] + journal.left_to_run_out]
    waiting = set(expected)
    give_up_at = time.monotonic() + 2 * form.sweep_interval + 60
    while waiting and time.monotonic() < give_up_at:
        for match_id in sorted(waiting):
            status, state = api.send("GET", f"/api/matches/{match_id}/", reader)
            if status == 200 and state["status"] != "active":
                waiting.discard(match_id)
        if waiting:
            time.sleep(2)
    say(f"timeouts: {len(expected) - len(waiting)} of {len(expected)} matches over")


def _stage(stack: Stack, arguments: list[str], stdin: str | None = None) -> str:
    """Run manage.py in the stack's environment; its standard output."""
    finished = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=Path(__file__).resolve().parents[3],
        env=stack.environment(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if finished.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(arguments)} failed:\n{finished.stderr[-3000:]}")
    return finished.stdout


def _sleep_until(moment: float) -> None:
    time.sleep(max(moment - time.monotonic(), 0))
