"""What the rest of the site hears of a change to a match or a tournament, once its
transaction has committed."""

from __future__ import annotations

from django.db import transaction

from accounts.models import is_computer, profile_loaded
from games.models import Match, Tournament
from games.signals import match_changed, tournament_changed


def announce(match: Match, *, acted_by: int | None = None) -> None:
    """Send ``match_changed`` for the match as it now stands when the transaction commits;
    ``acted_by`` is the user whose action changed it, if a player's."""
    details = {
        "match_id": match.pk,
        "seq": match.seq,
        "to_act_id": match.to_act_id,
        "deadline": match.deadline,
        "finished": match.status == Match.Status.FINISHED,
        "acted_by": acted_by,
        "bot_to_act": _computer_to_act(match),
    }
    transaction.on_commit(lambda: match_changed.send(Match, **details))


def announce_tournament(tournament_id: int) -> None:
    """Send ``tournament_changed`` when the transaction commits: its pages show it again."""
    transaction.on_commit(lambda: tournament_changed.send(Tournament, tournament_id=tournament_id))


def _computer_to_act(match: Match) -> bool | None:
    """Whether the player to act is a computer opponent, if their profile came with the match."""
    if match.to_act_id is None:
        return False
    if not Match.to_act.is_cached(match) or not profile_loaded(match.to_act):
        return None
    return is_computer(match.to_act)
