"""Tournaments (knock-out, double elimination, Swiss, round robin): creating one, signing up and
withdrawing, the start, and the pairings advancing as its matches end (docs/tournaments.md
gives the rules; games/services/tournament_formats.py draws and advances each format).

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
from games.models import (
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
from games.services.tournament_formats import advance, draw
from ratings.selectors import rating_in

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
        changes = advance(tournament)
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
    draw(tournament, entries)
    tournament.status = Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["status", "started_at", "rounds"])
    advance(tournament)
    return True
