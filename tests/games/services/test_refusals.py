"""Forced plays and the player's preference, and refusals: a clear error, and nothing written."""

from __future__ import annotations

import random

import pytest

from accounts.models import Profile
from backgammon_site.core.errors import (
    ApplicationError,
    Conflict,
    Forbidden,
    IllegalAction,
    NotFound,
)
from games import services
from games.engine.notation import format_play
from games.log.integrity import fold_events
from tests.games.factories import (
    act,
    events_of,
    reload,
    start_match,
    state_of,
)
from tests.games.services.matches import (
    assert_sound,
    opened,
    refused,
)

pytestmark = pytest.mark.django_db


# --- Forced plays and the player's preference ----------------------------------------------------


def play_until(match, users, rng, stop):
    """Random legal actions (never doubling) until ``stop(match, state)`` says so."""
    for _ in range(2000):
        state = state_of(match)
        if stop(match, state):
            return match
        player = state.player_to_act()
        actions = state.legal_actions(player)
        if "take" in actions:
            match = act(match, users[player], "take")
        elif "roll" in actions:
            match = act(match, users[player], "roll")
        else:
            play = rng.choice(state.legal_plays())
            match = act(match, users[player], "move", play=format_play(play))
    raise AssertionError("no forced play in 2000 actions")


def server_moved(match, state):
    return any(e.kind == "move" and e.actor_id is None for e in events_of(match))


def waits_on_a_forced_play(match, state):
    return state.phase == "moving" and len(state.legal_plays()) == 1


@pytest.mark.parametrize("with_profile", [False, True])
def test_server_plays_a_forced_play_for_a_player_who_allows_it(dice, alice, bob, with_profile):
    if with_profile:  # explicitly on; without a profile the default (on) applies
        Profile.objects.create(user=alice, auto_play_forced=True)
        Profile.objects.create(user=bob, auto_play_forced=True)
    dice.add_random(4000, seed=7)
    match = start_match(alice, bob, length=25)

    match = play_until(match, (alice, bob), random.Random(7), server_moved)

    events = events_of(match)
    index = next(i for i, e in enumerate(events) if e.kind == "move" and e.actor_id is None)
    before = fold_events(match.match_length, events[:index])
    (only_play,) = before.legal_plays()
    assert events[index].payload == {"player": before.turn, "play": format_play(only_play)}
    assert_sound(match)


@pytest.mark.parametrize("declining", ["both", "bob"])
def test_server_waits_on_a_forced_play_for_a_player_who_declines_it(dice, alice, bob, declining):
    if declining == "both":
        Profile.objects.create(user=alice, auto_play_forced=False)
    Profile.objects.create(user=bob, auto_play_forced=False)
    dice.add_random(4000, seed=7)
    match = start_match(alice, bob, length=25)

    match = play_until(match, (alice, bob), random.Random(7), waits_on_a_forced_play)

    state = state_of(match)
    player = state.turn
    if declining == "bob":  # the server still plays Alice's forced plays, and only hers
        assert player == 1
        assert all(
            e.payload["player"] == 0
            for e in events_of(match)
            if e.kind == "move" and e.actor_id is None
        )
    assert reload(match).to_act == (alice, bob)[player]
    assert events_of(match)[-1].kind in ("roll", "opening_roll")
    (only_play,) = state.legal_plays()
    match = act(match, (alice, bob)[player], "move", play=format_play(only_play))
    move = [e for e in events_of(match) if e.kind == "move"][-1]
    assert move.actor_id == (alice, bob)[player].pk
    if declining == "both":
        assert not any(e.kind == "move" and e.actor_id is None for e in events_of(match))
    assert_sound(match)


# --- Refusals: a clear error, and nothing written -------------------------------------------------


def test_a_stranger_cannot_act(bob_on_roll, carol):
    error = refused(bob_on_roll, Forbidden, lambda: act(bob_on_roll, carol, "roll"))
    assert error.code == "forbidden"


def test_an_anonymous_user_cannot_act(bob_on_roll):
    from django.contrib.auth.models import AnonymousUser

    refused(bob_on_roll, Forbidden, lambda: act(bob_on_roll, AnonymousUser(), "roll"))


@pytest.mark.parametrize("action", ["roll", "double", "resign"])
def test_the_opponent_cannot_act_out_of_turn(bob_on_roll, alice, action):
    options = {"points": 1} if action == "resign" else {}
    error = refused(bob_on_roll, IllegalAction, lambda: act(bob_on_roll, alice, action, **options))
    assert error.code == "illegal"
    assert "opponent" in error.message


def test_the_opponent_cannot_move_out_of_turn(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)

    refused(match, IllegalAction, lambda: act(match, bob, "move", play="8/5 6/5"))


@pytest.mark.parametrize(
    ("action", "options"),
    [
        ("take", {}),
        ("drop", {}),
        ("accept_resign", {}),
        ("reject_resign", {}),
        ("move", {"play": "8/4 6/4"}),
    ],
)
def test_an_action_of_another_phase_is_refused(bob_on_roll, bob, action, options):
    error = refused(bob_on_roll, IllegalAction, lambda: act(bob_on_roll, bob, action, **options))
    assert "cannot" in error.message


