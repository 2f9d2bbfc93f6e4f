"""Whole matches played through games/services.py with scripted dice: every rule path, every
refusal (which must write nothing), challenges, moderators and the match_changed signal."""

from __future__ import annotations

import hashlib
import random

import pytest
from django.db import transaction

from accounts.models import Profile
from backgammon_site.errors import ApplicationError, Conflict, Forbidden, IllegalAction, NotFound
from games import services
from games.dice.seed_vault import decrypt_seed
from games.engine import Dice, GameResult
from games.engine.notation import format_play, parse_play
from games.log.integrity import fold_events, log_problems
from games.models import Challenge, Match, MatchEvent
from games.signals import match_changed
from tests.games.factories import (
    act,
    events_of,
    kinds_of,
    make_user,
    reload,
    script_dice,
    start_match,
    state_of,
)

pytestmark = pytest.mark.django_db


def opened(dice, alice, bob, *, length: int = 5) -> Match:
    """Alice opened with 3-1 and played 8/5 6/5; Bob is on roll."""
    dice.add(3, 1)
    match = start_match(alice, bob, length=length)
    return act(match, alice, "move", play="8/5 6/5")


def new_events(match: Match, after_seq: int) -> list[MatchEvent]:
    return [event for event in events_of(match) if event.seq > after_seq]


def stored_seeds(match: Match) -> list[str]:
    return reload(match).player_seeds


def server_seed(match: Match) -> bytes:
    """The server's secret seed, as the vault keeps it until the match ends."""
    return decrypt_seed(reload(match).server_seed_ciphertext)


def assert_sound(match: Match) -> None:
    assert log_problems(reload(match)) == []


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


# --- Resignations ------------------------------------------------------------------------------


@pytest.mark.parametrize("points", [1, 2, 3])
def test_accepted_resignation_scores_its_points(dice, alice, bob, points):
    dice.add(3, 1)
    match = start_match(alice, bob, length=7)

    match = act(match, alice, "resign", points=points)

    state = state_of(match)
    assert (state.phase, state.resignation) == ("resigned", points)
    assert reload(match).to_act == bob
    assert state.legal_actions(1) == ("accept_resign", "reject_resign")
    assert state.legal_actions(0) == ()

    dice.add(1, 4)
    match = act(match, bob, "accept_resign")

    state = state_of(match)
    assert state.score == (0, points)
    assert state.games[-1].winner == 1
    assert (state.games[-1].points, state.games[-1].result) == (points, "resign")
    assert state.game_number == 2
    assert (state.turn, state.dice) == (1, Dice(4, 1))
    assert kinds_of(match)[-3:] == ["resign", "accept_resign", "opening_roll"]
    assert_sound(match)


@pytest.mark.parametrize("points", [1, 2, 3])
def test_accepted_resignation_is_multiplied_by_the_cube(dice, alice, bob, points):
    match = opened(dice, alice, bob, length=9)
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")  # cube 2, Alice's; the server rolled Bob's 4-2

    match = act(match, bob, "resign", points=points)
    dice.add(3, 1)
    match = act(match, alice, "accept_resign")

    state = state_of(match)
    assert state.score == (points * 2, 0)
    assert state.games[-1].points == points * 2
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert_sound(match)


def test_gammon_and_backgammon_resignations_on_a_two_cube_score_four_and_six(dice, alice, bob):
    match = opened(dice, alice, bob, length=15)
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")
    match = act(match, bob, "resign", points=2)
    dice.add(1, 3)  # game 2: Bob opens
    match = act(match, alice, "accept_resign")
    assert state_of(match).score == (4, 0)

    match = act(match, bob, "move", play="8/5 6/5")
    match = act(match, alice, "double")
    dice.add(6, 5)
    match = act(match, bob, "take")  # cube 2, Bob's; the server rolled Alice's 6-5
    match = act(match, alice, "resign", points=3)
    dice.add(2, 1)
    match = act(match, bob, "accept_resign")

    assert state_of(match).score == (4, 6)
    assert_sound(match)


