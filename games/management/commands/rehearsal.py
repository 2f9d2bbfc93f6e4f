"""`manage.py rehearsal`: several nodes on loopback, killed and started again under load."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from types import FrameType
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.management.rehearsal import scenario
from games.management.rehearsal.stack import missing_programs


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(1)


class Command(BaseCommand):
    help = (
        "Start on loopback a PostgreSQL database of its own, a Redis server, two web servers "
        "(gunicorn with uvicorn's workers) behind HAProxy, the urgent and background Celery "
        "workers and beat; play matches through the API (correspondence and live, both sides) "
        "while it kills a web server, the workers and Redis with SIGKILL and starts them "
        "again; then check that no accepted action was lost or applied twice, every timeout "
        "was applied once, verify_matches is clean and errors fell only inside the kills. "
        "Ends with `rehearsal: actions A lost L duplicated D timeouts T applied_once O "
        "errors_outside_kills E`; exits 1 unless all is well. Tears everything down."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--short", action="store_true", help="The short form CI runs (about 2 minutes)."
        )
        parser.add_argument(
            "--postgres",
            default="postgres://postgres@127.0.0.1:5432/postgres",
            help="The PostgreSQL server to create the rehearsal's database on (a URL).",
        )
        parser.add_argument(
            "--keep", action="store_true", help="Keep the rehearsal's database afterwards."
        )
        # The steps run inside the stack's environment (scenario._stage).
        parser.add_argument("--stage", choices=["prepare", "check"], help=argparse.SUPPRESS)
        parser.add_argument("--played", type=int, default=0, help=argparse.SUPPRESS)
        parser.add_argument("--live", type=int, default=0, help=argparse.SUPPRESS)
        parser.add_argument("--length", type=int, default=3, help=argparse.SUPPRESS)
        parser.add_argument(
            "--deadline", type=float, action="append", default=[], help=argparse.SUPPRESS
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["stage"]:
            self.stdout.write(json.dumps(self._stage(options)))
            return
        missing = missing_programs()
        if missing:
            raise CommandError(f"the rehearsal needs {', '.join(missing)}")
        signal.signal(signal.SIGTERM, _exit_on_sigterm)

        def say(line: str) -> None:
            self.stdout.write(line)
            self.stdout.flush()

        form = scenario.SHORT if options["short"] else scenario.FULL
        try:
            line, passed = scenario.run(
                form, postgres=options["postgres"], keep=options["keep"], say=say
            )
        except KeyboardInterrupt:
            raise CommandError("interrupted: every process it started is stopped") from None
        self.stdout.write(line)
        if not passed:
            raise CommandError("the rehearsal found problems (above)")

    def _stage(self, options: Any) -> Any:
        from games.management.rehearsal import stages

        if options["stage"] == "prepare":
            return stages.prepare(
                played=options["played"],
                live=options["live"],
                deadlines=options["deadline"],
                match_length=options["length"],
            )
        given = json.load(sys.stdin)
        return stages.check(given["plan"], given["journal"])
