"""With Redis unreachable the cache answers as a cache of misses: pages and moves go on."""

from __future__ import annotations

import socket

import pytest

from backgammon_site.core.cache import ResilientRedisCache


@pytest.fixture
def unreachable() -> ResilientRedisCache:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return ResilientRedisCache(
        f"redis://127.0.0.1:{port}/0", {"OPTIONS": {"socket_connect_timeout": 0.5}}
    )


def test_reads_miss_and_writes_are_dropped(unreachable, caplog) -> None:
    assert unreachable.get("session") is None
    assert unreachable.get("throttle", []) == []
    assert unreachable.get("limit", default=0) == 0
    assert unreachable.get_many(["a", "b"]) == {}
    assert unreachable.has_key("a") is False
    assert unreachable.add("a", 1) is True  # an empty cache that keeps nothing
    assert unreachable.set("a", 1) is None
    assert unreachable.set_many({"a": 1}) == []
    assert unreachable.touch("a") is False
    assert unreachable.delete("a") is False
    unreachable.delete_many(["a"])
    unreachable.clear()
    assert "carrying on without it" in caplog.text


def test_other_errors_are_not_hidden(unreachable) -> None:
    class Broken:
        def get(self, key, default):
            raise TypeError("a bug, not an outage")

    unreachable.__dict__["_cache"] = Broken()
    with pytest.raises(TypeError):
        unreachable.get("a")


def test_the_rate_limits_let_requests_through_while_redis_is_away(
    unreachable, monkeypatch, rf
) -> None:
    from allauth.core import ratelimit

    monkeypatch.setattr("allauth.core.internal.ratelimit.cache", unreachable)
    request = rf.post("/", REMOTE_ADDR="10.0.0.1")
    assert all(ratelimit.consume(request, action="guest_play") for _ in range(20))
