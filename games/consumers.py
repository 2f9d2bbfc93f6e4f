"""Pushed updates: a match page's WebSocket hears the match's new seq as soon as it changes.

The page joins the match's group (games/push.py); games/receivers.py announces each
``match_changed`` to it, from whichever process made the change. The message carries only
the seq: the page fetches what it shows through the usual view, so a viewer learns nothing
here the page would not show them. A page whose socket is not open polls instead
(templates/games/_play_area.html).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from games.models import Match
from games.push import match_group


class MatchConsumer(AsyncJsonWebsocketConsumer):
    """ws/matches/<id>/: sends ``{"seq": N}`` each time the match reaches seq N."""

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
