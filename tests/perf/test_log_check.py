"""The load test's check of the logs it played: an action whose answer the clients' stop cut
off may have been applied, and only that excuses a match ahead of its last accepted action."""

from __future__ import annotations

import pytest

from games.management.loadtest.plan import log_check
from tests.games.factories import act, make_user, start_match, state_of

pytestmark = pytest.mark.django_db


def test_a_match_ahead_of_its_last_answer_is_a_problem_unless_the_stop_cut_that_answer_off():
    match = start_match(make_user("alice"), make_user("bob"), length=1)
    before = match.seq
    match = act(match, match.to_act, "move", play=state_of(match).legal_play_notations()[0])
    accepted = [(match.pk, 0, before, "start")]

    assert log_check(accepted) == [
        f"match {match.pk}: the last accepted action ended at seq {before}, "
        f"the match is at seq {match.seq}"
    ]
    assert log_check(accepted, [(match.pk, before, "move")]) == []
    assert len(log_check(accepted, [(match.pk, before - 1, "move")])) == 1
