"""Tournaments (knock-out, double elimination, Swiss, round robin): creating one, signing up and
withdrawing, the start, and the pairings advancing as its matches end (docs/tournaments.md
gives the rules; games/services/pairings.py says who meets whom).

Every change holds the tournament's row lock, so advancing is idempotent: a second run, from
a task delivered twice or from the minute sweep, re-reads the bracket and finds nothing to do.
A tournament's matches are started through ``match_start`` in the same transaction, so a crash
before the commit leaves neither the bracket's change nor the match.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, TypeGuard

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.guests import is_guest
from accounts.models import is_computer
from backgammon_site.core.errors import ApplicationError, Forbidden
from backgammon_site.core.variants import DEFAULT_VARIANT, is_variant, unknown_variant_message
from games.engine import MatchRules
from games.models import (
    BracketMatch,
    Match,
    MatchEvent,
    Player,
    Tournament,
    TournamentEntry,
    Variant,
    Viewer,
)
from games.models.tournaments import MAX_SIZE, MIN_SIZE
from games.services.announcements import announce_tournament
from games.services.challenges import MAX_MATCH_LENGTH, clean_time_control
from games.services.droppers import dropper_refusal, refuse_dropper
from games.services.locks import locked_tournament
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
from ratings.selectors import rating_in, ratings_in
from ratings.services import new_rating

#: A tournament due to start at its time with fewer players than this is cancelled: the
#: smallest tournament anyone may create.
MIN_PLAYERS = MIN_SIZE

Status = Tournament.Status
Format = Tournament.Format


def can_create_tournament(user: Viewer) -> bool:
    """Moderators (the Moderators group holds ``games.create_tournament``) create tournaments;
    any signed-up player too when the site allows it (TOURNAMENTS_OPEN_TO_PLAYERS). Guests and
    computers never."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.has_perm("games.create_tournament"):
        return True
    return bool(settings.TOURNAMENTS_OPEN_TO_PLAYERS) and may_play(user)


def tournament_create(
    *,
    creator: Player,
    name: str,
    size: int,
    start_mode: str,
    starts_at: datetime | None = None,
    match_length: int = 5,
    time_control: Mapping[str, Any] | None = None,
    rated: bool = True,
    min_rating: int | None = None,
    max_rating: int | None = None,
    variant: str = DEFAULT_VARIANT,
    format: str = Format.KNOCKOUT,
    rounds: int | None = None,
) -> Tournament:
    """Create a tournament open for sign-up, in ``format`` (a Swiss of ``rounds`` rounds, or
    as many as its players need when None); it starts when full, or at ``starts_at``. Its
    matches are played in ``variant`` (with the variant's own format and cube), and its seeds
    and rating limits go by the players' ratings in that variant."""
    if not can_create_tournament(creator):
        raise Forbidden(_("Only moderators can create tournaments."))
    if not isinstance(name, str) or not name.strip():
        raise ApplicationError(_("Give the tournament a name."), "name")
    if len(name.strip()) > 100:
        raise ApplicationError(_("A tournament's name is at most 100 characters."), "name")
    if not is_variant(variant):
        raise ApplicationError(unknown_variant_message(variant), "variant")
    if not whole(size) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ApplicationError(
            _("A tournament has room for %(least)d to %(most)d players.")
            % {"least": MIN_SIZE, "most": MAX_SIZE},
            "size",
        )
    if format not in Format.values:
        raise ApplicationError(
            "A tournament is a knock-out, a double elimination, a Swiss or a round robin "
            f"({', '.join(Format.values)}).",
            "format",
        )
    if rounds is not None:
        if format != Format.SWISS:
            raise ApplicationError("Only a Swiss has a chosen number of rounds.", "rounds")
        if not whole(rounds) or not 1 <= rounds < size:
            raise ApplicationError(
                f"A Swiss of {size} players has 1 to {size - 1} rounds.", "rounds"
            )
    if not whole(match_length) or not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise ApplicationError(
            _("A match is played to 1 to %(most)d points.") % {"most": MAX_MATCH_LENGTH},
            "match_length",
        )
    if not isinstance(rated, bool):
        raise ApplicationError(_("Say whether the matches are rated: true or false."), "rated")
    for limit in (min_rating, max_rating):
        if limit is not None and not whole(limit):
            raise ApplicationError(_("A rating limit is a whole number."), "rating_limits")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise ApplicationError(
            _("The lowest rating allowed is above the highest."), "rating_limits"
        )
    if start_mode == Tournament.StartMode.AT_TIME:
        if starts_at is None or starts_at <= timezone.now():
            raise ApplicationError(_("A tournament starts at a time still to come."), "starts_at")
    elif start_mode == Tournament.StartMode.WHEN_FULL:
        if starts_at is not None:
            raise ApplicationError(
                _("A tournament that starts when full has no start time."), "starts_at"
            )
    else:
        raise ApplicationError('A tournament starts "when_full" or "at_time".', "start_mode")
    return Tournament.objects.create(
        name=name.strip(),
        format=format,
        rounds=rounds,
        variant=variant,
        size=size,
        start_mode=start_mode,
        starts_at=starts_at,
        match_length=match_length,
        time_control=clean_time_control(time_control),
        rated=rated,
        min_rating=min_rating,
        max_rating=max_rating,
        created_by=creator,
    )


