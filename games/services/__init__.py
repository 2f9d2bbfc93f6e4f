"""The only code that changes a match or a challenge: one function per action.

Every change of a match runs in one transaction holding the match row's lock: it checks that
the caller saw the current seq, validates through the rules engine, appends the events
(with whatever the server does next: dice, opening rolls, forced plays), writes the snapshot,
and announces the change once the transaction has committed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.models import Profile, profile_loaded, profile_of
from accounts.vacation import VacationAllowance
from backgammon_site.errors import ApplicationError, Conflict, Forbidden, IllegalAction, NotFound
from games.clocks.rules import TimeControl, add_increments, vacation_days_used, warning_time
from games.dice import rolls, statistics
from games.dice.seed_vault import decrypt_seed, encrypt_seed
from games.engine import (
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Dice,
    Double,
    Drop,
    EngineError,
    MatchAborted,
    MatchAwarded,
    MatchState,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimedOut,
    snapshot,
    state_from_snapshot,
)
from games.engine.events import Event
from games.engine.notation import format_play, parse_play
from games.log.integrity import event_digest
from games.models import Challenge, Match, MatchEvent
from games.signals import challenge_created, deadline_near, match_changed

User = get_user_model()

MAX_MATCH_LENGTH = 25
DEFAULT_TIME_CONTROL = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 8}
ACTIONS = (
    "roll",
    "double",
    "take",
    "drop",
    "move",
    "resign",
    "accept_resign",
    "reject_resign",
    "abort",
    "offer_end",
    "accept_end",
    "decline_end",
)
#: The actions that end a match without a winner, or offer or answer to; either player may
#: take them whoever is to act.
ENDING_ACTIONS = ("abort", "offer_end", "accept_end", "decline_end")

# --- Challenges ---


def challenge_create(
    *,
    challenger: Any,
    opponent: Any | None,
    match_length: int = 5,
    rated: bool = True,
    time_control: Mapping[str, Any] | None = None,
    seed: str | None = None,
) -> Challenge:
    """Challenge ``opponent``, or anyone who accepts when ``opponent`` is None.

    ``seed`` is the challenger's own dice seed; without one, one is drawn at the start.
    """
    if opponent is not None and opponent.pk == challenger.pk:
        raise ApplicationError("You cannot challenge yourself.", "self_challenge")
    if opponent is not None and not opponent.is_active:
        raise ApplicationError(f"{opponent} cannot be challenged.", "inactive_player")
    if isinstance(match_length, bool) or not isinstance(match_length, int):
        raise ApplicationError("The match length is a whole number of points.", "match_length")
    if not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise ApplicationError(
            f"A match is played to 1 to {MAX_MATCH_LENGTH} points.", "match_length"
        )
    if not isinstance(rated, bool):
        raise ApplicationError("Say whether the match is rated: true or false.", "rated")
    challenge = Challenge.objects.create(
        challenger=challenger,
        opponent=opponent,
        match_length=match_length,
        rated=rated,
        time_control=clean_time_control(time_control),
        challenger_seed=_player_seed(seed) or "",
    )
    challenge_id = challenge.pk
    transaction.on_commit(lambda: challenge_created.send(Challenge, challenge_id=challenge_id))
    return challenge


def _player_seed(seed: object) -> str | None:
    try:
        return rolls.clean_player_seed(seed)
    except ValueError as error:
        raise ApplicationError(str(error), "seed") from None


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


def challenge_accept(*, challenge_id: int, user: Any, seed: str | None = None) -> Match:
    """Accept a challenge: the match starts at once, the challenger as the first player.

    ``seed`` is the accepting player's own dice seed; without one, one is drawn.
    """
    own_seed = _player_seed(seed)
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.status != Challenge.Status.OPEN:
            raise ApplicationError(f"This challenge is {challenge.status}.", "challenge_closed")
        if challenge.challenger_id == user.pk:
            raise ApplicationError("You cannot accept your own challenge.", "self_challenge")
        if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
            raise Forbidden("This challenge is for another player.")
        match = match_start(
            first_player=challenge.challenger,
            second_player=user,
            match_length=challenge.match_length,
            rated=challenge.rated,
            time_control=challenge.time_control,
            player_seeds=(challenge.challenger_seed or None, own_seed),
        )
        challenge.status = Challenge.Status.ACCEPTED
        challenge.opponent = user
        challenge.match = match
        challenge.decided_at = timezone.now()
        challenge.save(update_fields=["status", "opponent", "match", "decided_at"])
    return match


def challenge_decline(*, challenge_id: int, user: Any) -> Challenge:
    """The challenged player says no."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.opponent_id != user.pk:
            raise Forbidden("Only the challenged player can decline a challenge.")
        return _close(challenge, Challenge.Status.DECLINED)