def test_rejected_resignation_resumes_play_where_it_was(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)

    match = act(match, alice, "resign", points=1)
    match = act(match, bob, "reject_resign")

    state = state_of(match)
    assert (state.phase, state.turn, state.dice, state.resignation) == (
        "moving",
        0,
        Dice(3, 1),
        None,
    )
    assert state.score == (0, 0)
    assert reload(match).to_act == alice
    assert [(e.kind, e.actor_id) for e in events_of(match)[-2:]] == [
        ("resign", alice.pk),
        ("reject_resign", bob.pk),
    ]
    match = act(match, alice, "move", play="8/5 6/5")

    # Resigning before rolling: a rejection puts Bob back on roll, cube in hand.
    match = act(match, bob, "resign", points=2)
    match = act(match, alice, "reject_resign")
    state = state_of(match)
    assert (state.phase, state.turn) == ("rolling", 1)
    assert state.legal_actions(1) == ("roll", "double", "resign")
    dice.add(4, 2)
    match = act(match, bob, "roll")
    assert state_of(match).dice == Dice(4, 2)
    assert_sound(match)


def test_only_the_opponent_answers_a_resignation(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)
    match = act(match, alice, "resign", points=1)

    for action in ("accept_resign", "reject_resign"):
        with pytest.raises(IllegalAction):
            act(match, alice, action)

    with pytest.raises(IllegalAction):
        act(match, alice, "move", play="8/5 6/5")


# --- Games played out on the board --------------------------------------------------------------


def runner_play(state, plays):
    """The play that leaves the mover the fewest pips: brings a game home quickly."""
    player = state.turn
    before = state.position_for(player)
    return min(plays, key=lambda play: (before.apply(play).pip_count()[0], format_play(play)))


def play_one_game(match, users, rng, *, double_first: bool):
    """Play the match's current game to its end: Alice runs, Bob plays at random.

    Alice doubles at her first chance when ``double_first``, and Bob takes. Returns the match,
    the state before the game's last play (the player's or the server's forced one), and the
    result the engine's own outcome gives that play.
    """
    game = state_of(match).game_number
    while state_of(match).game_number == game and not state_of(match).is_finished():
        state = state_of(match)
        player = state.player_to_act()
        actions = state.legal_actions(player)
        user = users[player]
        if "take" in actions:
            match = act(match, user, "take")
        elif "double" in actions and player == 0 and double_first and state.cube_value == 1:
            match = act(match, user, "double")
        elif "roll" in actions:
            match = act(match, user, "roll")
        else:
            plays = state.legal_plays()
            play = runner_play(state, plays) if player == 0 else rng.choice(plays)
            match = act(match, user, "move", play=format_play(play))
    events = events_of(match)
    last = max(i for i, event in enumerate(events) if event.kind == "move")
    before = fold_events(match.match_length, events[:last])
    play = parse_play(events[last].payload["play"], before.position_for(before.turn), before.dice)
    outcome = before.position_for(before.turn).apply(play).outcome()
    assert outcome is not None and outcome.winner_on_roll
    return match, before, outcome.result


@pytest.mark.slow
def test_a_game_played_out_scores_its_result_times_the_cube(dice, alice, bob):
    # Alice doubles early and races; Bob, playing at random with the cube, is often gammoned.
    # Seeds are tried until a game ends in a gammon or more on the 2-cube, so the test does not
    # rest on one seed's luck if the engine orders its plays differently.
    seen = []
    for seed in range(12):
        dice.queue.clear()
        dice.add_random(3000, seed)
        match = start_match(alice, bob, length=25)
        match, before, result = play_one_game(
            match, (alice, bob), random.Random(seed), double_first=True
        )
        state = state_of(match)
        winner = before.turn
        points = int(result) * before.cube_value
        assert state.score[winner] == points and state.score[1 - winner] == 0
        assert (state.games[-1].winner, state.games[-1].points) == (winner, points)
        assert state.games[-1].result == {1: "single", 2: "gammon", 3: "backgammon"}[result]
        assert (state.game_number, state.cube_value, state.cube_owner) == (2, 1, None)
        assert_sound(match)
        seen.append((result, before.cube_value))
        if result >= GameResult.GAMMON and before.cube_value == 2:
            break
    assert seen[-1][0] >= GameResult.GAMMON and seen[-1][1] == 2, seen


# --- The Crawford game and after ----------------------------------------------------------------


