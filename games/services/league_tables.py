"""A league's tables: each division's standings with their tie-breaks and its results grid,
and the lists the pages and the API show. Reads only; docs/tournaments.md (Leagues) gives the
rules the order follows.

Standings count a division's matches finished by the season's close (all of them while it
runs); a match still going at the close goes on but counts as unplayed, and a match ended
without a winner counts as unplayed too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet

from games.models import (
    League,
    LeagueDivision,
    LeagueEntry,
    LeagueMatch,
    LeagueSeason,
    Match,
    Player,
)


@dataclass
class Result:
    """A counted match: who won, and the points each scored. The winner counts the match's
    length exactly: as having reached it when the match ended early (on time, by resignation
    of the match, by a moderator's award), and no more when a last game's gammon or cube
    took them past it (a 3-point match won 5-2 counts 3-2)."""

    winner_id: int
    points: dict[int, int]


@dataclass
class Standing:
    """A player's line in a division's table (ids are LeagueEntry ids)."""

    entry: LeagueEntry
    played: int = 0
    won: int = 0
    lost: int = 0
    points_won: int = 0
    points_lost: int = 0
    position: int = 0
    head_to_head: int = 0

    @property
    def points_difference(self) -> int:
        return self.points_won - self.points_lost


@dataclass
class DivisionTable:
    division: LeagueDivision
    standings: list[Standing]
    pairings: list[LeagueMatch]
    #: One row per player in table order: for each opponent (same order) the pairing, or
    #: None on the diagonal.
    grid: list[list[GridCell | None]] = field(default_factory=list)

    @property
    def rows(self) -> list[tuple[Standing, list[GridCell | None]]]:
        """Each line of the table with its row of the grid."""
        return list(zip(self.standings, self.grid, strict=True))


@dataclass
class GridCell:
    pairing: LeagueMatch
    #: "won", "lost", "playing" or "unplayed" (finished without a counted result)
    outcome: str
    score: str


def counted_result(pairing: LeagueMatch, closed_at: Any) -> Result | None:
    """The result the standings count for ``pairing``, or None while it counts as unplayed."""
    match = pairing.match
    if match.status != Match.Status.FINISHED or match.winner_id is None:
        return None
    if closed_at is not None and match.finished_at is not None and match.finished_at > closed_at:
        return None
    score = (match.state or {}).get("score") or [0, 0]
    by_player = {
        match.first_player_id: min(int(score[0]), match.match_length),
        match.second_player_id: min(int(score[1]), match.match_length),
    }
    by_player[match.winner_id] = match.match_length
    entries = {
        pairing.first.player_id: pairing.first_id,
        pairing.second.player_id: pairing.second_id,
    }
    return Result(
        winner_id=entries[match.winner_id],
        points={entries[player]: points for player, points in by_player.items()},
    )


def standings_of(
    entries: list[LeagueEntry], pairings: list[LeagueMatch], closed_at: Any
) -> list[Standing]:
    """The division's table, best first: most match wins, then points difference, then head
    to head (wins in the matches among the players still level), then more points won, then
    the higher rating at the season's start, then the earlier sign-up."""
    lines = {entry.pk: Standing(entry=entry) for entry in entries}
    results = []
    for pairing in pairings:
        result = counted_result(pairing, closed_at)
        if result is None:
            continue
        results.append((pairing, result))
        for entry_id, points in result.points.items():
            line = lines[entry_id]
            other = pairing.second_id if entry_id == pairing.first_id else pairing.first_id
            line.played += 1
            line.points_won += points
            line.points_lost += result.points[other]
            if result.winner_id == entry_id:
                line.won += 1
            else:
                line.lost += 1
    level: dict[tuple[int, int], list[Standing]] = defaultdict(list)
    for line in lines.values():
        level[(line.won, line.points_difference)].append(line)
    for group in level.values():
        tied = {line.entry.pk for line in group}
        for pairing, result in results:
            if len(tied) > 1 and {pairing.first_id, pairing.second_id} <= tied:
                lines[result.winner_id].head_to_head += 1
    table = sorted(
        lines.values(),
        key=lambda line: (
            -line.won,
            -line.points_difference,
            -line.head_to_head,
            -line.points_won,
            -(line.entry.rating or 0),
            line.entry.joined_at,
            line.entry.pk,
        ),
    )
    for position, line in enumerate(table, start=1):
        line.position = position
    return table


def results_grid(standings: list[Standing], pairings: list[LeagueMatch], closed_at: Any) -> Any:
    """Each player's results against each other, in table order."""
    by_pair = {frozenset((p.first_id, p.second_id)): p for p in pairings}
    grid = []
    for row in standings:
        cells: list[GridCell | None] = []
        for column in standings:
            if row is column:
                cells.append(None)
                continue
            pairing = by_pair.get(frozenset((row.entry.pk, column.entry.pk)))
            if pairing is None:
                cells.append(None)
                continue
            cells.append(_cell(pairing, row.entry.pk, column.entry.pk, closed_at))
        grid.append(cells)
    return grid


def _cell(pairing: LeagueMatch, mine: int, theirs: int, closed_at: Any) -> GridCell:
    result = counted_result(pairing, closed_at)
    if result is not None:
        outcome = "won" if result.winner_id == mine else "lost"
        return GridCell(pairing, outcome, f"{result.points[mine]}-{result.points[theirs]}")
    if pairing.match.status == Match.Status.ACTIVE:
        return GridCell(pairing, "playing", "")
    return GridCell(pairing, "unplayed", "")


def season_tables(season: LeagueSeason) -> list[DivisionTable]:
    """Every division of a season that has started, top first, with its table and grid."""
    divisions = list(season.divisions.order_by("level"))
    entries = defaultdict(list)
    for entry in LeagueEntry.objects.filter(division__season=season).select_related("player"):
        entries[entry.division_id].append(entry)
    pairings = defaultdict(list)
    for pairing in LeagueMatch.objects.filter(division__season=season).select_related(
        "match", "first", "second"
    ):
        pairings[pairing.division_id].append(pairing)
    tables = []
    for division in divisions:
        standings = standings_of(entries[division.pk], pairings[division.pk], season.finished_at)
        grid = results_grid(standings, pairings[division.pk], season.finished_at)
        tables.append(DivisionTable(division, standings, pairings[division.pk], grid))
    return tables


def leagues_listed() -> QuerySet[League]:
    """Every league, newest first."""
    return League.objects.select_related("created_by").order_by("-created_at", "-pk")


def league_seasons(league: League) -> tuple[LeagueSeason | None, LeagueSeason | None]:
    """The season running (or the last one finished, when none runs) and the one signing up,
    each with ``players`` counted."""
    seasons = list(
        league.seasons.annotate(players=Count("entries", filter=Q(entries__withdrawn=False)))
    )
    upcoming = next((s for s in seasons if s.status == LeagueSeason.Status.SIGNING_UP), None)
    played = [s for s in seasons if s.status != LeagueSeason.Status.SIGNING_UP]
    return (played[-1] if played else None), upcoming


def seasons_played(league: League) -> list[LeagueSeason]:
    """The league's seasons that have started (running or finished), first first, each with
    ``players`` counted."""
    return list(
        league.seasons.exclude(status=LeagueSeason.Status.SIGNING_UP)
        .annotate(players=Count("entries", filter=Q(entries__withdrawn=False)))
        .order_by("number")
    )


def season_played(league: League, number: int) -> LeagueSeason | None:
    """The league's season ``number``, if it has started (a season still signing up has no
    tables), with ``players`` counted."""
    return next((season for season in seasons_played(league) if season.number == number), None)


def season_players(season: LeagueSeason) -> list[LeagueEntry]:
    """Who is in a season, by sign-up."""
    return list(
        season.entries.filter(withdrawn=False).select_related("player").order_by("joined_at", "pk")
    )


def leagues_of_player(player: Player) -> QuerySet[League]:
    """The leagues a player is in (in any season, signed up and not withdrawn), newest first."""
    return (
        League.objects.filter(seasons__entries__player=player, seasons__entries__withdrawn=False)
        .distinct()
        .order_by("-created_at", "-pk")
    )


def league_of_match(match_id: int) -> int | None:
    """The league a match was played in, if any."""
    return (
        LeagueMatch.objects.filter(match_id=match_id)
        .values_list("division__season__league_id", flat=True)
        .first()
    )
