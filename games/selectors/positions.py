"""The positions of a player's matches under way, which the positions page will not analyse."""

from __future__ import annotations

from django.db.models import Q

from games.engine import state_from_snapshot
from games.models import Match
from games.selectors.match_views import Viewer


def running_position_ids(user: Viewer) -> set[str]:
    """The Position IDs of the boards of ``user``'s matches under way as they stand now, from
    either player's side (one query). Earlier positions of those matches are not among them:
    help matters for the position to be played now."""
    if user is None or not user.is_authenticated:
        return set()
    states = Match.objects.filter(
        Q(first_player=user) | Q(second_player=user), status=Match.Status.ACTIVE
    ).values_list("state", flat=True)
    found: set[str] = set()
    for stored in states:
        state = state_from_snapshot(stored)
        found.update(
            position_id for side in (0, 1) if (position_id := state.position_id(side)) is not None
        )
    return found