def test_crawford_game_has_no_doubling_and_post_crawford_games_do(dice, alice, bob):
    dice.add(1, 3)  # Bob opens
    match = start_match(alice, bob, length=3)
    match = act(match, bob, "resign", points=2)
    dice.add(3, 1)  # the Crawford game: Alice opens
    match = act(match, alice, "accept_resign")

    state = state_of(match)
    assert state.score == (2, 0)
    assert (state.crawford, state.crawford_played) == (True, False)

    # Nobody may double, so the server rolls for both players.
    seq = match.seq
    dice.add(4, 2)
    match = act(match, alice, "move", play="8/5 6/5")
    assert [(e.kind, e.actor_id) for e in new_events(match, seq)] == [
        ("move", alice.pk),
        ("roll", None),
    ]
    assert state_of(match).legal_actions(1) == ("move", "resign")

    seq = match.seq
    dice.add(6, 5)
    match = act(match, bob, "move", play="8/4 6/4")
    assert [(e.kind, e.actor_id) for e in new_events(match, seq)] == [
        ("move", bob.pk),
        ("roll", None),
    ]
    assert "double" not in state_of(match).legal_actions(0)
    with pytest.raises(IllegalAction, match="Crawford|double"):
        act(match, alice, "double")

    match = act(match, alice, "resign", points=1)
    dice.add(1, 3)  # game 3, post-Crawford: Bob opens
    match = act(match, bob, "accept_resign")
    state = state_of(match)
    assert state.score == (2, 1)
    assert (state.crawford, state.crawford_played) == (False, True)

    # Alice needs 1: her cube is dead and she is rolled for. Bob, trailing, may double again.
    seq = match.seq
    dice.add(5, 2)
    match = act(match, bob, "move", play="8/5 6/5")
    assert [(e.kind, e.actor_id) for e in new_events(match, seq)] == [
        ("move", bob.pk),
        ("roll", None),
    ]
    match = act(match, alice, "move", play="13/8 13/11")
    state = state_of(match)
    assert (state.phase, state.turn) == ("rolling", 1)
    assert state.legal_actions(1) == ("roll", "double", "resign")

    match = act(match, bob, "double")
    dice.add(2, 1)
    match = act(match, alice, "take")
    state = state_of(match)
    assert (state.cube_value, state.cube_owner) == (2, 0)
    assert_sound(match)


# --- The end of a match -------------------------------------------------------------------------


def finished_match(dice, alice, bob) -> Match:
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    match = act(match, alice, "resign", points=1)
    return act(match, bob, "accept_resign")


def test_match_ends_when_a_player_reaches_the_length(dice, alice, bob):
    match = finished_match(dice, alice, bob)

    stored = reload(match)
    assert stored.status == Match.Status.FINISHED
    assert stored.winner == bob
    assert stored.to_act is None
    assert stored.finished_at is not None
    state = state_of(stored)
    assert (state.phase, state.score, state.winner) == ("finished", (0, 1), 1)
    assert state.legal_actions(0) == state.legal_actions(1) == ()
    # No opening roll after the last game: the server reveals its dice seed and stops.
    assert kinds_of(stored)[-2:] == ["accept_resign", "dice_revealed"]
    assert_sound(match)


@pytest.mark.parametrize(
    ("action", "options"),
    [
        ("roll", {}),
        ("double", {}),
        ("take", {}),
        ("drop", {}),
        ("move", {"play": "8/5 6/5"}),
        ("resign", {"points": 1}),
        ("accept_resign", {}),
        ("reject_resign", {}),
    ],
)
def test_nothing_is_allowed_after_the_match_ends(dice, alice, bob, action, options):
    match = finished_match(dice, alice, bob)
    dice.add(6, 6, 6, 6)  # spare dice, should a refused roll be rolled before it is refused
    before = snapshot_of(match)

    for user in (alice, bob):
        with pytest.raises(IllegalAction) as refused:
            act(match, user, action, **options)
        assert "over" in refused.value.message
        assert snapshot_of(match) == before


def test_winner_may_pass_the_match_length(dice, alice, bob):
    dice.add(1, 3)
    match = start_match(alice, bob, length=2)
    match = act(match, bob, "resign", points=3)
    match = act(match, alice, "accept_resign")

    stored = reload(match)
    assert (stored.status, stored.winner) == (Match.Status.FINISHED, alice)
    assert state_of(stored).score == (3, 0)


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


