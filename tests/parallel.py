"""Parallel test runs (pytest-xdist, ``-n``): each worker gets Redis databases of its own.

Loaded with ``-p tests.parallel`` (pyproject's addopts), so it runs before pytest-django reads
the settings. pytest-django already gives each worker its own test database (``_gw1``...);
this does the same for the broker, the cache and the channel layer, which would otherwise
hand one worker's tasks and pushed messages to the other. Worker ``gwN`` moves every Redis
database number up by ``SPACING * N``: CI's broker 0, cache 1 and channels 3 become 4, 5 and
7 in the second worker. The database between (2, 6, 10) is the broker of the Celery workers
that the integration tests start. Three workers fit beside the load test's cache (15).
"""

from __future__ import annotations

import os
import urllib.parse

SPACING = 4
REDIS_URLS = ("CELERY_BROKER_URL", "CACHE_URL", "CHANNELS_REDIS_URL")
CHANNELS_DATABASE = 3


def redis_database_moved(url: str, by: int) -> str:
    """``url`` with its Redis database number ``by`` higher."""
    parts = urllib.parse.urlsplit(url)
    database = int(parts.path.strip("/") or 0) + by
    if database > 15:
        raise RuntimeError(f"too many test workers for Redis's 16 databases ({url} + {by})")
    return parts._replace(path=f"/{database}").geturl()


def _give_this_worker_its_own_redis() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    by = SPACING * int(worker.removeprefix("gw"))
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if broker.startswith(("redis://", "rediss://")) and not os.environ.get("CHANNELS_REDIS_URL"):
        os.environ["CHANNELS_REDIS_URL"] = (
            urllib.parse.urlsplit(broker)._replace(path=f"/{CHANNELS_DATABASE}").geturl()
        )
    for name in REDIS_URLS:
        url = os.environ.get(name, "")
        if url.startswith(("redis://", "rediss://")) and by:
            os.environ[name] = redis_database_moved(url, by)


_give_this_worker_its_own_redis()
