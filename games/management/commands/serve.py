"""`manage.py serve`: the whole service (web, Celery workers and scheduler) in one command."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser

#: A worker that exits is started again, but no sooner than this many seconds after its last
#: start, so that one failing at once does not spin.
RESTART_PAUSE = 5.0


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


class Worker:
    """One Celery worker process, started again whenever it exits (as systemd's
    Restart=always does in production: docs/deployment.md)."""

    def __init__(self, name: str, arguments: list[str]) -> None:
        self.name = name
        self.command = [sys.executable, "-m", "celery", "-A", "backgammon_site", "worker"]
        self.command += ["--hostname", f"{name}@%h", "--loglevel=info", *arguments]
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    def start(self) -> None:
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(self.command, cwd=settings.BASE_DIR)

    def keep_running(self) -> None:
        if self.process is None or self.process.poll() is None:
            return
        if time.monotonic() - self.started_at >= RESTART_PAUSE:
            print(
                f"The {self.name} worker exited ({self.process.returncode}); starting it again.",
                file=sys.stderr,
                flush=True,
            )
            self.start()

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Command(BaseCommand):
    help = (
        "Start the service on embedded defaults: migrate, then two Celery workers (one for "
        "deadlines and the computer's moves, with beat embedded; one for email and analysis) "
        "in child processes, restarted if they exit, and the development server in the "
        "foreground (daphne's runserver: pages and their WebSockets)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="Port on 127.0.0.1 (8000).")

    def handle(self, *args: Any, port: int, **options: Any) -> None:
        # DJANGO_DEBUG=1 is defaulted by manage.py (settings load before any command runs);
        # the workers inherit the same environment.
        if not os.environ.get("SITE_URL"):
            # The links in emails (sent by the workers) and the Site's domain (named by
            # migrate) point at this server.
            os.environ["SITE_URL"] = settings.SITE_URL = f"http://127.0.0.1:{port}"
        call_command("migrate", interactive=False)
        sys.stdout.flush()  # keep migrate's output ahead of the workers' in a shared log
        queues = settings.WORKER_QUEUES
        workers = [
            Worker("urgent", ["-B", "-Q", ",".join(queues["urgent"])]),
            Worker("background", ["-Q", ",".join(queues["background"]), "--concurrency=1"]),
        ]
        for worker in workers:
            worker.start()
        stopping = threading.Event()

        def watch() -> None:
            while not stopping.wait(1.0):
                for worker in workers:
                    worker.keep_running()

        threading.Thread(target=watch, name="worker-watch", daemon=True).start()
        # A plain `kill` should stop the workers too, so SIGTERM unwinds like Ctrl-C.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            # daphne's runserver (daphne comes first in INSTALLED_APPS), which serves the pages'
            # WebSockets too. The autoreloader would re-run this command (and start more workers).
            call_command("runserver", f"127.0.0.1:{port}", use_reloader=False)
        finally:
            stopping.set()
            for worker in workers:
                worker.stop()
