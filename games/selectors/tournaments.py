"""Reads of tournaments that pages and the API share: the list, one with its entrants and its
bracket, a player's, and the one a match was played in."""

from __future__ import annotations

from django.db.models import Case, Count, Q, QuerySet, Value, When

from games.models import BracketMatch, Player, Tournament, TournamentEntry


def tournaments_listed(status: str | None = None) -> QuerySet[Tournament]:
    """Tournaments, those signing up first, then running, then the rest, newest first within
    each; each with ``players``, the count of its entrants still in."""
    tournaments = Tournament.objects.select_related("winner").annotate(
        players=Count("entries", filter=Q(entries__withdrawn=False)),
        stage=Case(
            When(status=Tournament.Status.SIGNING_UP, then=Value(0)),
            When(status=Tournament.Status.RUNNING, then=Value(1)),
            default=Value(2),
        ),
    )
    if status is not None:
        tournaments = tournaments.filter(status=status)
    return tournaments.order_by("stage", "-created_at", "-pk")


def tournament_with_players(tournament_id: int) -> Tournament | None:
    """The tournament with its creator, winner and second, and ``players`` counted."""
    return (
        Tournament.objects.select_related("created_by", "winner", "second")
        .annotate(players=Count("entries", filter=Q(entries__withdrawn=False)))
        .filter(pk=tournament_id)
        .first()
    )


def tournament_entrants(tournament: Tournament) -> list[TournamentEntry]:
    """Who is in, by seed once seeded, else by sign-up; with their profiles, for the names
    they chose."""
    return list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player__profile")
        .order_by("seed", "joined_at", "pk")
    )


def bracket_rounds(
    tournament: Tournament, part: str = BracketMatch.Part.MAIN
) -> list[list[BracketMatch]]:
    """The pairings of a part of the tournament (all of them but a double elimination's
    losers' bracket and grand final are in the main part), round by round, each round from the
    top."""
    rounds: list[list[BracketMatch]] = []
    pairings = (
        tournament.bracket.filter(part=part)
        .select_related("first__player", "second__player", "winner__player", "match")
        .order_by("round", "slot")
    )
    for pairing in pairings:
        while len(rounds) < pairing.round:
            rounds.append([])
        rounds[pairing.round - 1].append(pairing)
    return rounds


def tournaments_of_player(player: Player) -> QuerySet[Tournament]:
    """The tournaments a player is in, newest first."""
    return (
        Tournament.objects.filter(entries__player=player, entries__withdrawn=False)
        .select_related("winner", "second")
        .order_by("-created_at", "-pk")
    )


def tournament_of_match(match_id: int) -> int | None:
    """The tournament a match was played in, if any."""
    return (
        BracketMatch.objects.filter(match_id=match_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