def challenge_cancel(*, challenge_id: int, user: Any) -> Challenge:
    """The challenger takes the challenge back."""
    with transaction.atomic():
        challenge = _locked_challenge(challenge_id)
        if challenge.challenger_id != user.pk:
            raise Forbidden("Only the challenger can cancel a challenge.")
        return _close(challenge, Challenge.Status.CANCELLED)


def _locked_challenge(challenge_id: int) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound(f"There is no challenge {challenge_id}.") from None


def _close(challenge: Challenge, status: str) -> Challenge:
    if challenge.status != Challenge.Status.OPEN:
        raise ApplicationError(f"This challenge is already {challenge.status}.", "challenge_closed")
    challenge.status = status
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["status", "decided_at"])
    return challenge


# --- Matches ---


def match_start(
    *,
    first_player: Any,
    second_player: Any,
    match_length: int,
    rated: bool,
    time_control: Mapping[str, Any],
    player_seeds: tuple[str | None, str | None] = (None, None),
) -> Match:
    """Create a match, commit to its dice, and make its opening roll.

    Players without a dice seed of their own are given one (it is public, in the first event).
    """
    if first_player.pk == second_player.pk:
        raise ApplicationError("A match needs two different players.", "self_challenge")
    seeds = [_player_seed(seed) or rolls.new_player_seed() for seed in player_seeds]
    server_seed = rolls.new_server_seed()
    with transaction.atomic():
        state = MatchState.new(match_length)
        match = Match.objects.create(
            first_player=first_player,
            second_player=second_player,
            match_length=match_length,
            rated=rated,
            time_control=dict(time_control),
            state=snapshot(state),
            server_seed_ciphertext=encrypt_seed(server_seed),
            player_seeds=seeds,
        )
        log = _Log(match, state)
        log.record(
            "match_started",
            {
                "match_length": match_length,
                "rated": rated,
                "time_control": dict(time_control),
                "players": [first_player.get_username(), second_player.get_username()],
                "player_ids": [first_player.pk, second_player.pk],
                "dice": {
                    "scheme": "hmac-sha256-v1",
                    "server_seed_commitment": rolls.commitment(server_seed),
                    "player_seeds": seeds,
                },
            },
        )
        log.play_on()
        log.save()
    return match


def match_act(
    *,
    match_id: int,
    actor: Any,
    expected_seq: int,
    action: str,
    play: str | None = None,
    points: int | None = None,
) -> Match:
    """A player's action: roll, double, take, drop, move, resign, accept_resign, reject_resign,
    or one of the ENDING_ACTIONS (``ending_actions`` says which are allowed now).

    ``expected_seq`` is the seq the player saw; if the match has moved on, nothing is done
    and Conflict is raised. ``play`` is the notation of a move; ``points`` (1, 2 or 3) the
    value offered when resigning.
    """
    if action not in ACTIONS:
        raise ApplicationError(
            f"Unknown action {action!r}; actions are {', '.join(ACTIONS)}.", "unknown_action"
        )
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        raise ApplicationError("seq must be the whole number of the last event seen.", "seq")
    try:
        return _act(match_id, actor, expected_seq, action, play, points)
    except _OnVacation:
        # Acting ends a vacation first, so that the time of this and every other match of the
        # player's runs again before the action is timed.
        vacation_end(user=actor)
        return _act(match_id, actor, expected_seq, action, play, points)


