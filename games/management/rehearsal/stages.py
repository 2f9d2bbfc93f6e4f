"""The rehearsal's two steps inside the service's own settings and database: preparing the
players and matches before the load, and checking every log afterwards.

`manage.py rehearsal` runs each in a child process (`--stage`) with the stack's environment,
so that this process talks to the rehearsal's database and Redis, never the caller's.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from io import StringIO
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from knox.models import AuthToken

from games import services
from games.models import Match, MatchEvent

PLAYER_PREFIX = "rehearsal-"


def prepare(*, played: int, live: int, deadlines: list[float], match_length: int) -> dict[str, Any]:
    """Players and matches: ``played`` correspondence matches to play throughout, ``live``
    pairs of players with no match yet (they challenge each other to a live one), and one
    correspondence match per offset in ``deadlines`` whose deadline passes that many seconds
    from now, left untouched."""
    numbers = iter(range(10_000))
    plan: dict[str, Any] = {"played": [], "live": [], "deadlines": []}
    for kind, count in (("played", played), ("live", live), ("deadlines", len(deadlines))):
        for _ in range(count):
            first, second = _player(next(numbers)), _player(next(numbers))
            row = {
                "match": None,
                "seq": 0,
                "players": [first.get_username(), second.get_username()],
                "tokens": [_token(first), _token(second)],
            }
            plan[kind].append(row)
            if kind == "live":
                continue
            match = services.match_start(
                first_player=first,
                second_player=second,
                match_length=match_length,
                rated=False,
                time_control=services.DEFAULT_TIME_CONTROL,
            )
            row |= {"match": match.pk, "seq": match.seq}
    now = timezone.now()
    for row, offset in zip(plan["deadlines"], deadlines, strict=True):
        # Time travel, as the tests do: a deadline days away is brought to within the run,
        # for the minute sweep to find it due.
        Match.objects.filter(pk=row["match"]).update(deadline=now + timedelta(seconds=offset))
    return plan


def _player(number: int) -> Any:
    user = get_user_model().objects.create(username=f"{PLAYER_PREFIX}{number}")
    user.set_unusable_password()
    user.save(update_fields=["password"])
    return user


def _token(user: Any) -> str:
    return str(AuthToken.objects.create(user)[1])


def check(plan: dict[str, Any], journal: dict[str, Any]) -> dict[str, Any]:
    """Compare what the players were told with the logs: every accepted action once at the
    seq it answered (none lost, none applied twice), every timeout once, and verify_matches."""
    accepted = journal["accepted"]
    problems: list[str] = []
    lost, duplicated = _actions(accepted, problems)
    expected = {row["match"]: row["seq"] for row in journal["left_to_run_out"]}
    expected |= {row["match"]: row["seq"] for row in plan["deadlines"]}
    timeouts = Counter(MatchEvent.objects.filter(kind="timeout").values_list("match_id", flat=True))
    applied_once = 0
    for match_id, seq in sorted(expected.items()):
        at = list(
            MatchEvent.objects.filter(match_id=match_id, kind="timeout").values_list(
                "seq", flat=True
            )
        )
        if at == [seq + 1]:
            applied_once += 1
        else:
            problems.append(f"match {match_id}: left at seq {seq}, timeout events at {at}")
    for match_id, count in sorted(timeouts.items()):
        if match_id not in expected:
            problems.append(f"match {match_id}: {count} timeout events, none expected")
    out, err = StringIO(), StringIO()
    try:
        call_command("verify_matches", stdout=out, stderr=err)
    except CommandError as error:
        problems.append(f"verify_matches: {error}\n{err.getvalue()}")
    return {
        "actions": len(accepted),
        "lost": lost,
        "duplicated": duplicated,
        "timeouts": len(expected),
        "applied_once": applied_once,
        "verify_matches": out.getvalue().strip() or err.getvalue().strip(),
        "problems": problems,
    }


def _actions(accepted: list[dict[str, Any]], problems: list[str]) -> tuple[int, int]:
    """Lost: an accepted action whose first event (at its seq + 1, by its player) is not in
    the log. Duplicated: an action answered twice at different seqs, two answers claiming one
    seq, or a player's event in the log that no accepted action's answer covers."""
    by_match: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in accepted:
        by_match[row["match"]].append(row)
    lost = duplicated = 0
    keys = Counter(row["key"] for row in accepted)
    for key, count in keys.items():
        if count > 1:
            duplicated += count - 1
            problems.append(f"key {key} accepted {count} times")
    users = dict(get_user_model().objects.values_list("pk", "username"))
    for match_id, rows in sorted(by_match.items()):
        events = {
            seq: (kind, users.get(actor))
            for seq, kind, actor in MatchEvent.objects.filter(match_id=match_id).values_list(
                "seq", "kind", "actor_id"
            )
        }
        claimed: Counter[int] = Counter()
        for row in rows:
            claimed.update(range(row["seq"] + 1, row["after"] + 1))
            first = events.get(row["seq"] + 1)
            if first is None or first[1] != row["player"]:
                lost += 1
                problems.append(f"match {match_id}: {row['action']} at seq {row['seq']} {first}")
        for seq, count in claimed.items():
            if count > 1:
                duplicated += 1
                problems.append(f"match {match_id}: seq {seq} answered {count} times")
        for seq, (kind, actor) in sorted(events.items()):
            if actor is not None and seq not in claimed:
                duplicated += 1
                problems.append(f"match {match_id}: {kind} by {actor} at seq {seq} unanswered")
    return lost, duplicated
