"""Resignations, games played out, the Crawford game and a match's end, through the services."""

from __future__ import annotations

import random

import pytest

from backgammon_site.core.errors import IllegalAction
from games.engine import Dice, GameResult
from games.engine.notation import format_play, parse_play
from games.log.integrity import fold_events
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
    finished_match,
    new_events,
    opened,
    snapshot_of,
)

pytestmark = pytest.mark.django_db


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
