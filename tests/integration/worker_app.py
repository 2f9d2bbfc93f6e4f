"""The service's Celery app for the worker the integration tests start, with one fault to inject.

With DIE_IN_TIMEOUT_MARKER set to a path that does not exist yet, the first timeout this worker
applies kills the worker outright (SIGKILL) after writing the timeout into its transaction and
before committing it: a crash in the middle of the task.
"""

import os
import signal
from pathlib import Path

from backgammon_site.celery import app

__all__ = ["app"]

_marker = os.environ.get("DIE_IN_TIMEOUT_MARKER")

if _marker:
    import django

    django.setup()

    from games.services.writer import MatchWriter

    _time_out = MatchWriter.time_out

    def _time_out_then_die(log: MatchWriter) -> None:
        _time_out(log)
        marker = Path(_marker)
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)

    MatchWriter.time_out = _time_out_then_die  # type: ignore[method-assign]
