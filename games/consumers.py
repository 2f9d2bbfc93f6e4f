"""Pushed updates: a match page's WebSocket hears the match's new seq as soon as it changes,
a lobby's hears that the player's matches or challenges changed, and a tournament's that
its bracket changed.

The pages join groups (games/push.py); games/receivers.py announces each change to them, from
whichever process made it. A message says only that something changed (and a match's seq):
the page fetches what it shows through the usual view, so a viewer learns nothing here the
page would not show them. A page whose socket is not open polls instead.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.models import Match, Tournament
from games.push import LOBBIES, match_group, player_group, tournament_group


class MatchConsumer(AsyncJsonWebsocketConsumer):
    """ws/matches/<id>/, for players and spectators alike: sends ``{"seq": N}`` each time the
    match reaches seq N, and ``{"type": "chat"}`` when its conversation changes."""

    group: str | None = None

    async def connect(self) -> None:
        match_id = self.scope["url_route"]["kwargs"]["match_id"]
        if not await database_sync_to_async(Match.objects.filter(pk=match_id).exists)():
            await self.close(code=4404)
            return
        self.group = match_group(match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page has nothing to say; whatever it sends is ignored."""

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"seq": event["seq"]})

    async def chat_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "chat"})


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """ws/lobby/, for a signed-in player: sends ``{"type": "lobby"}`` when one of their
    matches or challenges, or the open challenges, changed."""

    groups_joined: tuple[str, ...] = ()

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.groups_joined = (player_group(user.pk), LOBBIES)
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page has nothing to say; whatever it sends is ignored."""

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby"})


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """ws/tournaments/<id>/, for anyone: sends ``{"type": "tournament"}`` when a match of the
    tournament ended, its bracket moved on, or its players or status changed."""

    group: str | None = None

    async def connect(self) -> None:
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        exists = Tournament.objects.filter(pk=tournament_id).exists
        if not await database_sync_to_async(exists)():
            await self.close(code=4404)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page has nothing to say; whatever it sends is ignored."""

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "tournament"})
