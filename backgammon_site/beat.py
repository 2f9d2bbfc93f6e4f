"""Celery beat's scheduler, sending again what it could not send.

Beat sends each due task once and, when the broker cannot be reached, logs the error and
waits for the next time it is due: a sweep missed so waits a whole interval, and a daily
chore a day. This scheduler keeps each task it could not send and tries it again every
RETRY_EVERY seconds until the broker takes it (a newer send of the same entry replaces it).
"""

from __future__ import annotations

import logging
from typing import Any

from celery.beat import PersistentScheduler, ScheduleEntry

logger = logging.getLogger(__name__)

#: Seconds between two tries of a task beat could not send.
RETRY_EVERY = 5.0


class RetryingScheduler(PersistentScheduler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.unsent: dict[str, ScheduleEntry] = {}
        super().__init__(*args, **kwargs)

    def apply_entry(self, entry: ScheduleEntry, producer: Any = None) -> None:
        logger.info("Scheduler: Sending due task %s (%s)", entry.name, entry.task)
        self.send_or_keep(entry, producer)

    def send_or_keep(self, entry: ScheduleEntry, producer: Any) -> bool:
        """Send ``entry``'s task; if the broker refuses, keep it to try again."""
        try:
            self.apply_async(entry, producer=producer, advance=False)
        except Exception as error:  # whatever stopped the send, it is tried again
            if entry.name not in self.unsent:
                logger.warning(
                    "Beat could not send %s (%s); trying again every %s s: %s",
                    entry.name,
                    entry.task,
                    RETRY_EVERY,
                    error,
                )
            self.unsent[entry.name] = entry
            return False
        if self.unsent.pop(entry.name, None) is not None:
            logger.warning("Beat sent %s (%s) at last", entry.name, entry.task)
        return True

    def tick(self, *args: Any, **kwargs: Any) -> float:
        # Due entries first: one due again now is sent once, and taken off the unsent.
        delay: float = super().tick(*args, **kwargs)
        for entry in list(self.unsent.values()):
            if not self.send_or_keep(entry, self.producer):
                break
        return min(delay, RETRY_EVERY) if self.unsent else delay
