"""The director's tools: a tournament's or a league's director (its creator), or a moderator,
removes a player from the event mid-way, with a reason kept in an audit record.

The removed player's matches under way in the event are forfeited: each is awarded to the
opponent, the award the last event of its log. A knock-out then advances the opponent (and
any later opponent of the removed player wins by walkover); in a league every unfinished
match of theirs in the running season is forfeited, so the opponent counts a win at the
match's length and the removed player the points they had scored (docs/tournaments.md,
"A director removes a player").
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, Forbidden
from games.models import (
    AuditRecord,
    BracketMatch,
    League,
    LeagueEntry,
    LeagueMatch,
    LeagueSeason,
    Match,
    Player,
    Tournament,
    TournamentEntry,
    Viewer,
)
from games.services.announcements import announce_tournament
from games.services.locks import locked_league, locked_tournament
from games.services.moderation import clean_reason, match_forfeit
from games.services.tournaments import tournament_advance


def may_direct(user: Viewer, event: Tournament | League) -> bool:
    """The event's creator directs it; moderators may act as its director."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and (user.pk == event.created_by_id or user.has_perm("games.moderate_match"))
    )


def event_entry_remove(
    *, director: Player, event: Tournament | League, player: Player, reason: str
) -> AuditRecord:
    """Remove ``player`` from ``event`` (a tournament or a league), forfeiting their matches
    under way in it; returns the audit record. Refused, with nothing changed, to anyone but
    the event's director or a moderator, without a reason, or for a player not in the event."""
    if not isinstance(event, Tournament | League):
        raise ApplicationError(_("Players are removed from a tournament or a league."), "event")
    if not may_direct(director, event):
        raise Forbidden(_("Only the event's director or a moderator can remove a player."))
    reason = clean_reason(reason)
    if player is None or getattr(player, "pk", None) is None:
        raise ApplicationError(_("Choose a player of the event."), "not_entered")
    with transaction.atomic():
        if isinstance(event, Tournament):
            details = _remove_from_tournament(director, event, player, reason)
        else:
            details = _remove_from_league(director, event, player, reason)
        return AuditRecord.objects.create(
            acting_user=director,
            modified_user=player,
            kind=AuditRecord.Kind.EVENT_ENTRY_REMOVED,
            reason=reason,
            details=details,
        )


def _remove_from_tournament(
    director: Player, event: Tournament, player: Player, reason: str
) -> dict[str, Any]:
    tournament = locked_tournament(event.pk)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise ApplicationError(
            _("The tournament is %(status)s: no one can be removed from it.")
            % {"status": Tournament.Status(tournament.status).label},
            "tournament_over",
        )
    entry = tournament.entries.filter(player=player, withdrawn=False).first()
    if entry is None:
        raise ApplicationError(
            _("That player is not in the tournament (or was removed already)."), "not_entered"
        )
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    under_way = list(
        BracketMatch.objects.filter(tournament=tournament, match__status=Match.Status.ACTIVE)
        .filter(Q(first=entry) | Q(second=entry))
        .values_list("match_id", flat=True)
    )
    forfeited = _forfeit(under_way, director, player, f"Removed from {tournament.name}: {reason}")
    if tournament.status == Tournament.Status.RUNNING:
        tournament_advance(tournament_id=tournament.pk)
    else:
        announce_tournament(tournament.pk)
    return {
        "event": "tournament",
        "tournament_id": tournament.pk,
        "event_name": tournament.name,
        "forfeited_matches": forfeited,
    }


def _remove_from_league(
    director: Player, event: League, player: Player, reason: str
) -> dict[str, Any]:
    league = locked_league(event.pk)
    numbers = list(
        league.seasons.filter(
            status__in=(LeagueSeason.Status.RUNNING, LeagueSeason.Status.SIGNING_UP),
            entries__player=player,
            entries__withdrawn=False,
        ).values_list("number", flat=True)
    )
    if not numbers:
        raise ApplicationError(
            _("That player is in no running or coming season of the league."), "not_entered"
        )
    removed = league.seasons.filter(number__in=numbers)
    running = removed.filter(status=LeagueSeason.Status.RUNNING).first()
    forfeited: list[int] = []
    if running is not None:
        under_way = list(
            LeagueMatch.objects.filter(division__season=running, match__status=Match.Status.ACTIVE)
            .filter(Q(first__player=player) | Q(second__player=player))
            .order_by("match_id")
            .values_list("match_id", flat=True)
        )
        forfeited = _forfeit(under_way, director, player, f"Removed from {league.name}: {reason}")
    for season in removed:
        season.entries.filter(player=player).update(withdrawn=True)
    return {
        "event": "league",
        "league_id": league.pk,
        "event_name": league.name,
        "seasons": sorted(numbers),
        "forfeited_matches": forfeited,
    }


def _forfeit(match_ids: list[int], actor: Player, loser: Player, reason: str) -> list[int]:
    for match_id in match_ids:
        match_forfeit(match_id=match_id, actor=actor, loser=loser, reason=reason)
    return match_ids


def removable_players(event: Tournament | League) -> list[Player]:
    """The players a director may remove from ``event`` now, by name: a tournament's entrants
    still in it while it signs up or runs; a league's players of its running and next
    season."""
    entries: QuerySet[TournamentEntry] | QuerySet[LeagueEntry]
    if isinstance(event, Tournament):
        if event.status not in (Tournament.Status.SIGNING_UP, Tournament.Status.RUNNING):
            return []
        entries = event.entries.filter(withdrawn=False)
    else:
        entries = LeagueEntry.objects.filter(
            season__league=event,
            season__status__in=(LeagueSeason.Status.RUNNING, LeagueSeason.Status.SIGNING_UP),
            withdrawn=False,
        )
    players = {entry.player.pk: entry.player for entry in entries.select_related("player")}
    return sorted(players.values(), key=lambda player: player.get_username().lower())
