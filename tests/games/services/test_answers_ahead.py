"""Answers left ahead (issue 36, item 6): while Bob is on roll and may double, Alice leaves
her take or drop; a double at once is answered in the same call, by her, in the log like any
action; anything else first forgets the answer, which nobody but Alice sees."""

from __future__ import annotations

import pytest

from backgammon_site.core.errors import ApplicationError, Conflict, Forbidden
from games.services.answers_ahead import answer_ahead_leave, answer_left_for
from tests.games.factories import act, kinds_of, make_user, reload, state_of
from tests.games.services.matches import assert_sound

pytestmark = pytest.mark.django_db


def leave(match, player, answer):
    return answer_ahead_leave(
        match_id=match.pk, player=player, expected_seq=match.seq, answer=answer
    )


def test_a_take_left_ahead_answers_the_double_at_once(bob_on_roll, alice, bob):
    match = leave(bob_on_roll, alice, "take")
    assert answer_left_for(match, 0) == "take" and answer_left_for(match, 1) is None

    doubled_at = match.seq + 1
    match = act(reload(match), bob, "double")

    state = state_of(match)
    assert kinds_of(match)[doubled_at - 1 : doubled_at + 1] == ["double", "take"]
    assert match.events.get(seq=doubled_at + 1).actor == alice
    # Bob, who cannot double now, had the server roll for him (his setting).
    assert (state.phase, state.turn, state.cube_value, state.cube_owner) == ("moving", 1, 2, 0)
    assert reload(match).to_act == bob and reload(match).answer_ahead is None
    assert_sound(match)


def test_a_drop_left_ahead_ends_the_game_for_the_cube(bob_on_roll, alice, bob, dice):
    match = leave(bob_on_roll, alice, "drop")
    dice.add(4, 2)
    match = act(reload(match), bob, "double")
    assert "drop" in kinds_of(match)
    state = state_of(match)
    assert state.score == (0, 1) and state.games[-1].result == "drop"
    assert_sound(match)


def test_a_roll_instead_forgets_the_answer(bob_on_roll, alice, bob):
    match = leave(bob_on_roll, alice, "take")
    match = act(reload(match), bob, "roll")
    assert reload(match).answer_ahead is None
    assert "take" not in kinds_of(match)


def test_an_answer_can_be_taken_back(bob_on_roll, alice, bob):
    match = leave(bob_on_roll, alice, "drop")
    match = leave(reload(match), alice, None)
    match = act(reload(match), bob, "double")
    assert state_of(match).phase == "doubled" and reload(match).to_act == alice


def test_an_answer_left_for_an_older_position_does_nothing(bob_on_roll, alice, bob):
    match = leave(bob_on_roll, alice, "take")
    stale = dict(reload(match).answer_ahead, seq=match.seq - 1)
    type(match).objects.filter(pk=match.pk).update(answer_ahead=stale)
    match = act(reload(match), bob, "double")
    assert state_of(match).phase == "doubled"


@pytest.mark.parametrize(
    ("who", "answer", "seq_off", "error", "code"),
    [
        ("alice", "beaver", 0, ApplicationError, "answer"),
        ("alice", "take", -1, Conflict, None),
        ("bob", "take", 0, ApplicationError, "answer_ahead_not_now"),  # he is on roll
        ("carol", "take", 0, Forbidden, None),
    ],
)
def test_bad_answers_are_refused_and_change_nothing(
    bob_on_roll, alice, bob, who, answer, seq_off, error, code
):
    players = {"alice": alice, "bob": bob, "carol": make_user("carol")}
    with pytest.raises(error) as refused:
        answer_ahead_leave(
            match_id=bob_on_roll.pk,
            player=players[who],
            expected_seq=bob_on_roll.seq + seq_off,
            answer=answer,
        )
    if code:
        assert refused.value.code == code
    assert reload(bob_on_roll).answer_ahead is None


def test_no_answer_while_the_opponent_cannot_double(bob_on_roll, alice, bob):
    match = act(bob_on_roll, bob, "double")
    match = act(reload(match), alice, "take")  # Alice owns the cube; Bob rolled
    with pytest.raises(ApplicationError):
        leave(reload(match), alice, "take")


def test_over_the_api_a_take_left_ahead_answers_the_double(bob_on_roll, alice, bob):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(alice)
    url = f"/api/matches/{bob_on_roll.pk}/answer-ahead/"
    refused = client.post(url, {"seq": bob_on_roll.seq, "answer": "beaver"}, format="json")
    assert refused.status_code == 400 and reload(bob_on_roll).answer_ahead is None
    left = client.post(url, {"seq": bob_on_roll.seq, "answer": "take"}, format="json")
    assert left.status_code == 200 and left.json() == {"seq": bob_on_roll.seq, "answer": "take"}
    assert client.get(url).json()["answer"] == "take"
    client.force_authenticate(bob)
    assert client.get(url).json()["answer"] is None  # his own: he left none
    act(reload(bob_on_roll), bob, "double")
    assert "take" in kinds_of(bob_on_roll)
