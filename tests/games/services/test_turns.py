"""The opening, rolling and the cube, played through the services with scripted dice."""

from __future__ import annotations

import hashlib

import pytest

from backgammon_site.core.errors import IllegalAction
from games import services
from games.engine import Dice
from games.models import Match
from tests.games.factories import (
    act,
    events_of,
    kinds_of,
    reload,
    start_match,
    state_of,
)
from tests.games.services.matches import (
    assert_sound,
    new_events,
    opened,
    server_seed,
    stored_seeds,
)

pytestmark = pytest.mark.django_db


# --- Starting a match and the opening roll ----------------------------------------------------


def test_match_start_records_the_match_then_the_opening_roll(dice, alice, bob):
    dice.add(3, 1)

    match = start_match(alice, bob, length=7)

    events = events_of(match)
    assert kinds_of(match, events) == ["match_started", "opening_roll"]
    assert [event.seq for event in events] == [1, 2]
    assert all(event.actor_id is None for event in events)
    assert events[0].payload == {
        "match_length": 7,
        "rated": False,
        "time_control": services.DEFAULT_TIME_CONTROL,
        "players": ["alice", "bob"],
        "player_ids": [alice.pk, bob.pk],
        "player_kinds": ["signed_up", "signed_up"],
        "dice": {
            "scheme": "hmac-sha256-v1",
            "server_seed_commitment": hashlib.sha256(server_seed(match)).hexdigest(),
            "player_seeds": stored_seeds(match),
        },
    }
    assert events[1].payload == {"dice": [3, 1]}
    stored = reload(match)
    assert (stored.seq, stored.head_digest) == (2, events[-1].digest)
    assert stored.status == Match.Status.ACTIVE
    assert stored.to_act == alice
    state = state_of(stored)
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(3, 1))
    assert_sound(match)


def test_opening_roll_tie_is_rolled_again(dice, alice, bob):
    dice.add(4, 4, 2, 2, 3, 1)

    match = start_match(alice, bob)

    events = events_of(match)
    assert kinds_of(match, events) == ["match_started"] + ["opening_roll"] * 3
    assert [event.payload["dice"] for event in events[1:]] == [[4, 4], [2, 2], [3, 1]]
    assert all(event.actor_id is None for event in events)
    assert match.seq == 4
    assert state_of(match).dice == Dice(3, 1)
    assert dice.left == []
    assert_sound(match)


def test_higher_opening_die_moves_first_with_both_numbers(dice, alice, bob):
    dice.add(1, 5)

    match = start_match(alice, bob)

    state = state_of(match)
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(5, 1))
    assert reload(match).to_act == bob
    assert state.legal_actions(1) == ("move", "resign")
    assert state.legal_actions(0) == ()


def test_players_actions_are_recorded_with_the_player_as_actor(dice, alice, bob):
    match = opened(dice, alice, bob)

    move = events_of(match)[-1]
    assert (move.kind, move.actor_id, move.payload) == (
        "move",
        alice.pk,
        {"player": 0, "play": "8/5 6/5"},
    )


def test_a_play_is_recorded_in_canonical_notation(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)

    match = act(match, alice, "move", play="6/5, 8/5")

    assert events_of(match)[-1].payload["play"] == "8/5 6/5"


# --- Rolling: by the player, or by the server when the player may not double --------------------


def test_player_who_may_double_is_left_to_roll_or_double(dice, alice, bob):
    match = opened(dice, alice, bob)

    state = state_of(match)
    assert (state.phase, state.turn) == ("rolling", 1)
    assert state.legal_actions(1) == ("roll", "double", "resign")
    assert reload(match).to_act == bob
    assert dice.left == []

    dice.add(4, 2)
    match = act(match, bob, "roll")

    roll = events_of(match)[-1]
    assert (roll.kind, roll.actor_id, roll.payload) == (
        "roll",
        bob.pk,
        {"player": 1, "dice": [4, 2]},
    )
    assert (state_of(match).phase, state_of(match).dice) == ("moving", Dice(4, 2))


