"""The command line of the deployed web server, in one place for every command that starts it.

gunicorn supervises the processes; each runs uvicorn's ASGI worker, which serves the pages
and the pushed updates' WebSockets (backgammon_site/asgi.py) alike.
"""

from __future__ import annotations

import os
import sys

#: Worker processes by default: two a core and one more, so that a core never waits on a
#: worker that is waiting on the database.
DEFAULT_WORKERS = 2 * (os.cpu_count() or 1) + 1


def web_server_command(
    *, port: int, workers: int = DEFAULT_WORKERS, host: str = "127.0.0.1"
) -> list[str]:
    """The argv that serves the site on ``host:port`` with ``workers`` processes."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "backgammon_site.asgi:application",
        "--worker-class=uvicorn_worker.UvicornWorker",
        f"--workers={workers}",
        f"--bind={host}:{port}",
    ]
