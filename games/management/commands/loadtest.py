"""`manage.py loadtest`: the service under load, in its web server (games/management/web_server.py),
measured against a bare page and the signed-in floors (games/management/loadtest/floors.py)."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection

from games.management.loadtest import cpu
from games.management.loadtest import plan as load_plan
from games.management.web_server import DEFAULT_WORKERS, web_server_command

LOCUSTFILE = Path(load_plan.__file__).with_name("locustfile.py")
ACTION_PREFIX = "play: "
NOT_ACTIONS = {"play: read state", "play: challenge", "play: accept"}


@dataclass(frozen=True)
class Scenario:
    key: str
    label: str
    client: str


SCENARIOS = (
    Scenario("bare", "bare page (trivial template)", "BarePage"),
    Scenario("bare_auth", "bare page, signed in (the floor of a page)", "SignedInBarePage"),
    Scenario(
        "floor_post",
        "API POST: one row locked, one inserted (the floor of an action)",
        "FloorWrite",
    ),
    Scenario("board", "board page of a running match", "BoardPage"),
    Scenario("state", "match state, API", "MatchState"),
    Scenario("state_304", "match state, API, If-None-Match", "MatchStateNotModified"),
    Scenario("submit", "move submission, API", "MatchPlayer"),
)

#: The scenarios that always run: the yardstick and the floors the others are compared with.
FLOORS = {"bare", "bare_auth", "floor_post"}


@dataclass(frozen=True)
class Figures:
    requests_per_s: float
    requests: int
    p50_ms: float
    p95_ms: float
    errors: int
    rows: dict[str, dict[str, str]]
    cores: str = ""
    #: Processor seconds of the server's workers while the scenario ran (None off Linux).
    server_seconds: float | None = None

    @classmethod
    def from_csv(cls, path: Path) -> Figures:
        with path.open(newline="") as stats:
            rows = {row["Name"]: row for row in csv.DictReader(stats)}
        total = rows.get("Aggregated")
        if total is None or int(total["Request Count"]) == 0:
            raise CommandError(f"locust made no request ({path})")
        return cls(
            requests_per_s=float(total["Requests/s"]),
            requests=int(total["Request Count"]),
            p50_ms=float(total["50%"]),
            p95_ms=float(total["95%"]),
            errors=int(total["Failure Count"]),
            rows=rows,
        )

    def cpu_ms(self, requests: int | None = None) -> float:
        """The server's processor milliseconds a request (or over ``requests``): unlike
        throughput, hardly moved by what else the machine runs meanwhile. 0 off Linux."""
        if self.server_seconds is None:
            return 0.0
        return 1000 * self.server_seconds / (requests or self.requests)

    def actions(self) -> int:
        """Accepted and refused actions posted."""
        return sum(
            int(row["Request Count"]) - int(row["Failure Count"])
            for name, row in self.rows.items()
            if name.startswith(ACTION_PREFIX) and name not in NOT_ACTIONS
        )

    def actions_per_s(self, only: str | None = None) -> float:
        """Accepted and refused actions posted a second (``only``: one action's)."""
        return sum(
            float(row["Requests/s"]) - float(row["Failures/s"])
            for name, row in self.rows.items()
            if name.startswith(ACTION_PREFIX)
            and name not in NOT_ACTIONS
            and (only is None or name == ACTION_PREFIX + only)
        )


class Command(BaseCommand):
    help = (
        "Start the web server (gunicorn with uvicorn workers) on loopback with this database and "
        "broker, and measure with locust, for --duration seconds each: a bare page rendering a "
        "trivial template, the same page signed in (the floor of a page), an API POST that "
        "locks one row and inserts one (the floor of an action), the board page of a running "
        "match, the match state over the API (without and with If-None-Match), and move "
        "submission (each client playing its own match, both sides, through the API). "
        "Prints requests per second, p50, p95, errors and the server's processor ms a request "
        "for each, each one's throughput as a ratio of the bare page's, checks the played "
        "matches' logs, and ends with `board_ratio: R submit_moves_per_s: M errors: E "
        "board_vs_floor: F action_cpu_ms: C`. DJANGO_DEBUG must be off."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--duration", type=float, default=20, help="Seconds a scenario (20).")
        parser.add_argument("--clients", type=int, default=32, help="Concurrent clients (32).")
        parser.add_argument(
            "--workers",
            type=int,
            default=DEFAULT_WORKERS,
            help=f"Web server processes (2 x cores + 1: {DEFAULT_WORKERS}).",
        )
        parser.add_argument(
            "--running-matches",
            type=int,
            default=8,
            help="Matches the board and state clients share (8).",
        )
        parser.add_argument("--length", type=int, default=3, help="Length of played matches (3).")
        parser.add_argument("--seed", type=int, default=None, help="Seed for preparing matches.")
        parser.add_argument(
            "--only",
            nargs="+",
            choices=[scenario.key for scenario in SCENARIOS],
            help="Run only these scenarios (the bare page and the floors always run).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.DEBUG:
            raise CommandError("Turn DJANGO_DEBUG off: a load test measures the service as run.")
        if connection.vendor != "postgresql":
            self.stderr.write(
                f"warning: the database is {connection.vendor}, not PostgreSQL: concurrent "
                "writers wait for one another, and the figures say little about the service."
            )
        for module in ("gunicorn", "uvicorn_worker", "locust"):
            if not _importable(module):
                raise CommandError(
                    f"{module} is not installed: pip install -r requirements.txt --group load"
                )
        wanted = set(options["only"] or [scenario.key for scenario in SCENARIOS]) | FLOORS
        scenarios = [scenario for scenario in SCENARIOS if scenario.key in wanted]
        clients = options["clients"]
        started = time.monotonic()
        plan = load_plan.prepare(
            running_matches=options["running_matches"],
            playing_clients=clients if "submit" in wanted else 0,
            match_length=options["length"],
            seed=options["seed"],
            floor_clients=clients,
        )
        self.stdout.write(
            f"prepared {len(plan.board)} running matches and {len(plan.play)} matches to play "
            f"in {time.monotonic() - started:.1f} s; {options['workers']} web server processes "
            f"(gunicorn, uvicorn workers), {clients} clients, {options['duration']:g} s each"
        )
        connection.close()  # the server's workers need the connections more than we do
        try:
            with tempfile.TemporaryDirectory(prefix="loadtest-") as folder:
                self._run(Path(folder), plan, scenarios, options)
        finally:
            plan.clean_up()

    def _run(
        self, folder: Path, plan: load_plan.Plan, scenarios: list[Scenario], options: Any
    ) -> None:
        plan_file = folder / "plan.json"
        plan_file.write_text(json.dumps(plan.as_json()))
        records = folder / "accepted.json"
        port = _free_port()
        base_url = f"http://127.0.0.1:{port}"
        server = _start_server(port, options["workers"], folder)
        try:
            log = folder / "server.log"
            _wait_until_up(base_url + "/loadtest/bare/", server, log)
            try:
                _warm_up(base_url, plan, options["workers"])
            except OSError as error:
                raise CommandError(
                    f"warming up failed: {error}\n{log.read_text()[-3000:]}"
                ) from None
            figures: dict[str, Figures] = {}
            for scenario in scenarios:
                figures[scenario.key] = _locust(
                    scenario, base_url, plan_file, records, folder, options
                )
                self._report(scenario, figures[scenario.key], figures["bare"])
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        errors = sum(result.errors for result in figures.values())
        submit_moves_per_s = action_cpu_ms = action_vs_floor = 0.0
        if "submit" in figures:
            played = json.loads(records.read_text())
            accepted = [tuple(row) for row in played["accepted"]]
            unanswered = [tuple(row) for row in played["unanswered"]]
            problems = load_plan.log_check(accepted, unanswered)  # type: ignore[arg-type]
            for problem in problems:
                self.stderr.write(problem)
            errors += len(problems)
            submit = figures["submit"]
            submit_moves_per_s = submit.actions_per_s()
            action_cpu_ms = submit.cpu_ms()
            self.stdout.write(
                f"  {len(accepted)} actions accepted in {len({row[0] for row in accepted})} "
                f"matches ({submit.actions_per_s('move'):.1f} plays/s); "
                f"logs checked: {len(problems)} problems"
            )
            action_vs_floor = submit.actions_per_s() / figures["floor_post"].requests_per_s
        board_ratio = board_vs_floor = 0.0
        if "board" in figures:
            board_ratio = figures["board"].requests_per_s / figures["bare"].requests_per_s
            board_vs_floor = figures["board"].requests_per_s / figures["bare_auth"].requests_per_s
        self.stdout.write(
            f"board_vs_floor: {board_vs_floor:.2f} (board req/s over bare_auth req/s) "
            f"action_vs_floor: {action_vs_floor:.2f} (actions posted a second over floor_post "
            "req/s)"
        )
        self.stdout.write(
            f"board_ratio: {board_ratio:.2f} submit_moves_per_s: {submit_moves_per_s:.1f} "
            f"errors: {errors} board_vs_floor: {board_vs_floor:.2f} "
            f"action_cpu_ms: {action_cpu_ms:.1f}"
        )

    def _report(self, scenario: Scenario, result: Figures, bare: Figures) -> None:
        self.stdout.write(
            f"{scenario.key:<10} {result.requests_per_s:8.1f} req/s  p50 {result.p50_ms:6.0f} ms  "
            f"p95 {result.p95_ms:6.0f} ms  errors {result.errors:<4d} "
            f"ratio {result.requests_per_s / bare.requests_per_s:5.2f}  "
            f"cpu {result.cpu_ms():5.1f} ms/req  {scenario.label}"
        )
        if result.cores:
            self.stdout.write(f"  cpu: {result.cores}")
        if scenario.key == "submit":
            self.stdout.write(
                f"  actions submitted: {result.actions_per_s():.1f}/s; server cpu "
                f"{result.cpu_ms(result.actions()):.1f} ms an action with its reads"
            )
            for name, row in sorted(result.rows.items()):
                if name.startswith(ACTION_PREFIX):
                    self.stdout.write(
                        f"  {name:<18} {float(row['Requests/s']):7.1f} req/s  "
                        f"p50 {float(row['50%']):5.0f} ms  p95 {float(row['95%']):5.0f} ms  "
                        f"errors {row['Failure Count']}"
                    )


def _importable(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_environment() -> dict[str, str]:
    environment = dict(os.environ)
    environment["DJANGO_SETTINGS_MODULE"] = "backgammon_site.settings.loadtest"
    # Locust talks plain http to 127.0.0.1: no redirect to HTTPS, cookies over http.
    environment["DJANGO_HTTPS"] = "0"
    # Throttling stays on (its cost is part of every request), far above the clients' rate.
    environment["API_THROTTLE_ANON"] = "10000000/minute"
    environment["API_THROTTLE_USER"] = "10000000/minute"
    return environment


def _start_server(port: int, workers: int, folder: Path) -> subprocess.Popen[bytes]:
    log = (folder / "server.log").open("wb")
    return subprocess.Popen(
        [*web_server_command(port=port, workers=workers), "--backlog=2048", "--log-level=warning"],
        cwd=settings.BASE_DIR,
        env=_server_environment(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def _wait_until_up(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise CommandError(f"the web server stopped:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=30):
                return
        except OSError:  # not listening yet, or its workers are still starting
            time.sleep(0.2)
    raise CommandError(f"the web server did not answer {url} within 120 s")


def _warm_up(base_url: str, plan: load_plan.Plan, workers: int) -> None:
    """Every worker imports and connects before the clock starts."""
    requests = [(base_url + "/loadtest/bare/", {})]
    if plan.floor:
        cookie = {"Cookie": f"sessionid={plan.floor[0]['session']}"}
        requests.append((base_url + "/loadtest/bare-auth/", cookie))
    if plan.board:
        row = plan.board[0]
        cookie = {"Cookie": f"sessionid={row['session']}"}
        requests.append((f"{base_url}/matches/{row['match']}/", cookie))
    if plan.state:
        row = plan.state[0]
        requests.append(
            (f"{base_url}/api/matches/{row['match']}/", {"Authorization": f"Token {row['token']}"})
        )
    for _ in range(3 * workers):
        for url, headers in requests:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=60):
                pass


def _locust(
    scenario: Scenario,
    base_url: str,
    plan_file: Path,
    records: Path,
    folder: Path,
    options: Any,
) -> Figures:
    prefix = folder / scenario.key
    clients = options["clients"]
    command = [
        sys.executable,
        "-m",
        "locust",
        f"--locustfile={LOCUSTFILE}",
        "--headless",
        "--only-summary",
        f"--users={clients}",
        f"--spawn-rate={clients}",
        f"--run-time={options['duration']:g}s",
        "--stop-timeout=10",
        f"--host={base_url}",
        f"--csv={prefix}",
        "--loglevel=WARNING",
        "--exit-code-on-error=0",
        scenario.client,
    ]
    environment = dict(os.environ, LOADTEST_PLAN=str(plan_file), LOADTEST_RECORDS=str(records))
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    before = cpu.sample()
    finished = subprocess.run(
        command, env=environment, capture_output=True, text=True, timeout=options["duration"] + 120
    )
    after = cpu.sample()
    cores = cpu.cores_used(before, after)
    stats = prefix.with_name(prefix.name + "_stats.csv")
    if finished.returncode != 0 or not stats.exists():
        raise CommandError(f"locust failed ({finished.returncode}):\n{finished.stderr[-3000:]}")
    return dataclasses.replace(
        Figures.from_csv(stats), cores=cores, server_seconds=cpu.server_seconds(before, after)
    )