def snapshot_of(match: Match):
    """Everything a refused call must leave as it was."""
    stored = reload(match)
    return (
        MatchEvent.objects.count(),
        stored.seq,
        stored.head_digest,
        stored.state,
        stored.to_act_id,
        stored.status,
        stored.updated_at,
    )


@pytest.fixture
def bob_on_roll(dice, alice, bob):
    """Alice opened with 8/5 6/5; Bob is on roll and may double."""
    match = opened(dice, alice, bob)
    dice.add(6, 6, 6, 6)  # spare dice, should a refused roll be rolled before it is refused
    return match


def refused(match, error_type, call):
    before = snapshot_of(match)
    with pytest.raises(error_type) as caught:
        call()
    assert snapshot_of(match) == before, "a refused call wrote something"
    assert caught.value.message
    return caught.value


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
    assert "roll, double, take, drop, move, resign, accept_resign, reject_resign" in error.message


@pytest.mark.parametrize("match_id", [999_999, "abc", None])
def test_a_match_that_does_not_exist_is_not_found(bob_on_roll, bob, match_id):
    def call():
        services.match_act(match_id=match_id, actor=bob, expected_seq=1, action="roll")

    error = refused(bob_on_roll, NotFound, call)
    assert error.code == "not_found"


# --- Challenges --------------------------------------------------------------------------------


def create(challenger, opponent, **options):
    return services.challenge_create(challenger=challenger, opponent=opponent, **options)


def test_challenge_create_with_defaults(alice, bob):
    challenge = create(alice, bob)

    challenge.refresh_from_db()
    assert (challenge.challenger, challenge.opponent) == (alice, bob)
    assert (challenge.match_length, challenge.rated) == (5, True)
    assert challenge.status == Challenge.Status.OPEN
    assert challenge.time_control == services.DEFAULT_TIME_CONTROL
    assert challenge.match is None


@pytest.mark.parametrize(
    "time_control",
    [
        {"kind": "correspondence", "days_per_move": 0.25},
        {"kind": "correspondence", "days_per_move": 1 / 24, "reserve_days": 60},
        {"kind": "correspondence", "days_per_move": 30, "reserve_days": 0},
        {"kind": "live", "minutes": 1},
        {"kind": "live", "minutes": 120, "increment_seconds": 120},
    ],
)
def test_challenge_create_accepts_time_controls_in_range(alice, bob, time_control):
    challenge = create(alice, bob, match_length=1, rated=False, time_control=time_control)

    challenge.refresh_from_db()
    assert challenge.time_control["kind"] == time_control["kind"]
    for name, value in time_control.items():
        assert challenge.time_control[name] == value
    assert set(challenge.time_control) == (
        {"kind", "days_per_move", "reserve_days"}
        if time_control["kind"] == "correspondence"
        else {"kind", "minutes", "increment_seconds"}
    )


@pytest.mark.parametrize("length", [1, 25])
def test_challenge_create_accepts_lengths_1_to_25(alice, bob, length):
    assert create(alice, bob, match_length=length).match_length == length


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        ({"match_length": 0}, "match_length", "1 to 25"),
        ({"match_length": 26}, "match_length", "1 to 25"),
        ({"match_length": -5}, "match_length", "1 to 25"),
        ({"match_length": "5"}, "match_length", "whole number"),
        ({"match_length": 5.0}, "match_length", "whole number"),
        ({"match_length": True}, "match_length", "whole number"),
        ({"rated": "yes"}, "rated", "true or false"),
        ({"time_control": "fast"}, "time_control", "kind"),
        ({"time_control": {"kind": "blitz", "minutes": 5}}, "time_control", "kind"),
        ({"time_control": {"days_per_move": 1}}, "time_control", "kind"),
        ({"time_control": {"kind": "correspondence"}}, "time_control", "days_per_move"),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 0.01}},
            "time_control",
            "days_per_move must be between",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 31}},
            "time_control",
            "days_per_move must be between",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": 61}},
            "time_control",
            "reserve_days",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": -1}},
            "time_control",
            "reserve_days",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": "1"}},
            "time_control",
            "days_per_move must be a number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": float("nan")}},
            "time_control",
            "days_per_move must be a finite number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": True}},
            "time_control",
            "days_per_move must be a number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "minutes": 5}},
            "time_control",
            "Unknown time control field: minutes",
        ),
        ({"time_control": {"kind": "live", "minutes": 0}}, "time_control", "minutes"),
        ({"time_control": {"kind": "live", "minutes": 121}}, "time_control", "minutes"),
        ({"time_control": {"kind": "live"}}, "time_control", "minutes must be a number"),
        (
            {"time_control": {"kind": "live", "minutes": 5, "increment_seconds": 121}},
            "time_control",
            "increment_seconds",
        ),
        (
            {"time_control": {"kind": "live", "minutes": 5, "increment_seconds": -1}},
            "time_control",
            "increment_seconds",
        ),
        (
            {"time_control": {"kind": "live", "minutes": 5, "days_per_move": 1}},
            "time_control",
            "Unknown time control field: days_per_move",
        ),
    ],
)
def test_challenge_create_refuses_bad_settings(alice, bob, options, code, words):
    with pytest.raises(ApplicationError) as refused_call:
        create(alice, bob, **options)

    assert refused_call.value.code == code
    assert words in refused_call.value.message
    assert Challenge.objects.count() == 0


