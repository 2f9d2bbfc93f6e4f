"""Why the rules refuse an action: ``why_refused(state, player, action)``, None when allowed.

The words are the ones ``MatchState.apply`` refuses the action's event with, because both ask
the same check; the API shows them.
"""

import random

import pytest

from games.engine import (
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Dice,
    Double,
    DoubleNamed,
    Drop,
    IllegalActionError,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    format_play,
    why_refused,
)
from games.engine.match import MatchState, fold
from games.engine.refusals import ACTIONS


def on_roll(*events, match_length: int = 5) -> MatchState:
    """Player 0 opened with 3-1 (8/5 6/5); player 1 is on roll, then ``events``."""
    return fold(match_length, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5"), *events])


def allowed(state: MatchState, player: int) -> set[str]:
    return {action for action in ACTIONS if why_refused(state, player, action) is None}


def test_the_actions_allowed_are_the_legal_ones_and_the_answers_to_an_offer():
    state = on_roll(OfferEnd(0))
    assert allowed(state, 1) == {"roll", "double", "resign", "abort", "accept_end", "decline_end"}
    assert allowed(state, 0) == {"abort"}


def test_only_the_player_on_roll_rolls():
    state = on_roll()
    assert why_refused(state, 1, "roll") is None
    assert why_refused(state, 0, "roll") == (
        "You cannot roll now: it is your opponent's turn to roll."
    )


def test_a_player_who_has_rolled_cannot_roll_again():
    state = on_roll(Roll(1, Dice(6, 5)))
    assert why_refused(state, 1, "roll") == "You cannot roll now: you are to play your 6-5."


def test_a_double_comes_before_the_roll():
    state = on_roll(Roll(1, Dice(6, 5)))
    assert why_refused(state, 1, "double") == (
        "You cannot double now: you have rolled 6-5; a double comes first."
    )


def test_only_the_cube_owner_may_redouble():
    state = on_roll(Double(1), Take(0), Roll(1, Dice(6, 5)), PlayMade(1, "24/13"))
    assert state.cube_owner == 0 and state.turn == 0
    assert why_refused(state, 0, "double") is None
    state = state.apply(Roll(0, Dice(2, 1))).apply(PlayMade(0, "13/11 6/5"))
    assert why_refused(state, 1, "double") == "You cannot double: your opponent owns the cube."


def test_there_is_no_double_in_the_crawford_game():
    state = on_roll(Resign(1, 1), AcceptResignation(0), match_length=2)
    assert state.crawford
    state = state.apply(OpeningRoll((3, 1)))
    assert why_refused(state, 1, "double") == (
        "You cannot double now: it is your opponent's turn to play their 3-1."
    )
    state = state.apply(PlayMade(0, "8/5 6/5"))
    assert why_refused(state, 1, "double") == "You cannot double in the Crawford game."


def test_a_dead_cube_cannot_be_doubled():
    state = on_roll(match_length=1)
    assert why_refused(state, 1, "double") == (
        "You cannot double: you need 1 point to win the match and a win with the cube at 1 "
        "already brings them; the cube is dead."
    )


def test_only_the_doubled_player_takes_or_drops():
    state = on_roll(Double(1))
    assert allowed(state, 0) >= {"take", "drop"}
    for action, words in (("take", "take the cube"), ("drop", "drop the cube")):
        assert why_refused(state, 1, action) == (
            f"You cannot {words} now: your opponent has yet to take or drop your double."
        )


def test_nobody_takes_a_cube_not_offered():
    assert why_refused(on_roll(), 1, "take") == ("You cannot take the cube now: you are on roll.")


def test_a_player_resigns_only_when_it_is_their_decision():
    assert why_refused(on_roll(), 1, "resign") is None
    assert why_refused(on_roll(), 0, "resign") == (
        "You cannot resign now: it is your opponent's turn to roll."
    )


def test_only_the_resigners_opponent_answers_a_resignation():
    state = on_roll(Resign(1, 2))
    assert allowed(state, 0) >= {"accept_resign", "reject_resign"}
    assert why_refused(state, 1, "accept_resign") == (
        "You cannot accept a resignation now: your opponent has yet to accept or reject your "
        "resignation of a gammon (2 points)."
    )
    assert why_refused(on_roll(), 0, "reject_resign") == (
        "You cannot reject a resignation now: it is your opponent's turn to roll."
    )


def test_a_player_moves_only_after_rolling():
    assert why_refused(on_roll(), 1, "move") == "You cannot move now: you are on roll."
    assert why_refused(on_roll(Roll(1, Dice(6, 5))), 1, "move") is None


def test_nothing_is_allowed_once_the_match_is_over():
    state = on_roll(Abort(1))
    assert allowed(state, 0) == allowed(state, 1) == set()
    assert why_refused(state, 0, "roll") == "You cannot roll now: the match is over."
    assert why_refused(state, 0, "abort") == "Cannot abort the match: the match is over."
    assert why_refused(state, 1, "offer_end") == (
        "Cannot offer to end the match: the match is over."
    )


def test_an_offer_to_end_stands_until_answered():
    state = on_roll(OfferEnd(0))
    assert why_refused(state, 0, "offer_end") == (
        "You have already offered to end the match; your opponent has yet to answer."
    )
    assert why_refused(state, 1, "offer_end") == (
        "Your opponent has offered to end the match: accept or decline their offer."
    )


def test_only_the_opponent_answers_an_offer_to_end():
    state = on_roll(OfferEnd(0))
    assert why_refused(state, 0, "accept_end") == (
        "You cannot accept your own offer to end the match: your opponent answers it."
    )
    assert why_refused(on_roll(), 1, "decline_end") == (
        "There is no offer to end the match to decline."
    )


def test_ending_a_match_under_way_is_the_services_to_refuse():
    state = on_roll(Roll(1, Dice(6, 5)))
    assert why_refused(state, 0, "abort") is None
    assert why_refused(state, 0, "offer_end") is None


def test_an_unknown_action_is_an_error():
    with pytest.raises(IllegalActionError, match="no action 'castle'"):
        why_refused(on_roll(), 1, "castle")


OPENED = (OpeningRoll((6, 5)),)  # player 0 is to play 6-5
PLAYER_1_ROLLS = (*OPENED, PlayMade(0, "24/13"))
PLAYER_1_DOUBLED = (*PLAYER_1_ROLLS, Double(1))
NOT_YET = "game 1 starts with the opening roll"
DOUBLED_WAIT = "your opponent has yet to take or drop your double"
RESIGNED_WAIT = "your opponent has yet to accept or reject your resignation"


@pytest.mark.parametrize(
    ("events", "event", "message"),
    [
        ((), Roll(0, Dice(6, 5)), f"^You cannot roll now: {NOT_YET}.$"),
        ((), Double(0), f"^You cannot double now: {NOT_YET}.$"),
        ((), Resign(0, 1), f"^You cannot resign now: {NOT_YET}.$"),
        (OPENED, PlayMade(1, "24/13"), "move now: it is your opponent's turn to play their 6-5"),
        (OPENED, Double(1), "cannot double now: it is your opponent's turn"),
        (OPENED, RejectResignation(1), "cannot reject a resignation now"),
        (PLAYER_1_ROLLS, Roll(0, Dice(1, 2)), "roll now: it is your opponent's turn to roll"),
        (PLAYER_1_ROLLS, PlayMade(1, "24/13"), "cannot move now: you are on roll"),
        (PLAYER_1_ROLLS, Take(1), "cannot take the cube now: you are on roll"),
        (PLAYER_1_DOUBLED, Take(1), f"cannot take the cube now: {DOUBLED_WAIT}"),
        (PLAYER_1_DOUBLED, Roll(1, Dice(1, 2)), f"cannot roll now: {DOUBLED_WAIT}"),
        (PLAYER_1_DOUBLED, Roll(0, Dice(1, 2)), "roll now: you have been doubled: take or drop"),
        (
            (*OPENED, Resign(0, 2)),
            AcceptResignation(0),
            f"accept a resignation now: {RESIGNED_WAIT} of a gammon \\(2 points\\)",
        ),
        ((*OPENED, Resign(0, 2)), PlayMade(0, "24/13"), f"cannot move now: {RESIGNED_WAIT}"),
        (
            (*OPENED, Resign(0, 3)),
            Drop(1),
            "drop the cube now: your opponent offers to resign a backgammon \\(3 points\\): "
            "accept or reject",
        ),
    ],
)
def test_action_out_of_turn_or_in_the_wrong_phase_is_refused_with_a_readable_message(
    events, event, message
):
    state = fold(5, events)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(event)


def events_for(action: str, player: int, state: MatchState) -> list:
    """The events ``action`` may be taken with in ``state``: every roll, every legal play."""
    if action == "roll":
        return [Roll(player, Dice(first, second)) for first in (1, 6) for second in (2, 6)]
    if action == "move":
        return [PlayMade(player, format_play(play)) for play in state.legal_plays()] or [
            PlayMade(player, "")
        ]
    if action == "resign":
        return [Resign(player, points) for points in (1, 2, 3)]
    if action == "name_double":
        return [DoubleNamed(player, number) for number in (1, 6)]
    single = {
        "double": Double,
        "take": Take,
        "drop": Drop,
        "accept_resign": AcceptResignation,
        "reject_resign": RejectResignation,
        "abort": Abort,
        "offer_end": OfferEnd,
        "accept_end": AcceptEnd,
        "decline_end": DeclineEnd,
    }
    return [single[action](player)]


def random_states(count: int, seed: int = 16) -> list[MatchState]:
    """States met while two players act at random, cube, resignations and offers included."""
    rng = random.Random(seed)
    states: list[MatchState] = []
    state = MatchState.new(3)
    while len(states) < count:
        states.append(state)
        if state.is_finished():
            state = MatchState.new(3)
            continue
        if state.phase == "opening":
            state = state.apply(OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
            continue
        player = rng.choice((0, 1))
        action = rng.choice(
            [a for a in ACTIONS if a != "abort"] if rng.random() < 0.95 else ACTIONS
        )
        if why_refused(state, player, action) is None:
            state = state.apply(rng.choice(events_for(action, player, state)))
    return states


@pytest.mark.parametrize("action", ACTIONS)
def test_a_refused_action_is_refused_by_the_rules_in_the_same_words(action):
    for state in random_states(400):
        for player in (0, 1):
            reason = why_refused(state, player, action)
            for event in events_for(action, player, state):
                if reason is None:
                    state.apply(event)
                    continue
                with pytest.raises(IllegalActionError) as refused:
                    state.apply(event)
                assert str(refused.value) == reason


def test_why_refused_asks_the_checks_and_tries_no_event(monkeypatch):
    states = random_states(100)

    def no_event(state: MatchState, event: object) -> MatchState:
        raise AssertionError(f"why_refused applied {event!r}")

    monkeypatch.setattr(MatchState, "apply", no_event)
    refusals = {
        why_refused(state, player, action)
        for state in states
        for player in (0, 1)
        for action in ACTIONS
    }
    assert None in refusals and len(refusals) > 10
