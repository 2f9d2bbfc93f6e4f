"""Challenges: one player asks another (or anyone) for a match, which starts once accepted."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.guests import is_guest
from accounts.models import is_program
from backgammon_site.core.errors import ApplicationError, Conflict, Forbidden
from backgammon_site.core.variants import DEFAULT_VARIANT, is_variant, unknown_variant_message
from games.engine import EngineError, MatchRules, state_from_snapshot
from games.engine.variants import MATCH_VARIANTS, MatchFormat
from games.models import Challenge, Match, Player
from games.services.droppers import refuse_dropper
from games.services.locks import locked_challenge, locked_match
from games.services.matches import match_start, player_seed
from games.signals import challenge_closed, challenge_created

MAX_MATCH_LENGTH = 25
DEFAULT_TIME_CONTROL = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 8}


def _programs_unrated() -> ApplicationError:
    """Programs' matches are not rated (docs/architecture.md, "Programs")."""
    return ApplicationError(
        _("A program plays unrated matches only: send rated false."), "program_unrated"
    )


def challenge_create(
    *,
    challenger: Player,
    opponent: Player | None,
    match_length: int = 5,
    rated: bool = True,
    time_control: Mapping[str, Any] | None = None,
    seed: str | None = None,
    challenger_plays_first: bool = True,
    rematch_of: Match | None = None,
    variant: str = DEFAULT_VARIANT,
    match_format: str | None = None,
    cube: bool | None = None,
) -> Challenge:
    """Challenge ``opponent``, or anyone who accepts when ``opponent`` is None.

    ``variant`` names the rules (``games.models.Variant``); a Tavli match is played to
    ``match_length`` points or, with ``match_format`` ``best_of_three``, as the best of three
    games (its length is then 3). ``cube`` says whether the doubling cube is used: without it,
    the variant's custom.

    ``seed`` is the challenger's own dice seed; without one, one is drawn at the start.
    The challenger takes the first player's seat unless ``challenger_plays_first`` is False;
    ``rematch_of`` is the finished match a rematch offers to play again.
    """
    if opponent is not None and opponent.pk == challenger.pk:
        raise ApplicationError(_("You cannot challenge yourself."), "self_challenge")
    if opponent is not None and not opponent.is_active:
        raise ApplicationError(
            _("%(player)s cannot be challenged.") % {"player": opponent}, "inactive_player"
        )
    if isinstance(match_length, bool) or not isinstance(match_length, int):
        raise ApplicationError("The match length is a whole number of points.", "match_length")
    if not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise ApplicationError(
            f"A match is played to 1 to {MAX_MATCH_LENGTH} points.", "match_length"
        )
    if not isinstance(rated, bool):
        raise ApplicationError("Say whether the match is rated: true or false.", "rated")
    if rated and (is_program(challenger) or (opponent is not None and is_program(opponent))):
        raise _programs_unrated()
    rules = challenge_rules(variant, match_format, cube)
    if rules.counts_games():
        match_length = 3
    if opponent is None:
        refuse_dropper(challenger)
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        match_length=match_length,
        variant=rules.variant,
        match_format=_CHALLENGE_FORMATS[rules.match_format],
        cube=rules.cube,
        rated=rated,
        time_control=clean_time_control(time_control),
        challenger_seed=player_seed(seed) or "",
        challenger_plays_first=challenger_plays_first,
        rematch_of=rematch_of,
    )
    details = {"challenge_id": challenge.pk, "rematch_of": challenge.rematch_of_id}
    transaction.on_commit(lambda: challenge_created.send(Challenge, **details))
    return challenge


_CHALLENGE_FORMATS = {
    MatchFormat.POINTS: Challenge.MatchFormat.POINTS,
    MatchFormat.TAVLI_POINTS: Challenge.MatchFormat.POINTS,
    MatchFormat.TAVLI_BEST_OF_THREE: Challenge.MatchFormat.BEST_OF_THREE,
}


