"""What `manage.py loadtest` prepares before the clients start, and checks after they stop.

The players are ordinary accounts named ``loadtest-N`` with no usable password: the clients
get their API tokens and page sessions straight from the database, as if they had signed in.
Matches are started and advanced through games/services.py like any other.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db.models import Count, Max
from knox.models import AuthToken

from accounts.models import Profile
from games import services
from games.engine import state_from_snapshot
from games.log.integrity import log_problems
from games.management.commands.simulate_matches import random_action
from games.management.loadtest.floors import FLOOR_KEY_PREFIX
from games.models import IdempotencyRecord, Match, MatchEvent

PLAYER_PREFIX = "loadtest-"


@dataclass
class Plan:
    """Everything the clients need (``as_json``) and what to clean up afterwards."""

    match_length: int
    board: list[dict[str, Any]] = field(default_factory=list)
    state: list[dict[str, Any]] = field(default_factory=list)
    play: list[dict[str, Any]] = field(default_factory=list)
    floor: list[dict[str, Any]] = field(default_factory=list)
    floor_user_ids: list[int] = field(default_factory=list)
    token_ids: list[str] = field(default_factory=list)
    session_keys: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "match_length": self.match_length,
            "board": self.board,
            "state": self.state,
            "play": self.play,
            "floor": self.floor,
        }

    def clean_up(self) -> None:
        """Revoke the tokens and end the sessions the clients used, and delete the floor
        write's rows; the matches stay."""
        AuthToken.objects.filter(pk__in=self.token_ids).delete()
        IdempotencyRecord.objects.filter(
            user_id__in=self.floor_user_ids, key__startswith=FLOOR_KEY_PREFIX
        ).delete()
        SessionStore.get_model_class().objects.filter(session_key__in=self.session_keys).delete()


def player(number: int) -> Any:
    user, created = get_user_model().objects.get_or_create(username=f"{PLAYER_PREFIX}{number}")
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def prepare(
    *,
    running_matches: int,
    playing_clients: int,
    match_length: int,
    seed: int | None,
    floor_clients: int = 0,
) -> Plan:
    """``running_matches`` matches advanced to a player's move (for the board and the state
    scenarios), one fresh match per playing client, each between two players of its own, and
    a player of its own (a session and a token) for each client of the floors."""
    rng = random.Random(seed)
    plan = Plan(match_length=match_length)
    for number in range(running_matches):
        first, second = player(2 * number), player(2 * number + 1)
        match = _started(first, second, match_length)
        match = _advanced_to_a_move(match, rng)
        mover = match.to_act
        plan.board.append({"match": match.pk, "session": _session(plan, mover)})
        plan.state.append({"match": match.pk, "token": _token(plan, mover)})
    base = 2 * running_matches
    for number in range(playing_clients):
        first, second = player(base + 2 * number), player(base + 2 * number + 1)
        match = _started(first, second, match_length)
        plan.play.append(
            {
                "match": match.pk,
                "players": [first.get_username(), second.get_username()],
                "tokens": [_token(plan, first), _token(plan, second)],
            }
        )
    base += 2 * playing_clients
    for number in range(floor_clients):
        user = player(base + number)
        Profile.objects.get_or_create(user=user)
        plan.floor_user_ids.append(user.pk)
        plan.floor.append({"session": _session(plan, user), "token": _token(plan, user)})
    return plan


def _started(first: Any, second: Any, match_length: int) -> Match:
    return services.match_start(
        first_player=first,
        second_player=second,
        match_length=match_length,
        rated=False,
        time_control=services.DEFAULT_TIME_CONTROL,
    )


def _advanced_to_a_move(match: Match, rng: random.Random, actions: int = 30) -> Match:
    """Play on at random for a while, then to the next point where a player must move."""
    done = 0
    while True:
        state = state_from_snapshot(match.state)
        mover = state.player_to_act()
        if mover is None:  # over already: start another
            match = _started(match.first_player, match.second_player, state.match_length)
            continue
        if done >= actions and "move" in state.legal_actions(mover) and state.legal_plays():
            return Match.objects.select_related("to_act").get(pk=match.pk)
        action, extra = random_action(state, mover, rng)
        match = services.match_act(
            match_id=match.pk,
            actor=match.players[mover],
            expected_seq=match.seq,
            action=action,
            **extra,
        )
        done += 1


def _token(plan: Plan, user: Any) -> str:
    instance, token = AuthToken.objects.create(user)
    plan.token_ids.append(instance.pk)
    return str(token)


def _session(plan: Plan, user: Any) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    plan.session_keys.append(session.session_key)
    return session.session_key


def log_check(
    accepted: Iterable[tuple[int, int, int, str]],
    unanswered: Iterable[tuple[int, int, str]] = (),
) -> list[str]:
    """Problems with the logs of the matches the clients played: every accepted action must
    follow the one before it with no gap (no lost answer, no action applied twice), the last
    must end at the match's seq (or be followed by the action whose answer the clients' stop
    cut off, sent at that seq, which the server may have applied), the log must hold exactly
    seq events, and each log must re-fold to its snapshot (verify_matches)."""
    chains: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    for match_id, sent, after, action in accepted:
        chains[match_id].append((sent, after, action))
    cut_off = {(match_id, sent) for match_id, sent, _ in unanswered}
    problems = []
    stored = {
        row["match"]: row
        for row in MatchEvent.objects.filter(match__in=chains)
        .values("match")
        .annotate(events=Count("pk"), last=Max("seq"))
    }
    for match in Match.objects.filter(pk__in=chains).order_by("pk"):
        chain = sorted(chains[match.pk])
        for (_, after, _), (sent, _, action) in zip(chain, chain[1:], strict=False):
            if sent != after:
                problems.append(
                    f"match {match.pk}: {action} sent at seq {sent}, but the action before "
                    f"ended at seq {after}"
                )
        if chain[-1][1] != match.seq and (match.pk, chain[-1][1]) not in cut_off:
            problems.append(
                f"match {match.pk}: the last accepted action ended at seq {chain[-1][1]}, "
                f"the match is at seq {match.seq}"
            )
        row = stored.get(match.pk, {"events": 0, "last": 0})
        if row["events"] != match.seq or row["last"] != match.seq:
            problems.append(
                f"match {match.pk}: {row['events']} events up to seq {row['last']}, "
                f"match seq {match.seq}"
            )
        problems.extend(f"match {match.pk}: {problem}" for problem in log_problems(match))
    return problems