def tournament_sign_up(*, tournament_id: int, player: Player) -> TournamentEntry:
    """Enter ``player`` in a tournament still signing up; the last place taken starts a
    tournament that starts when full."""
    if not may_play(player):
        raise Forbidden(_("Guests and computer players cannot enter tournaments."))
    refuse_dropper(player)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        _still_signing_up(tournament, "sign up")
        entry = tournament.entries.filter(player=player).first()
        if entry is not None and not entry.withdrawn:
            raise ApplicationError(_("You are already signed up."), "already_entered")
        if _active_entries(tournament).count() >= tournament.size:
            raise ApplicationError(
                _("The tournament is full: all %(size)d places are taken.")
                % {"size": tournament.size},
                "tournament_full",
            )
        rating = rating_in(player, tournament.variant).rating
        low, high = tournament.min_rating, tournament.max_rating
        if (low is not None and rating < low) or (high is not None and rating > high):
            raise ApplicationError(
                _(
                    "Your %(variant)s rating, %(rating).0f, is outside this tournament's "
                    "limits (%(limits)s)."
                )
                % {
                    "variant": Variant(tournament.variant).label,
                    "rating": rating,
                    "limits": _limits_in_words(tournament),
                },
                "rating_outside_limits",
            )
        if entry is None:
            entry = TournamentEntry.objects.create(tournament=tournament, player=player)
        else:
            entry.withdrawn = False
            entry.joined_at = timezone.now()
            entry.save(update_fields=["withdrawn", "joined_at"])
        _start_if_due(tournament, timezone.now())
        announce_tournament(tournament.pk)
    return entry


