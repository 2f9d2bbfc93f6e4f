"""Each tournament format's draw at the start and its advancing as matches end: a knock-out's
or a double elimination's bracket filled by its feeds, a Swiss's rounds paired one at a time,
a round robin's every pairing at once (docs/tournaments.md gives the rules;
games/services/pairings.py says who meets whom). Called by games/services/tournaments.py
with the tournament's row lock held.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.engine import MatchRules
from games.models import BracketMatch, Match, MatchEvent, Tournament, TournamentEntry
from games.services.matches import match_start
from games.services.pairings import (
    FINAL,
    LOSERS,
    MAIN,
    Feed,
    NoPairing,
    Place,
    bracket_order,
    bracket_size,
    elimination_feeds,
    round_robin_rounds,
    swiss_pairings,
    swiss_round_count,
)
from games.services.tournament_tables import (
    round_robin_table,
    swiss_standings,
    tournament_results,
)
from games.signals import tournament_match_started
from ratings.selectors import ratings_in
from ratings.services import new_rating

Status = Tournament.Status
Format = Tournament.Format


def draw(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Seed the players and draw the tournament's first pairings as its format has them (a
    Swiss's number of rounds set too); the caller saves the tournament."""
    _seed(entries, tournament.variant)
    if tournament.format == Format.SWISS:
        chosen = tournament.rounds or swiss_round_count(len(entries))
        tournament.rounds = min(chosen, len(entries) - 1)
        _pair_swiss_round(tournament, 1)
    elif tournament.format == Format.ROUND_ROBIN:
        _draw_round_robin(tournament, entries)
    else:
        _draw_bracket(tournament, entries)


def advance(tournament: Tournament) -> int:
    """Move a running tournament on as its format has it; the number of changes made."""
    rows = list(
        BracketMatch.objects.select_for_update(of=("self",))
        .filter(tournament=tournament)
        .select_related("match", "first__player", "second__player", "winner__player")
        .order_by("round", "slot")
    )
    if not rows:
        return 0
    if tournament.format == Format.SWISS:
        return _advance_swiss(tournament, rows)
    if tournament.format == Format.ROUND_ROBIN:
        return _advance_round_robin(tournament, rows)
    return _advance_bracket(tournament, rows)


def _seed(entries: list[TournamentEntry], variant: str) -> None:
    """Seed by rating in the tournament's ``variant``, highest first; of equal ratings, the
    earlier sign-up first. A player not yet rated in it has a new player's rating."""
    ratings = ratings_in((entry.player_id for entry in entries), variant)
    for entry in entries:
        found = ratings.get(entry.player_id)
        entry.rating = (new_rating(entry.player, variant) if found is None else found).rating
    entries.sort(key=lambda entry: (-(entry.rating or 0), entry.joined_at, entry.pk))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
    TournamentEntry.objects.bulk_update(entries, ["rating", "seed"])


def _draw_bracket(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Every pairing of a knock-out's (or a double elimination's) every round; the first
    round's filled in, byes (seeds beyond the field) given to the top seeds, who win them at
    once."""
    size = bracket_size(len(entries))
    by_seed = {entry.seed: entry for entry in entries}
    order = bracket_order(size)
    feeds = elimination_feeds(size, double=tournament.format == Format.DOUBLE_ELIMINATION)
    rows = []
    for part, round_number, slot in feeds:
        row = BracketMatch(tournament=tournament, part=part, round=round_number, slot=slot)
        if (part, round_number) == (MAIN, 1):
            row.first, row.second = by_seed.get(order[2 * slot]), by_seed.get(order[2 * slot + 1])
            row.bye = row.second is None
            row.winner = row.first if row.bye else None
        rows.append(row)
    BracketMatch.objects.bulk_create(rows)


def _draw_round_robin(tournament: Tournament, entries: list[TournamentEntry]) -> None:
    """Every pairing of a round robin, in rounds by the circle method; all are played at
    once."""
    by_pk = {entry.pk: entry for entry in entries}
    rounds = enumerate(round_robin_rounds(list(by_pk)), start=1)
    BracketMatch.objects.bulk_create(
        [row for number, pairs in rounds for row in _pairings(tournament, number, pairs, by_pk)]
    )


def _pairings(
    tournament: Tournament,
    round_number: int,
    pairs: list[tuple[int, int]],
    by_pk: dict[int, TournamentEntry],
) -> list[BracketMatch]:
    """The round's pairings of two players (entry pks), unsaved, in slot order."""
    return [
        BracketMatch(
            tournament=tournament,
            round=round_number,
            slot=slot,
            first=by_pk[first],
            second=by_pk[second],
        )
        for slot, (first, second) in enumerate(pairs)
    ]


