"""What moderators do to a match (end it with no winner, or award it to one of its players)
and to a tournament (cancel it, ending its matches under way with no winner)."""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from backgammon_site.core.errors import ApplicationError, Forbidden
from games.engine import MatchAborted, MatchAwarded, state_from_snapshot
from games.engine.events import Event
from games.models import BracketMatch, Match, Player, Tournament, Viewer
from games.services.announcements import announce_tournament
from games.services.locks import locked_match, locked_tournament
from games.services.writer import MatchWriter


def match_abort(*, match_id: int, moderator: Player, reason: str) -> Match:
    """A moderator ends a match with no winner."""
    return _moderate(match_id, moderator, lambda match: MatchAborted(clean_reason(reason)))


def match_award(*, match_id: int, moderator: Player, winner: Player, reason: str) -> Match:
    """A moderator ends a match and gives it to ``winner``."""

    def award(match: Match) -> Event:
        index = match.player_index(winner)
        if index is None:
            raise ApplicationError("The match can only be awarded to one of its players.")
        return MatchAwarded(index, clean_reason(reason))

    return _moderate(match_id, moderator, award)


def can_cancel_tournament(user: Viewer) -> bool:
    """Moderators, who may abort matches, may cancel a tournament."""
    return bool(
        user is not None and user.is_authenticated and user.has_perm("games.moderate_match")
    )


def tournament_cancel(*, tournament_id: int, moderator: Player, reason: str) -> Tournament:
    """A moderator cancels a tournament, before or after its start. Its matches under way are
    aborted through ``match_abort`` (no winner, so unrated; the reason is kept in each log);
    finished matches and the bracket stay as they were; the tournament ends with no winner.
    Cancelling a cancelled tournament changes nothing; a finished one cannot be cancelled."""
    if not can_cancel_tournament(moderator):
        raise Forbidden("Only moderators can cancel a tournament.")
    reason = clean_reason(reason)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status == Tournament.Status.CANCELLED:
            return tournament
        if tournament.status == Tournament.Status.FINISHED:
            raise ApplicationError(
                "The tournament has finished: its results stand.", "tournament_finished"
            )
        tournament.status = Tournament.Status.CANCELLED
        tournament.finished_at = timezone.now()
        tournament.cancelled_by = moderator
        tournament.cancel_reason = reason
        tournament.save(update_fields=["status", "finished_at", "cancelled_by", "cancel_reason"])
        under_way = BracketMatch.objects.filter(
            tournament=tournament, match__status=Match.Status.ACTIVE
        ).values_list("match_id", flat=True)
        for match_id in list(under_way):
            match_abort(
                match_id=match_id,
                moderator=moderator,
                reason=f"The tournament {tournament.name} was cancelled: {reason}",
            )
        announce_tournament(tournament.pk)
    return tournament


def _moderate(match_id: int, moderator: Player, make_event: Callable[[Match], Event]) -> Match:
    if not moderator.has_perm("games.moderate_match"):
        raise Forbidden("Only moderators can abort or award a match.")
    return match_end(match_id=match_id, actor=moderator, make_event=make_event)


def match_forfeit(*, match_id: int, actor: Player, loser: Player, reason: str) -> Match:
    """End a match under way by forfeit of ``loser``: it is awarded to their opponent, the
    award and its reason (with ``actor``) the last event of its log. For the services that
    decided it (a removal from an event, a suspension), which check who may."""

    def forfeit(match: Match) -> Event:
        index = match.player_index(loser)
        if index is None:
            raise ApplicationError("Only a player of the match can forfeit it.", "not_a_player")
        return MatchAwarded(1 - index, clean_reason(reason))

    return match_end(match_id=match_id, actor=actor, make_event=forfeit)


def match_end(*, match_id: int, actor: Player, make_event: Callable[[Match], Event]) -> Match:
    """Append the event that ends the match, in one transaction holding its lock."""
    with transaction.atomic():
        match = locked_match(match_id)
        writer = MatchWriter(match, state_from_snapshot(match.state))
        writer.append(make_event(match), actor)
        writer.save()
    return match


def clean_reason(reason: str) -> str:
    """The moderator's reason, required, as it is kept."""
    if not isinstance(reason, str) or not reason.strip():
        raise ApplicationError("Give a reason: it is kept in the match's log.", "reason")
    return reason.strip()[:500]