def tournament_withdraw(*, tournament_id: int, player: Player) -> TournamentEntry:
    """Take ``player`` out of a tournament that has not started."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entry = tournament.entries.filter(player=player, withdrawn=False).first()
        if entry is None:
            raise ApplicationError(_("You are not signed up for this tournament."), "not_entered")
        _still_signing_up(tournament, "withdraw")
        entry.withdrawn = True
        entry.save(update_fields=["withdrawn"])
        announce_tournament(tournament.pk)
    return entry


def tournament_start(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Start the tournament if it is due (full, or its time has come); cancel one due at its
    time with fewer than MIN_PLAYERS. Returns whether it started or was cancelled now; safe to
    call any number of times."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        started = _start_if_due(tournament, now or timezone.now())
        if started:
            announce_tournament(tournament.pk)
        return started


def tournament_advance(*, tournament_id: int) -> int:
    """Move the tournament on: the winners (and, in a double elimination, the losers) of
    finished matches to their next pairings, a Swiss's next round once its round is over, a
    match for each pairing whose two players are known, and the end. Returns how many changes
    were made (0 when there was nothing to do)."""
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Status.RUNNING:
            return 0
        changes = _advance(tournament)
        if changes:
            announce_tournament(tournament.pk)
        return changes


def may_play(user: Viewer) -> TypeGuard[Player]:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and not is_guest(user)
        and not is_computer(user)
    )


def may_take_part(user: Viewer) -> TypeGuard[Player]:
    """Whether ``user`` may be in a tournament or a league now: ``may_play`` (an active
    account, so not suspended) and not refused as a dropper. Asked at sign-up and again at
    every start, since either can change between the two."""
    return may_play(user) and dropper_refusal(user) is None


def entries_still_admitted(entries: list[Any]) -> list[Any]:
    """The entries (a tournament's or a league season's) whose players may still take part;
    the others are withdrawn, so that no match is made that could only end on time."""
    admitted, refused = [], []
    for entry in entries:
        if may_take_part(entry.player):
            admitted.append(entry)
        else:
            entry.withdrawn = True
            refused.append(entry)
    if refused:
        type(refused[0]).objects.bulk_update(refused, ["withdrawn"])
    return admitted


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _active_entries(tournament: Tournament) -> Any:
    return tournament.entries.filter(withdrawn=False)


def _still_signing_up(tournament: Tournament, what: str) -> None:
    if tournament.status != Status.SIGNING_UP or (
        tournament.starts_at is not None and tournament.starts_at <= timezone.now()
    ):
        if tournament.status == Status.SIGNING_UP:
            message = (
                _("Too late to sign up: the tournament has started.")
                if what == "sign up"
                else _("Too late to withdraw: the tournament has started.")
            )
        else:
            message = (
                _("Too late to sign up: the tournament is %(status)s.")
                if what == "sign up"
                else _("Too late to withdraw: the tournament is %(status)s.")
            ) % {"status": Status(tournament.status).label}
        raise ApplicationError(message, "tournament_started")


def _limits_in_words(tournament: Tournament) -> str:
    low, high = tournament.min_rating, tournament.max_rating
    if low is not None and high is not None:
        return _("%(low)d to %(high)d") % {"low": low, "high": high}
    if low is not None:
        return _("at least %(low)d") % {"low": low}
    return _("at most %(high)d") % {"high": high}


def _start_if_due(tournament: Tournament, now: datetime) -> bool:
    if tournament.status != Status.SIGNING_UP:
        return False
    entries = list(_active_entries(tournament).select_related("player").order_by("joined_at"))
    if tournament.start_mode == Tournament.StartMode.WHEN_FULL:
        due = len(entries) >= tournament.size
    else:
        due = tournament.starts_at is not None and tournament.starts_at <= now
    if not due:
        return False
    entries = entries_still_admitted(entries)
    if tournament.start_mode == Tournament.StartMode.WHEN_FULL and len(entries) < tournament.size:
        return False  # places freed by players who may no longer play: sign-up goes on
    if len(entries) < MIN_PLAYERS:
        tournament.status = Status.CANCELLED
        tournament.finished_at = now
        tournament.cancel_reason = (
            f"Fewer than {MIN_PLAYERS} players had signed up when it was due to start."
        )
        tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
        return True
    _seed(entries, tournament.variant)
    if tournament.format == Format.SWISS:
        chosen = tournament.rounds or swiss_round_count(len(entries))
        tournament.rounds = min(chosen, len(entries) - 1)
        _pair_swiss_round(tournament, 1)
    elif tournament.format == Format.ROUND_ROBIN:
        _draw_round_robin(tournament, entries)
    else:
        _draw_bracket(tournament, entries)
    tournament.status = Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at", "rounds"])
    _advance(tournament)
    return True


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
    rows = [
        BracketMatch(
            tournament=tournament,
            round=round_number,
            slot=slot,
            first=by_pk[first],
            second=by_pk[second],
        )
        for round_number, pairs in enumerate(
            round_robin_rounds([entry.pk for entry in entries]), start=1
        )
        for slot, (first, second) in enumerate(pairs)
    ]
    BracketMatch.objects.bulk_create(rows)


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
    rows = [
        BracketMatch(
            tournament=tournament,
            round=round_number,
            slot=slot,
            first=by_pk[first],
            second=by_pk[second],
        )
        for slot, (first, second) in enumerate(pairs)
    ]
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


def _advance(tournament: Tournament) -> int:
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


def _advance_swiss(tournament: Tournament, rows: list[BracketMatch]) -> int:
    """The results of the round's finished matches; once every match of the round has ended,
    the next round paired and its matches started, or, after the last round (or when no
    pairing avoids a rematch), the end."""
    changes = sum(_play_pairing(tournament, row) for row in rows)
    if any(row.winner_id is None for row in rows):
        return changes
    last = rows[-1].round
    if last < (tournament.rounds or 0) and _pair_swiss_round(tournament, last + 1):
        return changes + 1 + _advance(tournament)
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