def _pair_swiss_round(tournament: Tournament, round_number: int) -> bool:
    """Pair a Swiss's round ``round_number`` among the players still in, a bye won at once;
    False when no pairing avoids a rematch (or fewer than two players are left)."""
    standings = swiss_standings(tournament)
    players = [line.entry for line in standings if not line.entry.withdrawn]
    if len(players) < 2:
        return False
    earlier = tournament_results(tournament)
    # Every pairing of a Swiss round has its first player: the tests of first_id only narrow.
    met = {
        frozenset((row.first_id, row.second_id))
        for row in earlier
        if row.first_id is not None and row.second_id
    }
    had_bye = {row.first_id for row in earlier if row.first_id is not None and row.bye}
    wins = {line.entry.pk: line.won for line in standings}
    order = sorted(players, key=lambda entry: (-wins[entry.pk], entry.seed or 0, entry.pk))
    try:
        pairs, bye = swiss_pairings([entry.pk for entry in order], wins, met, had_bye)
    except NoPairing:
        return False
    by_pk = {entry.pk: entry for entry in players}
    rows = _pairings(tournament, round_number, pairs, by_pk)
    if bye is not None:
        rows.append(
            BracketMatch(
                tournament=tournament,
                round=round_number,
                slot=len(pairs),
                first=by_pk[bye],
                bye=True,
                winner=by_pk[bye],
            )
        )
    BracketMatch.objects.bulk_create(rows)
    return True


def _advance_swiss(tournament: Tournament, rows: list[BracketMatch]) -> int:
    """The results of the round's finished matches; once every match of the round has ended,
    the next round paired and its matches started, or, after the last round (or when no
    pairing avoids a rematch), the end."""
    changes = sum(_play_pairing(tournament, row) for row in rows)
    if any(row.winner_id is None for row in rows):
        return changes
    last = rows[-1].round
    if last < (tournament.rounds or 0) and _pair_swiss_round(tournament, last + 1):
        return changes + 1 + advance(tournament)
    first, second = swiss_standings(tournament)[:2]
    _finish(tournament, first.entry, second.entry)
    return changes + 1


def _advance_round_robin(tournament: Tournament, rows: list[BracketMatch]) -> int:
    """The results of finished matches; once all have ended, the end: the top of the table
    wins."""
    changes = sum(_play_pairing(tournament, row) for row in rows)
    if any(row.winner_id is None for row in rows):
        return changes
    first, second = round_robin_table(tournament).standings[:2]
    # A round robin's table is a league's, of tournament entries.
    _finish(tournament, first.entry, second.entry)  # type: ignore[arg-type]
    return changes + 1


def _advance_bracket(tournament: Tournament, rows: list[BracketMatch]) -> int:
    """Move a knock-out or a double elimination on: each pairing takes the players its feeds
    have decided, in as many passes as it takes for nothing more to change."""
    feeds = elimination_feeds(
        bracket_size(sum(2 for row in rows if (row.part, row.round) == (MAIN, 1))),
        double=tournament.format == Format.DOUBLE_ELIMINATION,
    )
    place = {(row.part, row.round, row.slot): row for row in rows}
    changes, changed = 0, True
    while changed:
        changed = False
        for key, row in sorted(place.items(), key=lambda item: _depth(item[0])):
            step = _fill(row, feeds[key], place, feeds) + _play_pairing(tournament, row)
            changed = changed or bool(step)
            changes += step
    if tournament.format == Format.DOUBLE_ELIMINATION:
        first_final, reset = place[(FINAL, 1, 0)], place[(FINAL, 2, 0)]
        decided = reset if reset.winner_id is not None else None
        if first_final.winner_id is not None and first_final.winner_id == first_final.first_id:
            decided = first_final
    else:
        final = place[(MAIN, max(round_number for _, round_number, _ in place), 0)]
        decided = final if final.winner_id is not None else None
    if decided is not None:
        assert decided.first is not None and decided.second is not None
        runner_up = decided.second if decided.winner_id == decided.first_id else decided.first
        assert decided.winner is not None
        _finish(tournament, decided.winner, runner_up)
        changes += 1
    return changes


def _depth(place: Place) -> tuple[int, int]:
    part, round_number, _ = place
    order = {MAIN: 2 * round_number - 2, LOSERS: round_number, FINAL: 1000 + round_number}
    return order[part], round_number


def _outcome(
    row: BracketMatch,
    place: dict[Place, BracketMatch],
    feeds: dict[Place, tuple[Feed, Feed] | None],
) -> tuple[TournamentEntry | None, TournamentEntry | None] | None:
    """The pairing's (winner, loser) once decided, either None when nobody was there (a bye
    has no loser; an empty pairing of the losers' bracket neither); None while undecided."""
    if row.winner_id is not None:
        loser = row.second if row.winner_id == row.first_id else row.first
        return row.winner, loser
    sides = _sides(row, place, feeds)
    if sides is None:
        return None
    present = [entry for entry in sides if entry is not None]
    if len(present) == 2:
        return None
    return (present[0] if present else None), None


