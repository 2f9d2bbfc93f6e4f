"""A Swiss's standings and a round robin's table and cross table, read from the tournament's
pairings. Reads only; docs/tournaments.md gives the order. The round robin's table is a
league division's (games/services/league_tables.py): the same counting and tie-breaks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.models import BracketMatch, Tournament, TournamentEntry
from games.services.league_tables import (
    GridCell,
    Standing,
    counted_result,
    results_grid,
    standings_of,
)


@dataclass
class SwissStanding:
    """A player's line in a Swiss: ``won`` counts byes and walkovers; ``buchholz`` is the sum
    of the wins of the opponents met; points are those of the matches played (as a league
    counts them)."""

    entry: TournamentEntry
    won: int = 0
    lost: int = 0
    byes: int = 0
    buchholz: int = 0
    points_won: int = 0
    points_lost: int = 0
    position: int = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.won + self.lost

    @property
    def points_difference(self) -> int:
        return self.points_won - self.points_lost


@dataclass
class CrossTable:
    """A round robin's table, best first, each line with its row of the cross table."""

    standings: list[Standing]
    grid: list[list[GridCell | None]]

    @property
    def rows(self) -> list[tuple[Standing, list[GridCell | None]]]:
        return list(zip(self.standings, self.grid, strict=True))


#: The order of a double elimination's parts, as they are played.
PART_ORDER: dict[str, int] = {
    BracketMatch.Part.MAIN: 0,
    BracketMatch.Part.LOSERS: 1,
    BracketMatch.Part.FINAL: 2,
}


def tournament_results(tournament: Tournament) -> list[BracketMatch]:
    """The tournament's pairings with their players and matches: the main part's (every
    format's) round by round, then a double elimination's losers' bracket, then its final."""
    pairings = BracketMatch.objects.filter(tournament=tournament).select_related(
        "first__player", "second__player", "winner__player", "match"
    )
    return sorted(pairings, key=lambda p: (PART_ORDER[p.part], p.round, p.slot))


def seeded_entries(tournament: Tournament) -> list[TournamentEntry]:
    """Everyone who started the tournament (those removed since too), by seed."""
    return list(
        tournament.entries.filter(seed__isnull=False)
        .select_related("player__profile")
        .order_by("seed", "pk")
    )


def swiss_standings(
    tournament: Tournament, pairings: list[BracketMatch] | None = None
) -> list[SwissStanding]:
    """The Swiss's standings, best first: most match wins (a bye counts as one), then the
    Buchholz score (the sum of the wins of the opponents met), then the points difference,
    then the higher seed (the higher rating at the start)."""
    lines = {entry.pk: SwissStanding(entry=entry) for entry in seeded_entries(tournament)}
    pairings = tournament_results(tournament) if pairings is None else pairings
    for pairing in pairings:
        if pairing.winner_id is None:
            continue
        if pairing.second_id is None:
            lines[pairing.winner_id].won += 1
            lines[pairing.winner_id].byes += 1
            continue
        assert pairing.first_id is not None
        loser = pairing.second_id if pairing.winner_id == pairing.first_id else pairing.first_id
        lines[pairing.winner_id].won += 1
        lines[loser].lost += 1
        lines[pairing.first_id].opponents.append(pairing.second_id)
        lines[pairing.second_id].opponents.append(pairing.first_id)
        # A played pairing of a bracket reads as a league pairing: both name their entries.
        result = counted_result(pairing, None) if pairing.match is not None else None  # type: ignore[arg-type]
        if result is not None:
            for entry_id, points in result.points.items():
                other = loser if entry_id == pairing.winner_id else pairing.winner_id
                lines[entry_id].points_won += points
                lines[entry_id].points_lost += result.points[other]
    for line in lines.values():
        line.buchholz = sum(lines[opponent].won for opponent in line.opponents)
    table = sorted(
        lines.values(),
        key=lambda line: (
            -line.won,
            -line.buchholz,
            -line.points_difference,
            line.entry.seed or 0,
            line.entry.pk,
        ),
    )
    for position, line in enumerate(table, start=1):
        line.position = position
    return table


def round_robin_table(
    tournament: Tournament, pairings: list[BracketMatch] | None = None
) -> CrossTable:
    """The round robin's table (a league division's order: wins, points difference, head to
    head, points won, rating, sign-up) and its cross table in the same order."""
    entries = seeded_entries(tournament)
    pairings = tournament_results(tournament) if pairings is None else pairings
    played = [pairing for pairing in pairings if pairing.match is not None]
    standings = standings_of(entries, played, None)  # type: ignore[arg-type]
    return CrossTable(standings, results_grid(standings, played, None))  # type: ignore[arg-type]
