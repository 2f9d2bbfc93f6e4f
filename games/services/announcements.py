"""What the rest of the site hears of a change to a match or a tournament, once its
transaction has committed."""

from __future__ import annotations

from django.db import transaction

from accounts.models import is_computer, profile_loaded
from games.models import Match, Tournament
from games.signals import match_changed, tournament_changed

#: Events a player may add whoever is to act, which start no turn: an offer to end the match
#: and its refusal.
NOT_DECISIONS = ("offer_end", "decline_end")


def announce(match: Match, *, acted_by: int | None = None, decided_at: int | None = None) -> None:
    """Send ``match_changed`` for the match as it now stands when the transaction commits;
    ``acted_by`` is the user whose action changed it, if a player's, and ``decided_at`` the seq
    of that action if it was a decision (not one of NOT_DECISIONS). ``committed`` is the match
    as it committed, when its players came with their profiles (the news needs them): a
    receiver that has it need not read the match again."""
    details = {
        "match_id": match.pk,
        "seq": match.seq,
        "players": (match.first_player_id, match.second_player_id),
        "decided_at": decided_at,
        "to_act_id": match.to_act_id,
        "deadline": match.deadline,
        "finished": match.status == Match.Status.FINISHED,
        "acted_by": acted_by,
        "bot_to_act": _computer_to_act(match),
        "committed": match if all(profile_loaded(player) for player in match.players) else None,
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