class _OnVacation(Exception):
    """The acting player is on vacation: end it, then act."""


def _act(
    match_id: int,
    actor: Any,
    expected_seq: int,
    action: str,
    play: str | None,
    points: int | None,
) -> Match:
    with transaction.atomic():
        match = _locked_match(match_id)
        player = match.player_index(actor)
        if player is None:
            raise Forbidden("Only the two players can act in a match.")
        if _preferences(match.players[player]).vacation_started_at is not None:
            raise _OnVacation
        if match.seq != expected_seq:
            raise Conflict(
                f"The match has moved on: it is at seq {match.seq}, not {expected_seq}.",
                current_seq=match.seq,
            )
        log = _Log(match, state_from_snapshot(match.state))
        timed_out = _is_overdue(match)
        if timed_out:
            log.time_out()
        else:
            log.append(_player_event(log, player, action, play, points), actor)
            log.decision_goes_on = action in ("offer_end", "decline_end")
            log.play_on()
        log.save()
    if timed_out:
        loser = match.players[1 - log.state.winner] if log.state.winner is not None else None
        raise IllegalAction(f"Time ran out: {loser} lost the match on time.", "timeout")
    return match


def match_timeout(*, match_id: int, seq: int | None = None) -> TimeCheck:
    """The player to act loses the match on time, if their deadline has passed.

    Safe to call any number of times, from any worker: it acts only while the match is still
    at ``seq`` (when given) and overdue. A deadline still to come is returned, so a task that
    woke early can wait for it.
    """
    with transaction.atomic():
        try:
            match = _locked_match(match_id)
        except NotFound:
            return TimeCheck(timed_out=False)
        if match.status != Match.Status.ACTIVE or match.deadline is None:
            return TimeCheck(timed_out=False)
        if seq is not None and match.seq != seq:
            return TimeCheck(timed_out=False)
        if not _is_overdue(match):
            return TimeCheck(timed_out=False, deadline=match.deadline)
        log = _Log(match, state_from_snapshot(match.state))
        log.time_out()
        log.save()
    return TimeCheck(timed_out=True)


@dataclass(frozen=True)
class TimeCheck:
    """What match_timeout found: the match lost on time, or the deadline still to come."""

    timed_out: bool
    deadline: datetime | None = None


def match_warn_of_deadline(*, match_id: int) -> bool:
    """Warn the player to act that their deadline is near, once per decision."""
    with transaction.atomic():
        match = _locked_match(match_id)
        if match.warn_at is None or match.warn_at > timezone.now():
            return False
        match.warn_at = None
        match.save(update_fields=["warn_at"])
        if match.status != Match.Status.ACTIVE or match.deadline is None:
            return False
        details = {
            "match_id": match.pk,
            "seq": match.seq,
            "player_id": match.to_act_id,
            "deadline": match.deadline,
        }
        transaction.on_commit(lambda: deadline_near.send(Match, **details))
    return True


# --- Vacation ---


def vacation_start(*, user: Any) -> Profile:
    """Pause all of ``user``'s correspondence deadlines (never their opponents') until they act,
    switch it off, or run out of vacation days."""
    now = timezone.now()
    with transaction.atomic():
        profile = _locked_profile(user)
        if profile.vacation_started_at is not None:
            raise ApplicationError("You are already on vacation.", "vacation_on")
        allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until).at(now)
        profile.vacation_days, profile.vacation_counted_until = (
            allowance.days,
            allowance.counted_until,
        )
        if allowance.days < 1:
            profile.save(update_fields=["vacation_days", "vacation_counted_until"])
            raise ApplicationError("You have no vacation days left.", "no_vacation_days")
        profile.vacation_started_at = now
        profile.save(
            update_fields=["vacation_days", "vacation_counted_until", "vacation_started_at"]
        )
        for match in _correspondence_matches_waiting_for(user, paused=False):
            assert match.deadline is not None
            match.paused_time_left = max((match.deadline - now).total_seconds(), 0.0)
            match.deadline = match.warn_at = None
            match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
            _announce(match)
    return profile


