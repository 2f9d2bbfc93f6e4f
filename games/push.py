"""The pages open on a match, as a group of the channel layer (settings.CHANNEL_LAYERS):
games/consumers.py joins them, games/receivers.py tells them the match's new seq."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def match_group(match_id: int) -> str:
    """The group of the pages open on match ``match_id``."""
    return f"match-{match_id}"


def announce_seq(match_id: int, seq: int) -> None:
    """Tell the match's open pages that it is now at ``seq``. The change has committed: if the
    layer cannot be reached, say so and carry on; the pages' polling finds the change."""
    try:
        async_to_sync(get_channel_layer().group_send)(
            match_group(match_id), {"type": "match.changed", "seq": seq}
        )
    except Exception:
        logger.warning(
            "Could not push seq %s of match %s to its pages", seq, match_id, exc_info=True
        )
