"""Reads of a match's chat: what a player of it sees, and the whole conversation that
moderators read."""

from __future__ import annotations

from typing import Any

from games.models import ChatMessage, ChatMute, Match, Player
from games.selectors.match_views import Viewer


def chat_for_player(match: Match, viewer: Viewer) -> dict[str, Any]:
    """The conversation of ``match`` as ``viewer`` may see it: for its players, every message
    not hidden, less the opponent's once the viewer has muted them (``muted``), and which
    messages are the viewer's own (``player_id``); for anyone else nothing (spectators do not
    read the players' messages; moderators read the whole conversation in the admin,
    ``chat_conversation``)."""
    index = match.player_index(viewer)
    if index is None or not isinstance(viewer, Player):
        return {"messages": [], "muted": False, "player_id": None}
    if getattr(match, "chat_of", None) == viewer.pk:  # read with the match
        muted = match.chat_muted  # type: ignore[attr-defined]
        if not match.chat_said:  # type: ignore[attr-defined]
            return {"messages": [], "muted": muted, "player_id": viewer.pk}
    else:
        muted = ChatMute.objects.filter(match=match, muter=viewer).exists()
    messages = match.chat_messages.filter(hidden_at__isnull=True)
    if muted:
        messages = messages.filter(author=viewer)
    ordered = messages.select_related("author").order_by("created_at", "pk")
    return {"messages": list(ordered), "muted": muted, "player_id": viewer.pk}


def chat_conversation(match_id: int) -> list[ChatMessage]:
    """Every message of a match, hidden ones too, in order: what moderators read."""
    return list(
        ChatMessage.objects.filter(match_id=match_id)
        .select_related("author", "hidden_by")
        .order_by("created_at", "pk")
    )
