"""The open pages, as groups of the channel layer (settings.CHANNEL_LAYERS): games/consumers.py
joins them, games/receivers.py tells them that something changed. A message never says what:
the page fetches it through its usual view, which shows the viewer only what they may see."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Coroutine, Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

logger = logging.getLogger(__name__)

#: Every signed-in lobby: open challenges, which anyone may accept, are news to all of them.
LOBBIES = "lobbies"


def match_group(match_id: int) -> str:
    """The group of the pages open on match ``match_id``, players' and spectators'."""
    return f"match-{match_id}"


def match_players_group(match_id: int) -> str:
    """The group of the pages open on match ``match_id`` by its players: news for them alone."""
    return f"match-{match_id}-players"


def player_group(user_id: int) -> str:
    """The group of the lobbies that ``user_id`` has open."""
    return f"user-{user_id}"


def tournament_group(tournament_id: int) -> str:
    """The group of the pages open on tournament ``tournament_id``."""
    return f"tournament-{tournament_id}"


def announce_bracket(tournament_id: int) -> None:
    """Tell the tournament's open pages that it changed: a match of it ended, its bracket
    moved on, it started, finished or was cancelled, or someone signed up or withdrew."""
    _send(
        tournament_group(tournament_id),
        {"type": "tournament.changed"},
        f"the bracket of tournament {tournament_id}",
    )


def announce_seq(match_id: int, seq: int) -> None:
    """Tell the match's open pages that it is now at ``seq``."""
    _send(
        match_group(match_id),
        {"type": "match.changed", "seq": seq},
        f"seq {seq} of match {match_id}",
    )


def announce_chat(match_id: int) -> None:
    """Tell the players' open pages of the match that its conversation changed (a message came
    or was hidden); the text stays with the chat's view, which knows who may read it.
    Spectators do not read the chat, so they are not told when the players talk."""
    _send(match_players_group(match_id), {"type": "chat.changed"}, f"the chat of match {match_id}")


def announce_rematch(match_id: int) -> None:
    """Tell the players' open pages of finished match ``match_id`` that its rematch was
    offered, accepted, declined or cancelled: the end panel's button changes."""
    _send(
        match_players_group(match_id),
        {"type": "rematch.changed"},
        f"the rematch of match {match_id}",
    )


def announce_to_lobbies(user_ids: Iterable[int | None], *, everyone: bool = False) -> None:
    """Tell the open lobbies of these players (of every signed-in player if ``everyone``) that
    their matches or challenges changed."""
    groups = [LOBBIES] if everyone else [player_group(pk) for pk in set(user_ids) if pk]
    for group in groups:
        _send(group, {"type": "lobby.changed"}, f"the news of {group}")


#: The longest a push may hold up the request that made the change.
PUSH_TIMEOUT = 2.0


def _send(group: str, message: dict[str, Any], what: str) -> None:
    """The change has committed: if the layer cannot be reached, say so and carry on; the
    pages' polling finds the change."""
    try:
        layer = get_channel_layer()
        if isinstance(layer, RedisChannelLayer):
            _PUSHER.run(layer.group_send(group, message))
        else:
            async_to_sync(layer.group_send)(group, message)
    except Exception:
        logger.warning("Could not push %s to its pages", what, exc_info=True)


class _Pusher:
    """An event loop that this process keeps in a thread of its own for pushing through
    Redis. async_to_sync would start a loop for every push, and channels_redis opens its
    connections per loop: a connection to Redis for each push, the larger part of an action's
    time. Made anew after a fork (the forked thread does not run in the child)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def run(self, push: Coroutine[Any, Any, None]) -> None:
        future = asyncio.run_coroutine_threadsafe(push, self._running_loop())
        try:
            future.result(PUSH_TIMEOUT)
        except TimeoutError:
            future.cancel()
            raise

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid():
                self._loop = asyncio.new_event_loop()
                self._pid = os.getpid()
                threading.Thread(
                    target=self._loop.run_forever, name="channel-layer-pushes", daemon=True
                ).start()
            return self._loop


_PUSHER = _Pusher()
