"""The command line of the deployed web server, in one place for every command that starts it.

gunicorn supervises the processes; each runs uvicorn's ASGI worker, which serves the pages
and the pushed updates' WebSockets (backgammon_site/asgi.py) alike. deploy/gunicorn.conf.py
says which proxies' forwarded headers the server believes.
"""

from __future__ import annotations

import os
import sys

from django.conf import settings

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
        f"--config={settings.BASE_DIR / 'deploy' / 'gunicorn.conf.py'}",
        "--worker-class=uvicorn_worker.UvicornWorker",
        f"--workers={workers}",
        f"--bind={host}:{port}",
    ]
