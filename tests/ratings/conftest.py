"""Finished matches for the ratings tests: won by resignation, awarded or aborted."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import Match
from tests.games.factories import act, reload, start_match


def won_by_resignation(dice: Any, winner: Any, loser: Any, *, rated: bool = True) -> Match:
    """A 1-point match the loser resigns at once: it ends with the last event a player makes."""
    dice.add(3, 1)  # the opening roll: the first player, the loser, moves first
    match = start_match(loser, winner, length=1, rated=rated)
    match = act(match, loser, "resign", points=1)
    act(match, winner, "accept_resign")
    return reload(match)


def awarded(
    dice: Any, moderator: Any, winner: Any, loser: Any, *, rated: bool = True, length: int = 5
) -> Match:
    dice.add(3, 1)
    match = start_match(winner, loser, rated=rated, length=length)
    services.match_award(match_id=match.pk, moderator=moderator, winner=winner, reason="left")
    return reload(match)


def aborted(dice: Any, moderator: Any, first: Any, second: Any, *, rated: bool = True) -> Match:
    dice.add(3, 1)
    match = start_match(first, second, rated=rated)
    services.match_abort(match_id=match.pk, moderator=moderator, reason="a test")
    return reload(match)
