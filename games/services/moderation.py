"""What moderators do to a match: end it with no winner, or award it to one of its players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from backgammon_site.errors import ApplicationError, Forbidden
from games.engine import MatchAborted, MatchAwarded, state_from_snapshot
from games.engine.events import Event
from games.models import Match
from games.services.locks import locked_match
from games.services.writer import MatchWriter


def match_abort(*, match_id: int, moderator: Any, reason: str) -> Match:
    """A moderator ends a match with no winner."""
    return _moderate(match_id, moderator, lambda match: MatchAborted(clean_reason(reason)))


def match_award(*, match_id: int, moderator: Any, winner: Any, reason: str) -> Match:
    """A moderator ends a match and gives it to ``winner``."""

    def award(match: Match) -> Event:
        index = match.player_index(winner)
        if index is None:
            raise ApplicationError("The match can only be awarded to one of its players.")
        return MatchAwarded(index, clean_reason(reason))

    return _moderate(match_id, moderator, award)


def _moderate(match_id: int, moderator: Any, make_event: Callable[[Match], Event]) -> Match:
    if not moderator.has_perm("games.moderate_match"):
        raise Forbidden("Only moderators can abort or award a match.")
    with transaction.atomic():
        match = locked_match(match_id)
        writer = MatchWriter(match, state_from_snapshot(match.state))
        writer.append(make_event(match), moderator)
        writer.save()
    return match


def clean_reason(reason: str) -> str:
    """The moderator's reason, required, as it is kept."""
    if not isinstance(reason, str) or not reason.strip():
        raise ApplicationError("Give a reason: it is kept in the match's log.", "reason")
    return reason.strip()[:500]
