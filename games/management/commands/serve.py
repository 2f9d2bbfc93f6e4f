"""`manage.py serve`: the whole service (web, Celery worker and scheduler) in one command."""

import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


class Command(BaseCommand):
    help = (
        "Start the service on embedded defaults: migrate, then a Celery worker with beat "
        "embedded in a child process and Django's development server in the foreground."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="Port on 127.0.0.1 (8000).")

    def handle(self, *args: Any, port: int, **options: Any) -> None:
        # DJANGO_DEBUG=1 is defaulted by manage.py (settings load before any command runs);
        # the worker inherits the same environment.
        call_command("migrate", interactive=False)

        # Beat keeps its schedule in CELERY_BEAT_SCHEDULE_FILENAME, under var/.
        Path(settings.CELERY_BEAT_SCHEDULE_FILENAME).parent.mkdir(parents=True, exist_ok=True)
        sys.stdout.flush()  # keep migrate's output ahead of the worker's in a shared log
        worker_command = [sys.executable, "-m", "celery", "-A", "backgammon_site"]
        worker_command += ["worker", "-B", "--loglevel=info"]
        worker = subprocess.Popen(worker_command, cwd=settings.BASE_DIR)
        # A plain `kill` should stop the worker too, so SIGTERM unwinds like Ctrl-C.
        signal.signal(signal.SIGTERM, _exit_on_sigterm)
        try:
            # The autoreloader would re-run this command (and start a second worker).
            call_command("runserver", f"127.0.0.1:{port}", use_reloader=False)
        finally:
            self._stop(worker)

    def _stop(self, worker: subprocess.Popen[bytes]) -> None:
        if worker.poll() is None:
            worker.terminate()
            try:
                worker.wait(timeout=20)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