def test_nobody_can_challenge_themselves(alice):
    with pytest.raises(ApplicationError) as refused_call:
        create(alice, alice)

    assert refused_call.value.code == "self_challenge"
    assert Challenge.objects.count() == 0


def test_an_inactive_player_cannot_be_challenged(alice):
    gone = make_user("gone", is_active=False)

    with pytest.raises(ApplicationError) as refused_call:
        create(alice, gone)

    assert refused_call.value.code == "inactive_player"


def test_accepting_a_challenge_starts_the_match_with_the_challenger_first(dice, alice, bob):
    challenge = create(alice, bob, match_length=7, rated=True)
    dice.add(2, 5)

    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.match == match
    assert challenge.decided_at is not None
    stored = reload(match)
    assert (stored.first_player, stored.second_player) == (alice, bob)
    assert (stored.match_length, stored.rated) == (7, True)
    assert stored.time_control == services.DEFAULT_TIME_CONTROL
    assert kinds_of(stored) == ["match_started", "opening_roll"]
    assert stored.to_act == bob
    assert_sound(stored)


def test_fractional_days_survive_the_log_and_its_digest(dice, alice, bob):
    time_control = {"kind": "correspondence", "days_per_move": 1 / 24, "reserve_days": 0.1}
    challenge = create(alice, bob, time_control=time_control)
    dice.add(3, 1)

    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    stored = reload(match)
    assert stored.time_control == time_control
    assert events_of(stored)[0].payload["time_control"] == time_control
    assert_sound(stored)


def test_a_match_needs_two_different_players(alice):
    with pytest.raises(ApplicationError) as refused_call:
        start_match(alice, alice)

    assert refused_call.value.code == "self_challenge"
    assert Match.objects.count() == 0


def test_anyone_but_the_challenger_can_accept_an_open_challenge(dice, alice, carol):
    challenge = create(alice, None)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "self_challenge"

    dice.add(3, 1)
    match = services.challenge_accept(challenge_id=challenge.pk, user=carol)

    challenge.refresh_from_db()
    assert (challenge.status, challenge.opponent, challenge.match) == ("accepted", carol, match)
    assert (match.first_player, match.second_player) == (alice, carol)


def test_only_the_named_opponent_can_accept(alice, bob, carol):
    challenge = create(alice, bob)

    with pytest.raises(Forbidden):
        services.challenge_accept(challenge_id=challenge.pk, user=carol)
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "self_challenge"

    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN
    assert Match.objects.count() == 0


def test_a_challenge_is_accepted_once(dice, alice, bob):
    challenge = create(alice, bob)
    dice.add(3, 1)
    services.challenge_accept(challenge_id=challenge.pk, user=bob)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=bob)

    assert refused_call.value.code == "challenge_closed"
    assert Match.objects.count() == 1


def test_a_missing_challenge_is_not_found(alice):
    for call in (
        services.challenge_accept,
        services.challenge_decline,
        services.challenge_cancel,
    ):
        with pytest.raises(NotFound):
            call(challenge_id=424242, user=alice)


