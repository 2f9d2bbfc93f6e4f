"""The Celery app: configured from Django's settings (CELERY_*), tasks found in each app."""

import logging
import os
from typing import Any

from celery import Celery, bootsteps
from celery.platforms import EX_FAILURE
from celery.worker import state

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")

logger = logging.getLogger(__name__)

app = Celery("backgammon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class BeatWatch(bootsteps.StartStopStep):
    """A worker with beat embedded (``-B``) stops, failing, as soon as its beat has died.

    Celery leaves such a worker running without its scheduler: no sweep, so no deadline is
    enforced. Stopping it lets its supervisor (systemd, `manage.py serve`) start both again.
    """

    requires = {"celery.worker.components:Beat", "celery.worker.components:Timer"}
    every = 5.0

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.check_ref: Any = None

    def start(self, worker: Any) -> None:
        if worker.beat is not None:
            self.check_ref = worker.timer.call_repeatedly(self.every, self.check, (worker,))

    def stop(self, worker: Any) -> None:
        if self.check_ref is not None:
            self.check_ref.cancel()
            self.check_ref = None

    def check(self, worker: Any) -> None:
        if state.should_stop is None and not worker.beat.is_alive():
            logger.critical(
                "Beat has stopped (see its error above): no deadline would be enforced. "
                "Stopping the worker so that its supervisor starts both again."
            )
            state.should_stop = EX_FAILURE


class WorkerHeartbeat(bootsteps.StartStopStep):
    """The worker says it is alive (games/clocks/workers.py) from its own loop, for each kind
    of work its queues serve, so that `manage.py health` knows when it is not."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.beat_ref: Any = None

    def start(self, worker: Any) -> None:
        from games.clocks.workers import WORKER_HEARTBEAT_EVERY, kinds_served

        kinds = kinds_served(worker.app.amqp.queues)
        if kinds:
            self.beat(kinds)
            self.beat_ref = worker.timer.call_repeatedly(
                WORKER_HEARTBEAT_EVERY, self.beat, (kinds,)
            )

    def stop(self, worker: Any) -> None:
        if self.beat_ref is not None:
            self.beat_ref.cancel()
            self.beat_ref = None

    def beat(self, kinds: list[str]) -> None:
        from django.db import DatabaseError, close_old_connections

        from games.clocks.workers import worker_heartbeat

        close_old_connections()
        try:
            worker_heartbeat(kinds)
        except DatabaseError as error:
            logger.warning("The worker could not write its heartbeat: %s", error)


app.steps["worker"].add(BeatWatch)
app.steps["worker"].add(WorkerHeartbeat)
