"""A match from its start to its end: the opening, each player's action, and the clock's
verdict when a player runs out of time."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import is_program, player_kind
from backgammon_site.core.errors import (
    ApplicationError,
    Conflict,
    Forbidden,
    IllegalAction,
    NotFound,
)
from games.dice import rolls
from games.dice.seed_vault import encrypt_seed
from games.engine import ACTIONS, EngineError, MatchRules, MatchState, snapshot
from games.engine.refusals import Action
from games.models import Match, Player
from games.services.chat import chat_message_add, chat_text_clean
from games.services.locks import locked_match, preferences
from games.services.turns import play_on, player_event
from games.services.tutor import tutor_check
from games.services.vacations import vacation_end
from games.services.writer import MatchWriter
from games.signals import deadline_near

#: The actions that end a match without a winner, or offer or answer to; either player may
#: take them whoever is to act.
ENDING_ACTIONS = ("abort", "offer_end", "accept_end", "decline_end")


def player_seed(seed: object) -> str | None:
    """A player's own dice seed, cleaned (None for none); ApplicationError if it cannot be one."""
    try:
        return rolls.clean_player_seed(seed)
    except ValueError as error:
        raise ApplicationError(str(error), "seed") from None


def match_start(
    *,
    first_player: Player,
    second_player: Player,
    match_length: int,
    rated: bool,
    time_control: Mapping[str, Any],
    player_seeds: tuple[str | None, str | None] = (None, None),
    rules: MatchRules | None = None,
    tutored: bool = False,
) -> Match:
    """Create a match by ``rules`` (a backgammon match unless given), commit to its dice, and
    make its opening roll. The rules are written into the match's first event.

    ``tutored``: the human player of an unrated match against the computer has the tutor
    (games.services.tutor); any other match asking for it is refused.

    Players without a dice seed of their own are given one (it is public, in the first event).
    A program's match is unrated whatever was asked (a tournament's or league's among them).
    """
    if first_player.pk == second_player.pk:
        raise ApplicationError(_("A match needs two different players."), "self_challenge")
    if tutored:
        tutor_check(players=(first_player, second_player), rated=rated, rules=rules or MatchRules())
    seeds = [player_seed(seed) or rolls.new_player_seed() for seed in player_seeds]
    server_seed = rolls.new_server_seed()
    with transaction.atomic():
        rules = MatchRules() if rules is None else rules
        try:
            state = MatchState.new(match_length, rules)
        except EngineError as error:
            raise ApplicationError(f"{error}.", "match_length") from None
        match = Match.objects.create(
            first_player=first_player,
            second_player=second_player,
            match_length=match_length,
            variant=rules.variant,
            rated=rated and not (is_program(first_player) or is_program(second_player)),
            time_control=dict(time_control),
            state=snapshot(state),
            server_seed_ciphertext=encrypt_seed(server_seed),
            player_seeds=seeds,
            tutored=tutored,
        )
        writer = MatchWriter(match, state)
        writer.record(
            "match_started",
            {
                "match_length": match_length,
                **rules.payload(),
                "rated": rated,
                "time_control": dict(time_control),
                "players": [first_player.get_username(), second_player.get_username()],
                "player_ids": [first_player.pk, second_player.pk],
                "player_kinds": [player_kind(first_player), player_kind(second_player)],
                "dice": {
                    "scheme": "hmac-sha256-v1",
                    "server_seed_commitment": rolls.commitment(server_seed),
                    "player_seeds": seeds,
                },
            },
        )
        play_on(writer)
        writer.save()
    return match


