"""The rehearsal's check of the logs against what its players were told (games/management/
rehearsal/stages.py): it must see a lost action, one applied twice, and a timeout missing."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services
from games.engine import state_from_snapshot
from games.management.commands.simulate_matches import random_action
from games.management.rehearsal import stages
from games.models import Match
from tests.games.factories import make_user, start_match

pytestmark = pytest.mark.django_db


def played(actions: int) -> tuple[Match, list[dict[str, Any]]]:
    """A match with ``actions`` actions, and the answers its players were given."""
    first, second = make_user("amy"), make_user("bob")
    match = start_match(first, second)
    rng = random.Random(5)
    accepted = []
    for number in range(actions):
        state = state_from_snapshot(match.state)
        mover = state.player_to_act()
        action, extra = random_action(state, mover, rng)
        before = match.seq
        match = services.match_act(
            match_id=match.pk,
            actor=match.players[mover],
            expected_seq=before,
            action=action,
            **extra,
        )
        accepted.append(
            {
                "match": match.pk,
                "seq": before,
                "after": match.seq,
                "action": action,
                "key": f"key-{number}",
                "player": match.players[mover].get_username(),
            }
        )
    return match, accepted


def check(accepted: list[dict[str, Any]], left: list[dict[str, Any]] | None = None) -> Any:
    plan = {"played": [], "live": [], "deadlines": []}
    return stages.check(plan, {"accepted": accepted, "left_to_run_out": left or []})


def test_answers_that_match_the_log_are_clean():
    _, accepted = played(6)

    result = check(accepted)

    assert (result["actions"], result["lost"], result["duplicated"]) == (6, 0, 0)
    assert result["problems"] == []
    assert result["verify_matches"] == "1 matches checked, 0 with problems"


def test_an_answer_the_log_does_not_hold_is_lost():
    match, accepted = played(3)
    accepted.append(accepted[-1] | {"seq": match.seq + 5, "after": match.seq + 6, "key": "k"})

    assert check(accepted)["lost"] == 1


def test_an_action_answered_twice_or_not_at_all_is_duplicated():
    _, accepted = played(4)

    assert check(accepted + [accepted[1] | {"seq": 99, "after": 100}])["duplicated"] >= 1
    # The log holds a player's action that no answer covers: applied without being asked.
    assert check(accepted[:2] + accepted[3:])["duplicated"] == 1


def test_each_timeout_is_counted_once_and_a_missing_one_is_not():
    first, second = make_user("cat"), make_user("dan")
    timed_out, waiting = start_match(first, second), start_match(second, first)
    Match.objects.filter(pk__in=[timed_out.pk, waiting.pk]).update(
        deadline=timezone.now() - timedelta(seconds=1)
    )
    for _ in range(2):  # a countdown and the sweep, say
        services.match_timeout(match_id=timed_out.pk)
    left = [
        {"match": timed_out.pk, "seq": timed_out.seq},
        {"match": waiting.pk, "seq": waiting.seq},
    ]

    result = check([], left)

    assert (result["timeouts"], result["applied_once"]) == (2, 1)
    assert result["problems"] == [
        f"match {waiting.pk}: left at seq {waiting.seq}, timeout events at []"
    ]