def vacation_end(*, user: Any, at: datetime | None = None) -> Profile:
    """End ``user``'s vacation (at ``at``, default now): whole days are used, and the paused
    deadlines run again from where they stopped."""
    with transaction.atomic():
        profile = _locked_profile(user)
        started = profile.vacation_started_at
        if started is None:
            return profile
        ended = min(at or timezone.now(), timezone.now())
        allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until).at(
            ended
        )
        used = vacation_days_used(started, ended)
        profile.vacation_days = max(allowance.days - used, 0)
        profile.vacation_counted_until = allowance.counted_until
        profile.vacation_started_at = None
        profile.save(
            update_fields=["vacation_days", "vacation_counted_until", "vacation_started_at"]
        )
        for match in _correspondence_matches_waiting_for(user, paused=True):
            assert match.paused_time_left is not None
            control = TimeControl.of(match.time_control)
            match.deadline = ended + timedelta(seconds=match.paused_time_left)
            warn_at = warning_time(control, match.deadline)
            match.warn_at = warn_at if warn_at is not None and warn_at > ended else None
            match.paused_time_left = None
            match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
            _announce(match)
    return profile


def vacation_ends_at(profile: Profile) -> datetime | None:
    """When the vacation now on runs out of days."""
    if profile.vacation_started_at is None:
        return None
    allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until)
    return profile.vacation_started_at + timedelta(
        days=allowance.at(profile.vacation_started_at).days
    )


def _locked_profile(user: Any) -> Profile:
    Profile.objects.get_or_create(user=user)
    return Profile.objects.select_for_update().get(user=user)


def _correspondence_matches_waiting_for(user: Any, *, paused: bool) -> list[Match]:
    matches = (
        Match.objects.select_for_update()
        .filter(to_act=user, status=Match.Status.ACTIVE)
        .filter(paused_time_left__isnull=not paused, deadline__isnull=paused)
        .order_by("pk")
    )
    return [match for match in matches if not TimeControl.of(match.time_control).live]


def _announce(match: Match, acted_by: int | None = None) -> None:
    details = {
        "match_id": match.pk,
        "seq": match.seq,
        "to_act_id": match.to_act_id,
        "deadline": match.deadline,
        "finished": match.status == Match.Status.FINISHED,
        "acted_by": acted_by,
        "bot_to_act": _bot_to_act(match),
    }
    transaction.on_commit(lambda: match_changed.send(Match, **details))


def _bot_to_act(match: Match) -> bool | None:
    """Whether the player to act is a computer opponent, if their profile came with the match."""
    if match.to_act_id is None:
        return False
    if not Match.to_act.is_cached(match) or not profile_loaded(match.to_act):
        return None
    return bool(getattr(profile_of(match.to_act), "bot_level", ""))


def _is_overdue(match: Match) -> bool:
    return match.deadline is not None and match.deadline <= timezone.now()


def match_abort(*, match_id: int, moderator: Any, reason: str) -> Match:
    """A moderator ends a match with no winner."""
    return _moderate(match_id, moderator, lambda match: MatchAborted(_reason(reason)))


def match_award(*, match_id: int, moderator: Any, winner: Any, reason: str) -> Match:
    """A moderator ends a match and gives it to ``winner``."""

    def award(match: Match) -> Event:
        index = match.player_index(winner)
        if index is None:
            raise ApplicationError("The match can only be awarded to one of its players.")
        return MatchAwarded(index, _reason(reason))

    return _moderate(match_id, moderator, award)


