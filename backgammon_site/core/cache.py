"""Django's Redis cache, carrying on without Redis.

The cache holds sessions' copies (read before the database), the API's throttles and the rate
limits: nothing that is not also somewhere else, or that cannot be counted again. When Redis is
unreachable, a page must still load and a move must still be made, so each read answers as a
miss and each write is dropped, with a warning in the log: the cache behaves as an empty one
that keeps nothing. The rate limits are then not counted (they let everything through) until
Redis is back; failed logins are counted in the database (accounts/failed_logins.py), so
guessing passwords is limited all the same.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: Seconds between two warnings that the cache is unreachable, so the log is not flooded.
WARN_EVERY = 60.0

_last_warning = 0.0


def _warn(error: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    if now - _last_warning >= WARN_EVERY:
        _last_warning = now
        logger.warning("The cache (Redis) is unreachable; carrying on without it: %s", error)


def _or(answer: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Answer ``answer`` (a miss, a dropped write) when Redis cannot be reached."""

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def carry_on(self: ResilientRedisCache, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except (RedisConnectionError, RedisTimeoutError) as error:
                _warn(error)
                if answer is _DEFAULT:
                    return kwargs.get("default", args[1] if len(args) > 1 else None)
                return answer() if callable(answer) else answer

        return carry_on

    return wrap


_DEFAULT = object()


class ResilientRedisCache(RedisCache):
    get = _or(_DEFAULT)(RedisCache.get)
    get_many = _or(dict)(RedisCache.get_many)
    has_key = _or(False)(RedisCache.has_key)
    add = _or(True)(RedisCache.add)  # the key is absent, so adding it "succeeds"
    set = _or(None)(RedisCache.set)
    set_many = _or(list)(RedisCache.set_many)
    touch = _or(False)(RedisCache.touch)
    delete = _or(False)(RedisCache.delete)
    delete_many = _or(None)(RedisCache.delete_many)
    clear = _or(None)(RedisCache.clear)