def _sides(
    row: BracketMatch,
    place: dict[Place, BracketMatch],
    feeds: dict[Place, tuple[Feed, Feed] | None],
) -> tuple[TournamentEntry | None, TournamentEntry | None] | None:
    """The pairing's two players once both feeds are decided (None for nobody), else None."""
    sources = feeds[(row.part, row.round, row.slot)]
    if sources is None:
        return row.first, row.second
    if row.part == FINAL and row.round == 2:
        first_final = _outcome(place[sources[0].place], place, feeds)
        if first_final is None:
            return None
        grand = place[sources[0].place]
        if first_final[0] is not None and first_final[0] == grand.first:
            return None, None  # the winners' bracket's winner won: no reset
        return grand.first, grand.second
    found = []
    for feed in sources:
        outcome = _outcome(place[feed.place], place, feeds)
        if outcome is None:
            return None
        found.append(outcome[0] if feed.winner else outcome[1])
    return found[0], found[1]


def _fill(
    row: BracketMatch,
    sources: tuple[Feed, Feed] | None,
    place: dict[Place, BracketMatch],
    feeds: dict[Place, tuple[Feed, Feed] | None],
) -> int:
    """Place the players the pairing's feeds have decided; a pairing left with one player is a
    bye, won at once; one with none, empty."""
    if sources is None or row.winner_id is not None:
        return 0
    if row.part == FINAL and row.round == 2:
        known: tuple[TournamentEntry | None, ...] = _sides(row, place, feeds) or (None, None)
    else:
        outcomes = [_outcome(place[feed.place], place, feeds) for feed in sources]
        known = tuple(
            None if outcome is None else outcome[0 if feed.winner else 1]
            for feed, outcome in zip(sources, outcomes, strict=True)
        )
    changes = 0
    for side, entry in zip(("first", "second"), known, strict=True):
        if entry is not None and getattr(row, f"{side}_id") is None:
            setattr(row, side, entry)
            row.save(update_fields=[side])
            changes += 1
    sides = _sides(row, place, feeds)
    if sides is not None and None in sides and not row.bye:
        row.bye = True
        row.winner = sides[0] or sides[1]
        row.save(update_fields=["bye", "winner"])
        changes += 1
    return changes


def _play_pairing(tournament: Tournament, row: BracketMatch) -> int:
    """The winner of a pairing whose match is over; a walkover, or a match started, for a
    pairing whose two players are known."""
    if row.winner_id is not None or row.first_id is None or row.second_id is None:
        return 0
    if row.match is not None:
        if row.match.status != Match.Status.FINISHED:
            return 0
        row.winner = _winner_of(row)
        row.save(update_fields=["winner"])
        return 1
    walkover = _walkover_winner(row)
    if walkover is None:
        _start_match(tournament, row)
    else:
        row.winner = walkover
        row.save(update_fields=["winner"])
    return 1


def _finish(tournament: Tournament, winner: TournamentEntry, second: TournamentEntry) -> None:
    tournament.status = Status.FINISHED
    tournament.winner = winner.player
    tournament.second = second.player
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "winner", "second", "finished_at"])


def _walkover_winner(row: BracketMatch) -> TournamentEntry | None:
    """The winner, without a match, of a pairing one of whose players was removed from the
    tournament (the other; the higher seed if both were), or None when both still play."""
    assert row.first is not None and row.second is not None
    if not (row.first.withdrawn or row.second.withdrawn):
        return None
    if row.first.withdrawn != row.second.withdrawn:
        return row.second if row.first.withdrawn else row.first
    return min(row.first, row.second, key=lambda entry: entry.seed or 0)


def _winner_of(row: BracketMatch) -> TournamentEntry:
    """The player who won the match. Of a match ended without a winner: the opponent of a
    player who aborted it (else aborting would be a free win for whoever benefits); the higher
    seed when a moderator aborted it or both players agreed to end it."""
    assert row.match is not None and row.first is not None and row.second is not None
    if row.match.winner_id == row.first.player_id:
        return row.first
    if row.match.winner_id == row.second.player_id:
        return row.second
    aborted_by = (
        MatchEvent.objects.filter(match=row.match, kind="abort")
        .values_list("actor_id", flat=True)
        .last()
    )
    if aborted_by == row.first.player_id:
        return row.second
    if aborted_by == row.second.player_id:
        return row.first
    return min(row.first, row.second, key=lambda entry: entry.seed or 0)


def _start_match(tournament: Tournament, row: BracketMatch) -> None:
    """The pairing's match, the higher seed in the first player's seat."""
    assert row.first is not None and row.second is not None
    higher, lower = sorted((row.first, row.second), key=lambda entry: entry.seed or 0)
    match = match_start(
        first_player=higher.player,
        second_player=lower.player,
        match_length=tournament.match_length,
        rated=tournament.rated,
        time_control=tournament.time_control,
        rules=MatchRules.of(tournament.variant),
    )
    row.match = match
    row.save(update_fields=["match"])
    match_id, tournament_id = match.pk, tournament.pk
    transaction.on_commit(
        lambda: tournament_match_started.send(
            Tournament, match_id=match_id, tournament_id=tournament_id
        )
    )