def match_act(
    *,
    match_id: int,
    actor: Player,
    expected_seq: int,
    action: str,
    play: str | None = None,
    points: int | None = None,
    number: int | None = None,
    message: str | None = None,
) -> Match:
    """A player's action: roll, double, take, drop, move, name_double, resign, accept_resign,
    reject_resign, or one of the ENDING_ACTIONS (``games.selectors.ending_actions`` says which
    are allowed now).

    ``expected_seq`` is the seq the player saw; if the match has moved on, nothing is done
    and Conflict is raised. ``play`` is the notation of a move; ``points`` (1, 2 or 3) the
    value offered when resigning; ``number`` (1 to 6) the double named after an acey-deucey
    1-2. ``message``, said to the opponent with the action, is kept in the action's
    transaction: a message refused refuses the action, and an action refused keeps no message.
    """
    if action not in ACTIONS:
        raise ApplicationError(
            f"Unknown action {action!r}; actions are {', '.join(ACTIONS)}.", "unknown_action"
        )
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        raise ApplicationError("seq must be the whole number of the last event seen.", "seq")
    known = cast(Action, action)  # one of ACTIONS, as checked above
    said = None if message is None else chat_text_clean(message)
    try:
        return _act(match_id, actor, expected_seq, known, play, points, number, said)
    except _OnVacation:
        # Acting ends a vacation first, so that the time of this and every other match of the
        # player's runs again before the action is timed.
        vacation_end(user=actor)
        return _act(match_id, actor, expected_seq, known, play, points, number, said)


class _OnVacation(Exception):
    """The acting player is on vacation: end it, then act."""


def _act(
    match_id: int,
    actor: Player,
    expected_seq: int,
    action: Action,
    play: str | None,
    points: int | None,
    number: int | None,
    said: str | None,
) -> Match:
    with transaction.atomic():
        match = locked_match(match_id)
        player = match.player_index(actor)
        if player is None:
            raise Forbidden(_("Only the two players can act in a match."))
        if preferences(match.players[player]).vacation_started_at is not None:
            raise _OnVacation
        if match.seq != expected_seq:
            raise Conflict(
                f"The match has moved on: it is at seq {match.seq}, not {expected_seq}.",
                current_seq=match.seq,
            )
        writer = MatchWriter(match, match.folded_state())
        timed_out = _is_overdue(match)
        if timed_out:
            writer.time_out()
        else:
            writer.append(
                player_event(
                    writer, player=player, action=action, play=play, points=points, number=number
                ),
                actor,
            )
            writer.decision_goes_on = action in ("offer_end", "decline_end")
            play_on(writer)
        writer.save()
        if said is not None and not timed_out:
            chat_message_add(match, author=actor, text=said)
    if timed_out:
        loser = match.players[1 - writer.state.winner] if writer.state.winner is not None else None
        raise IllegalAction(
            _("Time ran out: %(player)s lost the match on time.") % {"player": loser}, "timeout"
        )
    return match


def match_timeout(*, match_id: int, seq: int | None = None) -> TimeCheck:
    """The player to act loses the match on time, if their deadline has passed.

    Safe to call any number of times, from any worker: it acts only while the match is still
    at ``seq`` (when given) and overdue. A deadline still to come is returned, so a task that
    woke early can wait for it.
    """
    with transaction.atomic():
        try:
            match = locked_match(match_id)
        except NotFound:
            return TimeCheck(timed_out=False)
        if match.status != Match.Status.ACTIVE or match.deadline is None:
            return TimeCheck(timed_out=False)
        if seq is not None and match.seq != seq:
            return TimeCheck(timed_out=False)
        if not _is_overdue(match):
            return TimeCheck(timed_out=False, deadline=match.deadline)
        writer = MatchWriter(match, match.folded_state())
        writer.time_out()
        writer.save()
    return TimeCheck(timed_out=True)


@dataclass(frozen=True)
class TimeCheck:
    """What match_timeout found: the match lost on time, or the deadline still to come."""

    timed_out: bool
    deadline: datetime | None = None


def match_warn_of_deadline(*, match_id: int) -> bool:
    """Warn the player to act that their deadline is near, once per decision."""
    with transaction.atomic():
        match = locked_match(match_id)
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


def _is_overdue(match: Match) -> bool:
    return match.deadline is not None and match.deadline <= timezone.now()
