"""What a player's event stream tells them (games/api/streams.py), read from the database each
time, so a stream that reconnects, to this web process or another, misses nothing."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q

from games.models import Challenge, Match, Player
from games.selectors import challenges_for


def stream_news(
    player: Player, *, ended_since: datetime
) -> tuple[list[Challenge], list[Match], list[Match]]:
    """The challenges to ``player`` still open, their active matches, and their matches that
    finished after ``ended_since``, each oldest first."""
    challenges = list(challenges_for(player, "incoming").order_by("created_at", "pk"))
    theirs = Match.objects.select_related("first_player", "second_player", "winner").filter(
        Q(first_player=player) | Q(second_player=player)
    )
    active = list(theirs.filter(status=Match.Status.ACTIVE).order_by("created_at", "pk"))
    ended = list(
        theirs.filter(status=Match.Status.FINISHED, finished_at__gt=ended_since).order_by(
            "finished_at", "pk"
        )
    )
    return challenges, active, ended