def _moderate(match_id: int, moderator: Any, make_event: Callable[[Match], Event]) -> Match:
    if not moderator.has_perm("games.moderate_match"):
        raise Forbidden("Only moderators can abort or award a match.")
    with transaction.atomic():
        match = _locked_match(match_id)
        log = _Log(match, state_from_snapshot(match.state))
        log.append(make_event(match), moderator)
        log.save()
    return match


def _reason(reason: str) -> str:
    if not isinstance(reason, str) or not reason.strip():
        raise ApplicationError("Give a reason: it is kept in the match's log.", "reason")
    return reason.strip()[:500]


def _locked_match(match_id: int) -> Match:
    """The match, locked until the transaction ends, with its players and their profiles (the
    preferences the services follow; not locked)."""
    try:
        return (
            Match.objects.select_for_update(of=("self",))
            .select_related("first_player__profile", "second_player__profile")
            .get(pk=match_id)
        )
    except (Match.DoesNotExist, ValueError, TypeError):
        raise NotFound(f"There is no match {match_id}.") from None


def ending_actions(match: Match, state: MatchState, player: int) -> tuple[str, ...]:
    """The ENDING_ACTIONS ``player`` may take now, whoever is to act: abort or offer to end
    as this match allows (``_why_not_end``), and the answers to an offer that stands."""
    allowed = tuple(
        action
        for action in ("abort", "offer_end")
        if _why_not_end(match, state, action) is None
        and not (action == "offer_end" and state.end_offered_by is not None)
    )
    return allowed + state.end_answers(player)


def against_computer(match: Match) -> bool:
    """One of the players is a computer opponent (asked once per Match instance)."""
    known: bool | None = getattr(match, "_against_computer", None)
    if known is None:
        levels = _loaded_bot_levels(match)
        if levels is not None:
            known = any(levels)
        else:
            known = (
                Profile.objects.filter(user_id__in=(match.first_player_id, match.second_player_id))
                .exclude(bot_level="")
                .exists()
            )
        match._against_computer = known  # type: ignore[attr-defined]
    return known


def _loaded_bot_levels(match: Match) -> list[str] | None:
    """The players' bot levels when their profiles came with the match (select_related)."""
    seats = (Match.first_player, Match.second_player)
    if not all(seat.is_cached(match) for seat in seats):
        return None
    if not all(profile_loaded(player) for player in match.players):
        return None
    return [getattr(profile_of(player), "bot_level", "") for player in match.players]


def _why_not_end(match: Match, state: MatchState, action: str) -> str | None:
    """Why a player may not abort or offer to end the match now; None when they may.

    Before anyone has moved, either player may abort any match. After that an unrated match
    against the computer may be ended (aborted) at any time, an unrated match between people
    by agreement, and a rated match not at all: it is resigned.
    """
    if state.is_finished():
        return "The match is over."
    if action == "abort" and not state.has_begun():
        return None
    if action == "offer_end" and not state.has_begun():
        return "Nobody has moved yet: abort the match instead."
    if match.rated:
        return "A rated match cannot be ended once a player has moved: resign instead."
    computer = against_computer(match)
    if action == "abort" and not computer:
        return "Once a player has moved, the match ends only by agreement: offer to end it."
    if action == "offer_end" and computer:
        return "The computer does not answer offers: end the game instead."
    return None  # the rules refuse a second offer, saying why