def challenge_rules(variant: object, match_format: object, cube: object) -> MatchRules:
    """The rules a challenge asks for, or an ApplicationError (code ``invalid``, with the
    field at fault in ``fields`` as the API's validation errors have it) saying what is wrong."""
    if not is_variant(variant):
        raise invalid("variant", unknown_variant_message(variant))
    assert isinstance(variant, str)
    if match_format is not None and match_format not in Challenge.MatchFormat.values:
        raise invalid(
            "match_format",
            f"A match is played to {Challenge.MatchFormat.POINTS.value!r} or, in Tavli, as the "
            f"{Challenge.MatchFormat.BEST_OF_THREE.value!r}; not {match_format!r}.",
        )
    best_of_three = match_format == Challenge.MatchFormat.BEST_OF_THREE
    formats = MATCH_VARIANTS[variant].match_formats
    if best_of_three and MatchFormat.TAVLI_BEST_OF_THREE not in formats:
        raise invalid("match_format", "Only a Tavli match is played as the best of three games.")
    if cube is not None and not isinstance(cube, bool):
        raise invalid("cube", "Say whether the cube is used: true or false.")
    engine_format = MatchFormat.TAVLI_BEST_OF_THREE if best_of_three else None
    try:
        return MatchRules.of(variant, engine_format, cube)
    except EngineError as error:
        reason = str(error)
        raise invalid(
            "cube" if cube else "match_format", f"{reason[:1].upper()}{reason[1:]}."
        ) from None


def invalid(field: str, problem: str) -> ApplicationError:
    """A request refused for one field's value: ``variant: There is no variant 'chess'; ...``."""
    return ApplicationError(f"{field}: {problem}", "invalid", fields={field: [problem]})


def clean_time_control(time_control: Mapping[str, Any] | None) -> dict[str, Any]:
    """A valid time control, or an ApplicationError saying what is wrong with it."""
    if time_control is None:
        return dict(DEFAULT_TIME_CONTROL)
    if not isinstance(time_control, Mapping):
        raise ApplicationError("The time control is an object with a kind.", "time_control")
    kind = time_control.get("kind")
    if kind == "correspondence":
        allowed = {"kind", "days_per_move", "reserve_days"}
        per_move = _number(time_control, "days_per_move", low=1 / 24, high=30)
        reserve = _number(time_control, "reserve_days", low=0, high=60, default=0)
        cleaned = {"kind": kind, "days_per_move": per_move, "reserve_days": reserve}
    elif kind == "live":
        allowed = {"kind", "minutes", "increment_seconds"}
        minutes = _number(time_control, "minutes", low=1, high=120)
        increment = _number(time_control, "increment_seconds", low=0, high=120, default=0)
        cleaned = {"kind": kind, "minutes": minutes, "increment_seconds": increment}
    else:
        raise ApplicationError(
            'The time control\'s kind is "correspondence" or "live".', "time_control"
        )
    unknown = set(time_control) - allowed
    if unknown:
        raise ApplicationError(
            f"Unknown time control field: {', '.join(sorted(unknown))}.", "time_control"
        )
    return cleaned


def _number(
    values: Mapping[str, Any], name: str, *, low: float, high: float, default: float | None = None
) -> float | int:
    value = values.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApplicationError(f"{name} must be a number.", "time_control")
    if isinstance(value, float) and not math.isfinite(value):
        raise ApplicationError(f"{name} must be a finite number.", "time_control")
    if not low <= value <= high:
        raise ApplicationError(f"{name} must be between {low:g} and {high:g}.", "time_control")
    return value