def test_only_the_challenged_player_declines(alice, bob, carol):
    challenge = create(alice, bob)

    for user in (alice, carol):
        with pytest.raises(Forbidden):
            services.challenge_decline(challenge_id=challenge.pk, user=user)

    declined = services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert declined.status == Challenge.Status.DECLINED
    assert declined.decided_at is not None

    for close in (services.challenge_decline, services.challenge_cancel):
        user = bob if close is services.challenge_decline else alice
        with pytest.raises(ApplicationError) as refused_call:
            close(challenge_id=challenge.pk, user=user)
        assert refused_call.value.code == "challenge_closed"
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert refused_call.value.code == "challenge_closed"
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED


def test_an_open_challenge_cannot_be_declined(alice, carol):
    challenge = create(alice, None)

    with pytest.raises(Forbidden):
        services.challenge_decline(challenge_id=challenge.pk, user=carol)


def test_only_the_challenger_cancels(alice, bob, carol):
    challenge = create(alice, bob)

    for user in (bob, carol):
        with pytest.raises(Forbidden):
            services.challenge_cancel(challenge_id=challenge.pk, user=user)

    cancelled = services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert cancelled.status == Challenge.Status.CANCELLED

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "challenge_closed"
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert refused_call.value.code == "challenge_closed"


def test_an_accepted_challenge_cannot_be_cancelled(dice, alice, bob):
    challenge = create(alice, bob)
    dice.add(3, 1)
    services.challenge_accept(challenge_id=challenge.pk, user=bob)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)

    assert refused_call.value.code == "challenge_closed"
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED


# --- Moderators --------------------------------------------------------------------------------


def test_a_moderator_aborts_a_match(bob_on_roll, moderator):
    match = services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason=" spam ")

    stored = reload(match)
    event = events_of(stored)[-2]
    assert (event.kind, event.actor_id, event.payload) == (
        "match_aborted",
        moderator.pk,
        {"reason": "spam"},
    )
    assert stored.status == Match.Status.FINISHED
    assert (stored.winner, stored.to_act) == (None, None)
    assert stored.finished_at is not None
    state = state_of(stored)
    assert (state.phase, state.aborted, state.end_reason) == ("finished", True, "spam")
    assert_sound(stored)


def test_a_moderator_awards_a_match(bob_on_roll, moderator, alice):
    match = services.match_award(
        match_id=bob_on_roll.pk, moderator=moderator, winner=alice, reason="Bob left"
    )

    stored = reload(match)
    event = events_of(stored)[-2]
    assert (event.kind, event.actor_id, event.payload) == (
        "match_awarded",
        moderator.pk,
        {"winner": 0, "reason": "Bob left"},
    )
    assert (stored.status, stored.winner, stored.to_act) == (Match.Status.FINISHED, alice, None)
    assert_sound(stored)


def test_a_superuser_may_moderate(bob_on_roll, bob):
    admin = make_user("root", is_superuser=True, is_staff=True)

    services.match_award(match_id=bob_on_roll.pk, moderator=admin, winner=bob, reason="ok")

    assert reload(bob_on_roll).winner == bob


def test_players_are_not_moderators(bob_on_roll, alice, bob, carol):
    for user in (alice, bob, carol):
        refused(
            bob_on_roll,
            Forbidden,
            lambda user=user: services.match_abort(
                match_id=bob_on_roll.pk, moderator=user, reason="no"
            ),
        )
        refused(
            bob_on_roll,
            Forbidden,
            lambda user=user: services.match_award(
                match_id=bob_on_roll.pk, moderator=user, winner=user, reason="mine"
            ),
        )


def test_moderation_refusals_write_nothing(bob_on_roll, moderator, carol):
    error = refused(
        bob_on_roll,
        ApplicationError,
        lambda: services.match_award(
            match_id=bob_on_roll.pk, moderator=moderator, winner=carol, reason="x"
        ),
    )
    assert "one of its players" in error.message
    for reason in ("", "   ", None):
        error = refused(
            bob_on_roll,
            ApplicationError,
            lambda reason=reason: services.match_abort(
                match_id=bob_on_roll.pk, moderator=moderator, reason=reason
            ),
        )
        assert error.code == "reason"
    refused(
        bob_on_roll,
        NotFound,
        lambda: services.match_abort(match_id=999_999, moderator=moderator, reason="x"),
    )