def _player_event(
    log: _Log, player: int, action: str, play: str | None, points: int | None
) -> Event:
    state = log.state
    if action in ("abort", "offer_end"):
        reason = _why_not_end(log.match, state, action)
        if reason is not None:
            raise IllegalAction(reason)
    try:
        if action == "roll":
            if "roll" not in state.legal_actions(player):
                # Ask the engine why, without spending a roll of the dice on a refusal.
                state.apply(Roll(player, Dice(1, 1)))
                raise IllegalAction("You cannot roll now.")
            return Roll(player, Dice(*log.next_roll()))
        if action == "double":
            return Double(player)
        if action == "take":
            return Take(player)
        if action == "drop":
            return Drop(player)
        if action == "move":
            return PlayMade(player, _canonical_play(state, player, play))
        if action == "resign":
            if isinstance(points, bool) or not isinstance(points, int):
                raise ApplicationError(
                    "Resigning offers 1 (single), 2 (gammon) or 3 (backgammon) points.", "points"
                )
            return Resign(player, points)
        if action == "accept_resign":
            return AcceptResignation(player)
        if action == "abort":
            return Abort(player)
        if action == "offer_end":
            return OfferEnd(player)
        if action == "accept_end":
            return AcceptEnd(player)
        if action == "decline_end":
            return DeclineEnd(player)
        return RejectResignation(player)
    except EngineError as error:
        raise IllegalAction(str(error)) from None


def _canonical_play(state: MatchState, player: int, text: str | None) -> str:
    if not isinstance(text, str):
        raise ApplicationError("A move needs its play in notation, e.g. 24/18 13/8.", "play")
    if len(text) > 200:
        raise ApplicationError("That play is too long to be a backgammon play.", "play")
    if state.phase != "moving" or state.turn != player or state.dice is None:
        return text  # the engine refuses it with the reason
    return format_play(parse_play(text, state.position_for(player), state.dice))


