"""Pushed updates: a match page's WebSocket hears the match's new seq as soon as it changes,
a lobby's hears that the player's matches or challenges changed, and a tournament's that
its bracket changed.

The pages join groups (games/push.py); games/receivers.py announces each change to them, from
whichever process made it. A message says only that something changed (and a match's seq):
the page fetches what it shows through the usual view, so a viewer learns nothing here the
page would not show them. A page whose socket is not open polls instead.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.guests import players_of_session
from games import selectors
from games.models import Match, Tournament
from games.push import LOBBIES, match_group, match_players_group, player_group, tournament_group

logger = logging.getLogger(__name__)

#: The close codes: no such page (or none this visitor may see), a frame sent to a page, and
#: a lobby asked for by a visitor who is not signed in.
NOT_FOUND = 4404
SPOKE = 4400
SIGN_IN_FIRST = 4401


class PageSocket(AsyncJsonWebsocketConsumer):
    """A page's socket: the server speaks and the page listens. A frame from the other end
    is no page of the site's; it is not read, and the socket is closed with ``SPOKE`` and one
    line of log (one however many frames follow: the other end may still be sending)."""

    spoke = False

    async def receive(self, text_data: Any = None, bytes_data: Any = None, **kwargs: Any) -> None:
        if self.spoke:
            return
        self.spoke = True
        logger.warning(
            "Closed a socket of %s: it sent a frame, which pages never do", self.scope.get("path")
        )
        await self.close(code=SPOKE)


class NoPage(PageSocket):
    """Any path the routes do not name: closed as not found, with one line of log."""

    async def connect(self) -> None:
        logger.info("Refused a socket of %s: no page has it", self.scope.get("path"))
        await self.close(code=NOT_FOUND)


class MatchConsumer(PageSocket):
    """ws/matches/<id>/, for players and spectators alike: sends ``{"seq": N}`` once it is
    open (the match's seq then, read after joining its groups, so a change made while the page
    was loading or its socket was closed is never missed) and each time the match reaches seq
    N, and, to its players' pages only, ``{"type": "chat"}`` when its
    conversation changed and ``{"type": "rematch"}`` when its rematch was offered or
    answered. A casual match's socket opens for its players only, as its page."""

    groups_joined: tuple[str, ...] = ()

    async def connect(self) -> None:
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        plays_in = await database_sync_to_async(self._plays_in)(match_id)
        if plays_in is None:
            await self.close(code=NOT_FOUND)
            return
        self.groups_joined = (match_group(match_id),)
        if plays_in:
            self.groups_joined += (match_players_group(match_id),)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_json({"seq": await database_sync_to_async(self._seq)(match_id)})

    @staticmethod
    def _seq(match_id: int) -> int:
        return Match.objects.values_list("seq", flat=True).get(pk=match_id)

    def _plays_in(self, match_id: int) -> bool | None:
        """Whether this browser plays in the match; None when it may not see it at all."""
        readers = players_of_session(self.scope["session"], self.scope["user"])
        match = selectors.match_outline(match_id, readers=readers)
        if match is None:
            return None
        return bool({match.first_player_id, match.second_player_id} & readers)

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"seq": event["seq"]})

    async def chat_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "chat"})

    async def rematch_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "rematch"})


class LobbyConsumer(PageSocket):
    """ws/lobby/, for a signed-in player: sends ``{"type": "lobby"}`` when one of their
    matches or challenges, or the open challenges, changed."""

    groups_joined: tuple[str, ...] = ()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=SIGN_IN_FIRST)
            return
        self.groups_joined = (player_group(user.pk), LOBBIES)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby"})


class TournamentConsumer(PageSocket):
    """ws/tournaments/<id>/, for anyone: sends ``{"type": "tournament"}`` when a match of the
    tournament ended, its bracket moved on, or its players or status changed."""

    group: str | None = None

    async def connect(self) -> None:
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        exists = Tournament.objects.filter(pk=tournament_id).exists
        if not await database_sync_to_async(exists)():
            await self.close(code=NOT_FOUND)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "tournament"})