def test_a_finished_match_cannot_be_aborted_or_awarded(dice, alice, bob, moderator):
    match = finished_match(dice, alice, bob)

    refused(
        match,
        IllegalAction,
        lambda: services.match_abort(match_id=match.pk, moderator=moderator, reason="x"),
    )
    refused(
        match,
        IllegalAction,
        lambda: services.match_award(
            match_id=match.pk, moderator=moderator, winner=alice, reason="x"
        ),
    )
    assert reload(match).winner == bob


def test_players_cannot_act_after_an_abort(bob_on_roll, bob, moderator):
    services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason="x")

    with pytest.raises(IllegalAction):
        act(reload(bob_on_roll), bob, "double")


# --- The match_changed signal -------------------------------------------------------------------


@pytest.fixture
def announced():
    received = []

    def receiver(sender, **kwargs):
        received.append({key: kwargs[key] for key in ("match_id", "seq", "to_act_id")})

    match_changed.connect(receiver, weak=False)
    yield received
    match_changed.disconnect(receiver)


def quiet_players():
    """Alice and Bob without email addresses: announcing a change is then all that a commit
    runs (no notification is emailed)."""
    return make_user("alice"), make_user("bob")


def test_match_changed_is_sent_once_after_commit(
    dice, announced, django_capture_on_commit_callbacks
):
    alice, bob = quiet_players()
    dice.add(3, 1)
    with django_capture_on_commit_callbacks() as callbacks:
        match = start_match(alice, bob)
    assert announced == []  # not before the commit
    assert len(callbacks) == 1
    callbacks[0]()
    assert announced == [{"match_id": match.pk, "seq": 2, "to_act_id": alice.pk}]

    # One signal per call, however many events the server appends after the player's.
    announced.clear()
    dice.add(4, 2)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = act(match, alice, "move", play="8/5 6/5")
        match = act(match, bob, "double")
        match = act(match, alice, "take")
    assert len(callbacks) == 3
    assert announced == [
        {"match_id": match.pk, "seq": 3, "to_act_id": bob.pk},
        {"match_id": match.pk, "seq": 4, "to_act_id": alice.pk},
        {"match_id": match.pk, "seq": 6, "to_act_id": bob.pk},
    ]


def test_match_changed_is_sent_for_challenges_accepted_and_moderation(
    dice, moderator, announced, django_capture_on_commit_callbacks
):
    alice, bob = quiet_players()
    challenge = services.challenge_create(challenger=alice, opponent=bob)
    dice.add(1, 2)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert len(callbacks) == 1
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.match_abort(match_id=match.pk, moderator=moderator, reason="x")
    assert len(callbacks) == 1
    assert announced == [
        {"match_id": match.pk, "seq": 2, "to_act_id": bob.pk},
        {"match_id": match.pk, "seq": 4, "to_act_id": None},
    ]


def test_match_changed_is_not_sent_for_a_refused_call(
    bob_on_roll, alice, bob, carol, moderator, announced, django_capture_on_commit_callbacks
):
    calls = [
        lambda: act(bob_on_roll, carol, "roll"),
        lambda: act(bob_on_roll, alice, "roll"),
        lambda: act(bob_on_roll, bob, "take"),
        lambda: services.match_act(
            match_id=bob_on_roll.pk, actor=bob, expected_seq=1, action="roll"
        ),
        lambda: act(bob_on_roll, bob, "castle"),
        lambda: act(bob_on_roll, bob, "resign", points=4),
        lambda: services.match_abort(match_id=bob_on_roll.pk, moderator=alice, reason="x"),
        lambda: services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason=""),
    ]
    for call in calls:
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(ApplicationError),
        ):
            call()
        assert callbacks == []
    assert announced == []


@pytest.mark.django_db(transaction=True)
def test_match_changed_arrives_after_the_commit(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    dice = script_dice(monkeypatch, 3, 1)
    seen = []

    def receiver(sender, match_id, seq, **kwargs):
        seen.append(
            (transaction.get_connection().in_atomic_block, Match.objects.get(pk=match_id).seq, seq)
        )

    match_changed.connect(receiver, weak=False)
    try:
        match = start_match(alice, bob)
        act(match, alice, "move", play="8/5 6/5")
    finally:
        match_changed.disconnect(receiver)

    assert seen == [(False, 2, 2), (False, 3, 3)]
    assert dice.left == []