@dataclass
class _Log:
    """The events a service call appends, and the state they lead to."""

    match: Match
    state: MatchState
    new_events: list[MatchEvent] = field(default_factory=list)
    new_rolls: list[tuple[int | None, int, int]] = field(default_factory=list)
    moves_made: list[int] = field(default_factory=lambda: [0, 0])
    deciding: int | None = None
    #: The call made or answered an offer to end the match: the decision waiting (and its
    #: clock) is not the one answered, and goes on.
    decision_goes_on: bool = False
    #: The user whose action this call applies, if a player's.
    acted_by: int | None = None

    def __post_init__(self) -> None:
        self.deciding = self.state.player_to_act() if self.match.seq else None

    def next_roll(self) -> tuple[int, int]:
        """The match's next roll, derived from its seeds and the number of rolls so far."""
        match = self.match
        server_seed = decrypt_seed(match.server_seed_ciphertext)
        return rolls.roll(server_seed, tuple(match.player_seeds), match.rolls_made)

    def append(self, event: Event, actor: Any | None = None) -> None:
        try:
            self.state = self.state.apply(event)
        except EngineError as error:
            raise IllegalAction(str(error)) from None
        if isinstance(event, OpeningRoll | Roll):
            self.match.rolls_made += 1
            first, second = (
                event.dice
                if isinstance(event, OpeningRoll)
                else (
                    event.dice.first,
                    event.dice.second,
                )
            )
            roller = event.player if isinstance(event, Roll) else None
            self.new_rolls.append((roller, first, second))
        if isinstance(event, PlayMade):
            self.moves_made[event.player] += 1
        if actor is not None:
            self.acted_by = actor.pk
        self.record(event.kind, event.to_payload(), actor)

    def time_out(self) -> None:
        """The player to act has run out of time."""
        loser = self.state.player_to_act()
        assert loser is not None
        self.append(TimedOut(loser))

    def record(self, kind: str, payload: dict[str, Any], actor: Any | None = None) -> None:
        match = self.match
        seq = match.seq + 1
        created_at = timezone.now()
        actor_id = actor.pk if actor is not None else None
        digest = event_digest(
            match.head_digest,
            match_id=match.pk,
            seq=seq,
            kind=kind,
            payload=payload,
            actor_id=actor_id,
            created_at=created_at,
        )
        self.new_events.append(
            MatchEvent(
                match=match,
                seq=seq,
                kind=kind,
                payload=payload,
                actor_id=actor_id,
                created_at=created_at,
                digest=digest,
            )
        )
        match.seq, match.head_digest = seq, digest

    def play_on(self) -> None:
        """What the server does until a player must decide: opening rolls (again on a tie),
        the roll of a player who cannot double and lets us roll for them, and a forced play
        the player lets us make."""
        while True:
            state = self.state
            if state.phase == "opening":
                self.append(OpeningRoll(self.next_roll()))
            elif state.phase == "rolling" and state.turn is not None:
                if state.can_double(state.turn):
                    return
                if not _preferences(self.match.players[state.turn]).auto_roll:
                    return
                self.append(Roll(state.turn, Dice(*self.next_roll())))
            elif state.phase == "moving" and state.turn is not None:
                plays = state.legal_plays()
                preferences = _preferences(self.match.players[state.turn])
                if len(plays) != 1 or not preferences.auto_play_forced:
                    return
                self.append(PlayMade(state.turn, format_play(plays[0])))
            else:
                return

    def save(self) -> None:
        match, state = self.match, self.state
        if state.is_finished() and match.status != Match.Status.FINISHED:
            server_seed = decrypt_seed(match.server_seed_ciphertext)
            self.record("dice_revealed", {"server_seed": server_seed.hex()})
        MatchEvent.objects.bulk_create(self.new_events)
        match.state = snapshot(state)
        match.updated_at = timezone.now()
        to_act = state.player_to_act()
        match.to_act = None if to_act is None else match.players[to_act]
        fields = ["seq", "head_digest", "state", "updated_at", "to_act", "rolls_made"]
        if not (self.decision_goes_on and not state.is_finished()):
            self._run_clocks(match.updated_at)
            fields += ["clocks", "deadline", "warn_at", "paused_time_left"]
        finished_now = False
        if state.is_finished() and match.status != Match.Status.FINISHED:
            match.status = Match.Status.FINISHED
            match.winner = None if state.winner is None else match.players[state.winner]
            match.finished_at = match.updated_at
            fields += ["status", "winner", "finished_at"]
            finished_now = True
        match.save(update_fields=fields)
        if finished_now:
            from ratings.services import rate_match

            # In the transaction of the final event: the result and the ratings go together.
            rate_match(
                match_id=match.pk,
                player_ids=(match.first_player_id, match.second_player_id),
                winner_id=match.winner_id,
                rated=match.rated,
                finished_at=match.finished_at,
            )
        # Last: the site's dice counters are shared by every match, so their rows stay locked
        # for as short a time as possible.
        players = (match.first_player_id, match.second_player_id)
        statistics.count_rolls(
            (None if roller is None else players[roller], first, second)
            for roller, first, second in self.new_rolls
        )
        _announce(match, self.acted_by)

    def _run_clocks(self, now: datetime) -> None:
        """End the decision this call answered, charging its time, and start the next one."""
        match, state = self.match, self.state
        control = TimeControl.of(match.time_control)
        clocks = list(match.clocks) or control.starting_clocks()
        moves = list(self.moves_made)
        if self.deciding is not None:
            if match.deadline is not None:
                remaining = match.deadline - now
            else:
                remaining = timedelta(seconds=match.paused_time_left or 0)
            player = self.deciding
            clocks[player] = control.time_left_after(clocks[player], remaining, moves[player])
            moves[player] = 0
        match.clocks = add_increments(control, clocks, moves)
        match.deadline = match.warn_at = match.paused_time_left = None
        to_act = state.player_to_act()
        if state.is_finished() or to_act is None:
            return
        allowance = control.allowance(match.clocks[to_act])
        on_vacation = _preferences(match.players[to_act]).vacation_started_at is not None
        if not control.live and on_vacation:
            match.paused_time_left = allowance.total_seconds()
            return
        match.deadline = now + allowance
        warn_at = warning_time(control, match.deadline)
        match.warn_at = warn_at if warn_at is not None and warn_at > now else None


def _preferences(player: Any) -> Profile:
    """A player's profile as loaded with their match (``_locked_match``); the defaults for a
    player who has none."""
    return profile_of(player) or Profile(user=player)