def test_double_after_rolling_is_refused(dice, alice, bob):
    match = opened(dice, alice, bob)
    dice.add(4, 2)
    match = act(match, bob, "roll")

    error = refused(match, IllegalAction, lambda: act(match, bob, "double"))
    assert "double" in error.message


@pytest.mark.parametrize("offset", [-1, 1, -100])
def test_a_stale_seq_is_a_conflict(bob_on_roll, bob, offset):
    seq = bob_on_roll.seq

    def stale():
        services.match_act(
            match_id=bob_on_roll.pk, actor=bob, expected_seq=seq + offset, action="roll"
        )

    error = refused(bob_on_roll, Conflict, stale)
    assert error.code == "stale"
    assert error.details["current_seq"] == seq
    assert str(seq) in error.message


@pytest.mark.parametrize("seq", ["3", None, 3.0, True])
def test_a_seq_that_is_not_a_whole_number_is_refused(bob_on_roll, bob, seq):
    def call():
        services.match_act(match_id=bob_on_roll.pk, actor=bob, expected_seq=seq, action="roll")

    error = refused(bob_on_roll, ApplicationError, call)
    assert error.code == "seq"


@pytest.fixture
def bob_moving(dice, alice, bob):
    """Bob has rolled 4-2 after Alice's 8/5 6/5."""
    match = opened(dice, alice, bob)
    dice.add(4, 2)
    return act(match, bob, "roll")


def test_an_illegal_play_is_refused_with_the_reason(bob_moving, bob):
    # Alice made her 5 point, Bob's 20: he cannot land there.
    error = refused(
        bob_moving, IllegalAction, lambda: act(bob_moving, bob, "move", play="24/20 13/11")
    )
    assert error.code == "illegal"
    assert "24/20 13/11 is not a legal play of 4-2" in error.message
    assert "Legal plays:" in error.message


def test_a_play_from_an_empty_point_says_so(bob_moving, bob):
    error = refused(
        bob_moving, IllegalAction, lambda: act(bob_moving, bob, "move", play="20/16 20/18")
    )
    assert "no checker on the 20" in error.message


def test_a_play_using_only_part_of_the_roll_is_refused(bob_moving, bob):
    error = refused(bob_moving, IllegalAction, lambda: act(bob_moving, bob, "move", play="8/4"))
    assert "8/4 is not a legal play of 4-2" in error.message


def test_an_empty_play_is_refused_when_the_roll_can_be_played(bob_moving, bob):
    error = refused(bob_moving, IllegalAction, lambda: act(bob_moving, bob, "move", play=""))
    assert "can be played" in error.message


@pytest.mark.parametrize(
    ("play", "part"),
    [
        ("24-20 13/11", "'24-20'"),
        ("13/x", "'x'"),
        ("30/26 13/11", "no point 30"),
        ("off/20", "cannot start from off"),
        ("8/4(5)", "1 to 4 times"),
        ("4/8 6/4", "higher points to lower"),
    ],
)
def test_malformed_notation_is_refused_naming_the_part(bob_moving, bob, play, part):
    error = refused(bob_moving, IllegalAction, lambda: act(bob_moving, bob, "move", play=play))
    assert part in error.message


@pytest.mark.parametrize("play", [None, 42, ["8/4", "6/4"]])
def test_a_move_without_notation_is_refused(bob_moving, bob, play):
    error = refused(bob_moving, ApplicationError, lambda: act(bob_moving, bob, "move", play=play))
    assert error.code == "play"


def test_an_overlong_play_is_refused(bob_moving, bob):
    error = refused(
        bob_moving, ApplicationError, lambda: act(bob_moving, bob, "move", play="8/4 " * 60)
    )
    assert error.code == "play"


@pytest.mark.parametrize("points", [4, 0, -1])
def test_a_resignation_of_an_impossible_value_is_refused(bob_moving, bob, points):
    error = refused(
        bob_moving, IllegalAction, lambda: act(bob_moving, bob, "resign", points=points)
    )
    assert "1 (a single game), 2 (a gammon) or 3 (a backgammon)" in error.message


@pytest.mark.parametrize("points", ["2", None, 2.0, True])
def test_a_resignation_that_is_not_a_whole_number_is_refused(bob_moving, bob, points):
    error = refused(
        bob_moving, ApplicationError, lambda: act(bob_moving, bob, "resign", points=points)
    )
    assert error.code == "points"
    assert "1 (single), 2 (gammon) or 3 (backgammon)" in error.message


@pytest.mark.parametrize("action", ["castle", "", "ROLL", None])
def test_an_unknown_action_is_refused(bob_on_roll, bob, action):
    error = refused(bob_on_roll, ApplicationError, lambda: act(bob_on_roll, bob, action))
    assert error.code == "unknown_action"
    assert "roll, double, take, drop, move, name_double, resign, accept_resign, reject_resign" in (
        error.message
    )


@pytest.mark.parametrize("match_id", [999_999, "abc", None])
def test_a_match_that_does_not_exist_is_not_found(bob_on_roll, bob, match_id):
    def call():
        services.match_act(match_id=match_id, actor=bob, expected_seq=1, action="roll")

    error = refused(bob_on_roll, NotFound, call)
    assert error.code == "not_found"