def challenge_accept(*, challenge_id: int, user: Player, seed: str | None = None) -> Match:
    """Accept a challenge: the match starts at once, the challenger as the first player
    unless the challenge seats them second (a rematch with the colours swapped).

    ``seed`` is the accepting player's own dice seed; without one, one is drawn.
    """
    own_seed = player_seed(seed)
    with transaction.atomic():
        challenge = locked_challenge(challenge_id)
        if challenge.status != Challenge.Status.OPEN:
            raise ApplicationError(_closed(challenge.status), "challenge_closed")
        if challenge.challenger_id == user.pk:
            raise ApplicationError(_("You cannot accept your own challenge."), "self_challenge")
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise Forbidden(_("This challenge is for another player."))
        if challenge.opponent_id is None:
            refuse_dropper(user)
        if challenge.rated and is_program(user):
            raise _programs_unrated()
        open_to_anyone = challenge.opponent_id is None
        seats = [(challenge.challenger, challenge.challenger_seed or None), (user, own_seed)]
        if not challenge.challenger_plays_first:
            seats.reverse()
        match = match_start(
            first_player=seats[0][0],
            second_player=seats[1][0],
            match_length=challenge.match_length,
            rated=challenge.rated,
            time_control=challenge.time_control,
            player_seeds=(seats[0][1], seats[1][1]),
            rules=challenge_rules(challenge.variant, challenge.match_format, challenge.cube),
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.match = match
        challenge.decided_at = timezone.now()
        challenge.save(update_fields=["status", "opponent", "match", "decided_at"])
        _announce_closed(challenge, open_to_anyone=open_to_anyone)
    return match


def rematch_offer(*, match_id: int, player: Player) -> tuple[Challenge, bool]:
    """Offer the opponent of a finished match another one: the same length, rating and time
    control, the seats (and so the colours) swapped.

    Returns the challenge and whether this call made it. While the player's offer is open it
    is returned again; when the opponent's offer is open, it is accepted instead (the match
    starts); once a rematch has been accepted, that one is returned: a match has one rematch.
    Guests (and so pass-and-play) have no rematch: a guest has no lobby in which to find or
    answer a challenge.
    """
    with transaction.atomic():
        match = locked_match(match_id)
        seat = match.player_index(player)
        if seat is None:
            raise Forbidden(_("Only the players of a match can offer a rematch."))
        if match.status != Match.Status.FINISHED:
            raise Conflict(
                _("The match is still being played: a rematch waits for its end."),
                code="match_not_finished",
            )
        opponent = match.players[1 - seat]
        if is_guest(player) or is_guest(opponent):
            raise ApplicationError(
                _("Guests have no rematch: sign up to keep playing."), "rematch_guest"
            )
        rematches = Challenge.objects.filter(rematch_of=match)
        played = rematches.filter(status=Challenge.Status.ACCEPTED).first()
        if played is not None:
            return played, False
        offers = rematches.filter(status=Challenge.Status.OPEN)
        own = offers.filter(challenger=player).first()
        if own is not None:
            return own, False
        theirs = offers.filter(challenger=opponent, opponent=player).first()
        if theirs is not None:
            challenge_accept(challenge_id=theirs.pk, user=player)
            return Challenge.objects.select_related("match").get(pk=theirs.pk), False
        rules = state_from_snapshot(match.state).rules
        challenge = challenge_create(
            challenger=player,
            opponent=opponent,
            variant=rules.variant,
            match_format=_CHALLENGE_FORMATS[rules.match_format],
            cube=rules.cube,
            match_length=match.match_length,
            rated=match.rated,
            time_control=match.time_control,
            challenger_plays_first=seat == 1,
            rematch_of=match,
        )
        return challenge, True


def challenge_decline(*, challenge_id: int, user: Player) -> Challenge:
    """The challenged player says no."""
    with transaction.atomic():
        challenge = locked_challenge(challenge_id)
        if challenge.opponent_id != user.pk:
            raise Forbidden(_("Only the challenged player can decline a challenge."))
        return _close(challenge, Challenge.Status.DECLINED)


def challenge_cancel(*, challenge_id: int, user: Player) -> Challenge:
    """The challenger takes the challenge back."""
    with transaction.atomic():
        challenge = locked_challenge(challenge_id)
        if challenge.challenger_id != user.pk:
            raise Forbidden(_("Only the challenger can cancel a challenge."))
        return _close(challenge, Challenge.Status.CANCELLED)


def _closed(status: str, *, already: bool = False) -> str:
    """Why a challenge that is no longer open cannot be answered (or closed ``already``)."""
    why: dict[str, str]
    if already:
        why = {
            Challenge.Status.ACCEPTED: _("This challenge is already accepted."),
            Challenge.Status.DECLINED: _("This challenge is already declined."),
            Challenge.Status.CANCELLED: _("This challenge is already cancelled."),
        }
        return why.get(status, _("This challenge is already closed."))
    why = {
        Challenge.Status.ACCEPTED: _("This challenge is accepted."),
        Challenge.Status.DECLINED: _("This challenge is declined."),
        Challenge.Status.CANCELLED: _("This challenge is cancelled."),
    }
    return why.get(status, _("This challenge is closed."))


def _close(challenge: Challenge, status: str) -> Challenge:
    """Close an open challenge as ``status`` (declined or cancelled)."""
    if challenge.status != Challenge.Status.OPEN:
        raise ApplicationError(_closed(challenge.status, already=True), "challenge_closed")
    challenge.status = status
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at"])
    _announce_closed(challenge, open_to_anyone=challenge.opponent_id is None)
    return challenge


def _announce_closed(challenge: Challenge, *, open_to_anyone: bool) -> None:
    details = {
        "challenge_id": challenge.pk,
        "open_to_anyone": open_to_anyone,
        "rematch_of": challenge.rematch_of_id,
    }
    transaction.on_commit(lambda: challenge_closed.send(Challenge, **details))
