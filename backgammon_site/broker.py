"""kombu's Redis transport, with one fix: a worker survives the loss of its Redis.

When Redis goes away, the worker closes its connection to start again, and closing a channel
puts back the tasks the worker holds but has not finished (a countdown waiting for its ETA,
say). With Redis unreachable, kombu 5.7 tries that through a connection it has already
dropped, fails with ``AttributeError: 'NoneType' object has no attribute 'hostname'`` (in
``Channel._connparams``), and Celery takes that for an unrecoverable error: the worker exits,
and its embedded beat with it. The same error on a channel's close was reported as kombu
issue #582 ("Error on restarting Gossip").

Here such tasks are left where they are: kombu keeps each one in Redis's "unacked" hash until
it is acknowledged, and a worker puts them back on their queue once the visibility timeout has
passed (``restore_visible``). What a Redis restart loses altogether (it keeps nothing on disk)
the minute sweep finds again: games/clocks/sweep.py.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

logger = logging.getLogger(__name__)


class QoS(redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        if client is None and self.channel.connection.client is None:
            if self._delivered:
                logger.warning(
                    "Redis is unreachable: %d unfinished task(s) stay in Redis and are "
                    "delivered again after the visibility timeout",
                    len(self._delivered),
                )
            self._delivered.clear()
            return
        super().restore_unacked(client)


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