def test_server_rolls_when_the_cube_is_dead(dice, alice, bob):
    # In a 1-point match the cube can gain nothing: nobody may double, so the server rolls.
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    seq = match.seq

    dice.add(4, 2)
    match = act(match, alice, "move", play="8/5 6/5")

    added = new_events(match, seq)
    assert [(e.kind, e.actor_id) for e in added] == [("move", alice.pk), ("roll", None)]
    assert added[1].payload == {"player": 1, "dice": [4, 2]}
    state = state_of(match)
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(4, 2))
    assert state.legal_actions(1) == ("move", "resign")
    assert reload(match).to_act == bob
    assert_sound(match)


# --- The cube ----------------------------------------------------------------------------------


def test_double_and_take_gives_the_taker_the_cube_at_two(dice, alice, bob):
    match = opened(dice, alice, bob)

    match = act(match, bob, "double")

    state = state_of(match)
    assert (state.phase, state.cube_value, state.cube_owner) == ("doubled", 1, None)
    assert reload(match).to_act == alice
    assert state.legal_actions(0) == ("take", "drop")
    assert state.legal_actions(1) == ()

    # Bob may not redouble a cube Alice owns, so the server rolls for him at once.
    seq = match.seq
    dice.add(4, 2)
    match = act(match, alice, "take")

    added = new_events(match, seq)
    assert [(e.kind, e.actor_id) for e in added] == [("take", alice.pk), ("roll", None)]
    state = state_of(match)
    assert (state.cube_value, state.cube_owner) == (2, 0)
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(4, 2))
    assert "double" not in state.legal_actions(1)
    assert_sound(match)


def test_only_the_cube_owner_may_redouble(dice, alice, bob):
    match = opened(dice, alice, bob)
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")

    with pytest.raises(IllegalAction):
        act(match, bob, "double")

    match = act(match, bob, "move", play="8/4 6/4")
    # Alice owns the cube at 2 and needs 5: she may redouble.
    state = state_of(match)
    assert (state.phase, state.turn) == ("rolling", 0)
    assert state.legal_actions(0) == ("roll", "double", "resign")

    match = act(match, alice, "double")
    dice.add(6, 5)
    seq = match.seq
    match = act(match, bob, "take")

    # Now Bob owns the cube at 4, and Alice is rolled for.
    added = new_events(match, seq)
    assert [(e.kind, e.actor_id) for e in added] == [("take", bob.pk), ("roll", None)]
    state = state_of(match)
    assert (state.cube_value, state.cube_owner) == (4, 1)
    assert (state.phase, state.turn) == ("moving", 0)
    match = act(match, alice, "move", play="24/13")
    state = state_of(match)
    assert state.legal_actions(1) == ("roll", "double", "resign")
    assert_sound(match)


def test_drop_loses_the_cube_value_before_the_double(dice, alice, bob):
    match = opened(dice, alice, bob)
    match = act(match, bob, "double")
    seq = match.seq

    dice.add(5, 2)
    match = act(match, alice, "drop")

    added = new_events(match, seq)
    assert [(e.kind, e.actor_id) for e in added] == [("drop", alice.pk), ("opening_roll", None)]
    state = state_of(match)
    assert state.score == (0, 1)
    assert (state.game_number, state.cube_value, state.cube_owner) == (2, 1, None)
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(5, 2))
    assert state.games[-1].result == "drop"
    assert_sound(match)


def test_dropping_a_redouble_loses_two_points(dice, alice, bob):
    match = opened(dice, alice, bob)
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")
    match = act(match, bob, "move", play="8/4 6/4")
    match = act(match, alice, "double")

    dice.add(2, 6)
    match = act(match, bob, "drop")

    state = state_of(match)
    assert state.score == (2, 0)
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert (state.turn, state.dice) == (1, Dice(6, 2))
    assert_sound(match)


def test_cube_owner_whose_cube_is_dead_is_rolled_for(dice, alice, bob):
    # A 2-point match: once Alice owns the cube at 2 she needs 2, so redoubling gains nothing.
    match = opened(dice, alice, bob, length=2)
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")
    seq = match.seq

    dice.add(6, 5)
    match = act(match, bob, "move", play="8/4 6/4")

    assert [(e.kind, e.actor_id) for e in new_events(match, seq)] == [
        ("move", bob.pk),
        ("roll", None),
    ]
    assert (state_of(match).phase, state_of(match).turn) == ("moving", 0)
