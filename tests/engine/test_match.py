"""The rules of a match: hand-built event sequences named after each rule, and random matches."""

import copy
import dataclasses
import json
import random

import pytest

from games.engine import Dice, EngineError, IllegalPlayError, InvalidDiceError, Play, Position
from games.engine.errors import IllegalActionError
from games.engine.events import (
    EVENT_TYPES,
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Double,
    Drop,
    Event,
    MatchAborted,
    MatchAwarded,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimedOut,
    event_from_payload,
)
from games.engine.match import GameRecord, LastPlay, MatchState, fold
from games.engine.play import format_play


def match(length: int, *events: Event) -> MatchState:
    return fold(length, events)


def player_1_on_roll(length: int = 5, *events: Event) -> MatchState:
    """Player 0 opened with 3-1 (8/5 6/5); player 1 is on roll."""
    return match(length, OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5"), *events)


def at(state: MatchState, **changes: object) -> MatchState:
    return dataclasses.replace(state, **changes)  # type: ignore[arg-type]


def closed_out() -> Position:
    """Player 0 on the bar against a closed board; player 1 could move."""
    return Position.from_checkers({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})


def last_checker(theirs: dict[int, int]) -> Position:
    """Player 0 bears off their last checker with any roll; ``theirs`` is player 1's board."""
    return Position.from_checkers({1: 1}, theirs)


# --- The opening roll ----------------------------------------------------------------------


def test_opening_roll_tie_is_rolled_again():
    state = match(5, OpeningRoll((4, 4)))
    assert state == MatchState.new(5)
    assert state.phase == "opening" and state.turn is None and state.dice is None
    state = state.apply(OpeningRoll((2, 5)))
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(5, 2))


def test_higher_opening_die_moves_first_with_both_numbers():
    state = match(5, OpeningRoll((6, 1)))
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(6, 1))
    assert state.player_to_act() == 0
    assert state.legal_actions(0) == ("move", "resign")
    assert state.legal_actions(1) == ()
    assert "13/7 8/7" in {format_play(play) for play in state.legal_plays()}
    with pytest.raises(IllegalActionError, match="You cannot roll now: you are to play your 6-1"):
        state.apply(Roll(0, Dice(3, 3)))
    state = state.apply(PlayMade(0, "13/7 8/7"))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)
    assert state.last_play == LastPlay(0, Dice(6, 1), state.last_play.play)
    assert format_play(state.last_play.play) == "13/7 8/7"


def test_player_1_opening_sees_the_board_from_their_side():
    state = match(5, OpeningRoll((1, 3)), PlayMade(1, "8/5 6/5"))
    assert state.position_for(1).checkers(5) == 2
    assert state.position.opponent_checkers(5) == 2
    assert state.pip_counts() == (167, 163)


def test_opening_roll_only_before_a_game_starts():
    state = match(5, OpeningRoll((6, 1)))
    with pytest.raises(IllegalActionError, match="no opening roll now: game 1 is under way"):
        state.apply(OpeningRoll((5, 2)))


# --- Rolls and plays ---------------------------------------------------------------------


def test_roll_with_no_legal_play_passes_the_turn():
    state = at(MatchState.new(5), phase="rolling", turn=0, position=closed_out())
    after = state.apply(Roll(0, Dice(6, 5)))
    assert (after.phase, after.turn, after.dice) == ("rolling", 1, None)
    assert after.last_play == LastPlay(0, Dice(6, 5), Play())
    assert after.position == state.position


def test_roll_with_no_legal_play_passes_the_turn_for_player_1_too():
    state = at(MatchState.new(5), phase="rolling", turn=1, position=closed_out().flipped())
    after = state.apply(Roll(1, Dice(2, 2)))
    assert (after.phase, after.turn, after.last_play) == (
        "rolling",
        0,
        LastPlay(1, Dice(2, 2), Play()),
    )


def test_roll_with_a_legal_play_waits_for_the_play():
    state = player_1_on_roll().apply(Roll(1, Dice(4, 2)))
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(4, 2))
    assert len(state.legal_plays()) > 1


def test_illegal_play_is_refused_with_the_legal_choices():
    state = match(5, OpeningRoll((6, 5)))
    with pytest.raises(
        IllegalPlayError, match="24/20 is not a legal play of 6-5.*Legal plays: .*24/18 13/8"
    ):
        state.apply(PlayMade(0, "24/20"))
    with pytest.raises(IllegalPlayError, match="can be played"):
        state.apply(PlayMade(0, ""))


def test_a_play_ending_in_the_same_position_is_the_same_play():
    state = match(5, OpeningRoll((6, 5)))
    written = [state.apply(PlayMade(0, text)) for text in ("24/13", "24/18/13", "24/19, 19/13")]
    assert written[0] == written[1] == written[2]
    assert format_play(written[0].last_play.play) == "24/13"
    assert written[0].last_play.play in state.legal_plays()


# --- The cube ----------------------------------------------------------------------------


def test_double_only_before_rolling():
    state = player_1_on_roll()
    assert state.can_double(1)
    assert state.legal_actions(1) == ("roll", "double", "resign")
    rolled = state.apply(Roll(1, Dice(4, 2)))
    assert not rolled.can_double(1)
    with pytest.raises(IllegalActionError, match="you have rolled 4-2; a double comes first"):
        rolled.apply(Double(1))
    doubled = state.apply(Double(1))
    assert (doubled.phase, doubled.turn, doubled.player_to_act()) == ("doubled", 1, 0)
    assert doubled.legal_actions(0) == ("take", "drop")
    assert doubled.legal_actions(1) == ()


def test_only_the_cube_owner_or_either_player_while_centred_may_double():
    state = player_1_on_roll()
    assert state.cube_owner is None
    assert state.can_double(1) and not state.can_double(0)  # centred, but 0 is not on roll
    state = state.apply(Double(1)).apply(Take(0))
    assert (state.cube_value, state.cube_owner, state.turn) == (2, 0, 1)
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="your opponent owns the cube"):
        state.apply(Double(1))
    state = state.apply(Roll(1, Dice(4, 2))).apply(PlayMade(1, "8/4 6/4"))
    assert state.turn == 0 and state.can_double(0)
    state = state.apply(Double(0)).apply(Take(1))
    assert (state.cube_value, state.cube_owner) == (4, 1)


def test_take_doubles_the_cube_and_passes_it_to_the_taker():
    state = player_1_on_roll().apply(Double(1)).apply(Take(0))
    assert (state.cube_value, state.cube_owner) == (2, 0)
    assert (state.phase, state.turn, state.player_to_act()) == ("rolling", 1, 1)
    assert state.legal_actions(1) == ("roll", "resign")


def test_drop_loses_the_current_cube_value():
    state = player_1_on_roll(7, Double(1), Take(0), Roll(1, Dice(4, 2)), PlayMade(1, "8/4 6/4"))
    state = state.apply(Double(0)).apply(Drop(1))
    assert state.score == (2, 0)
    assert state.games == (GameRecord(1, 0, 2, "drop", False),)
    assert state.game_number == 2
    assert (state.phase, state.turn, state.dice) == ("opening", None, None)
    assert (state.cube_value, state.cube_owner) == (1, None)
    assert state.position == Position.starting()
    assert state.last_play is None


def test_dead_cube_cannot_be_doubled():
    state = at(player_1_on_roll(5), score=(0, 3), cube_value=2, cube_owner=1)
    assert state.points_needed(1) == 2
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="you need 2 points .* the cube is dead"):
        state.apply(Double(1))
    assert at(state, cube_value=1, cube_owner=None).can_double(1)


# --- Resignations ------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "scored"), [(1, 2), (2, 4), (3, 6)])
def test_accepted_resignation_scores_its_points_times_the_cube(points, scored):
    state = player_1_on_roll(7, Double(1), Take(0)).apply(Resign(1, points))
    assert (state.phase, state.resignation, state.player_to_act()) == ("resigned", points, 0)
    assert state.legal_actions(0) == ("accept_resign", "reject_resign")
    assert state.legal_actions(1) == ()
    state = state.apply(AcceptResignation(0))
    assert state.score == (scored, 0)
    assert state.games == (GameRecord(1, 0, scored, "resign", False),)
    assert state.phase == "opening" and state.game_number == 2


def test_rejected_resignation_resumes_with_the_same_dice():
    moving = player_1_on_roll().apply(Roll(1, Dice(4, 2)))
    offered = moving.apply(Resign(1, 2))
    assert offered.dice == Dice(4, 2) and offered.phase_before_resignation == "moving"
    assert offered.legal_plays() == ()
    assert offered.apply(RejectResignation(0)) == moving
    rolling = player_1_on_roll()
    assert rolling.apply(Resign(1, 1)).apply(RejectResignation(0)) == rolling


def test_resignation_of_four_points_is_refused():
    for points in (4, 0, -1, True):
        with pytest.raises(IllegalActionError, match="1 .*, 2 .* or 3"):
            player_1_on_roll().apply(Resign(1, points))
        with pytest.raises(IllegalActionError, match="'points'|1 .*, 2 .* or 3"):
            event_from_payload("resign", {"player": 1, "points": points})


def test_resign_only_on_your_own_turn():
    state = player_1_on_roll()
    with pytest.raises(IllegalActionError, match="cannot resign now: it is your opponent's turn"):
        state.apply(Resign(0, 1))
    with pytest.raises(IllegalActionError, match="cannot resign now: you have been doubled"):
        state.apply(Double(1)).apply(Resign(0, 1))


# --- Game results ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "result", "scored"),
    [
        ({12: 14}, "single", 2),
        ({12: 15}, "gammon", 4),
        ({12: 14, 20: 1}, "backgammon", 6),
        ({12: 14, 25: 1}, "backgammon", 6),
    ],
)
def test_gammon_and_backgammon_are_counted_with_the_cube(theirs, result, scored):
    board = last_checker(theirs)
    for winner in (0, 1):
        state = at(
            MatchState.new(9),
            phase="moving",
            turn=winner,
            dice=Dice(2, 1),
            cube_value=2,
            cube_owner=1 - winner,
            position=board if winner == 0 else board.flipped(),
        )
        state = state.apply(PlayMade(winner, "1/off"))
        assert state.games == (GameRecord(1, winner, scored, result, False),)
        assert state.score[winner] == scored and state.score[1 - winner] == 0
        assert state.phase == "opening" and state.cube_value == 1


# --- Crawford ----------------------------------------------------------------------------


def test_crawford_game_has_no_doubling():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))
    assert state.score == (2, 0) and state.crawford and not state.crawford_played
    state = state.apply(OpeningRoll((5, 6))).apply(PlayMade(1, "24/13"))
    assert state.turn == 0 and not state.can_double(0)
    assert state.legal_actions(0) == ("roll", "resign")
    with pytest.raises(IllegalActionError, match="You cannot double in the Crawford game"):
        state.apply(Double(0))
    state = state.apply(Roll(0, Dice(2, 1))).apply(PlayMade(0, "13/11 6/5"))
    assert not state.can_double(1)
    with pytest.raises(IllegalActionError, match="Crawford"):
        state.apply(Double(1))


def test_crawford_game_happens_once_and_post_crawford_allows_doubling():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))  # 2-0: game 2 is Crawford
    state = state.apply(OpeningRoll((5, 6))).apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.score == (3, 0)
    assert state.phase == "finished"  # the leader won the Crawford game
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (2, 1) and state.games[-1].crawford
    assert not state.crawford and state.crawford_played and state.is_post_crawford()
    state = state.apply(OpeningRoll((6, 5))).apply(PlayMade(0, "24/13"))
    assert state.can_double(1)  # the trailer doubles post-Crawford
    state = state.apply(Double(1)).apply(Take(0)).apply(Roll(1, Dice(2, 1)))
    state = state.apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.phase == "finished" and state.winner == 0 and state.score == (4, 1)
    assert [game.crawford for game in state.games] == [False, True, False]


def test_crawford_is_not_repeated_when_the_trailer_reaches_match_point_minus_one():
    state = player_1_on_roll(3, Resign(1, 2), AcceptResignation(0))  # Crawford game next
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (2, 2) and not state.crawford and state.is_post_crawford()


def test_crawford_follows_the_first_game_that_brings_a_player_within_one_point():
    state = player_1_on_roll(5, Resign(1, 1), AcceptResignation(0))
    assert state.score == (1, 0) and not state.crawford
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 3)).apply(AcceptResignation(1))
    assert state.score == (1, 3) and not state.crawford
    state = state.apply(OpeningRoll((6, 5))).apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (1, 4) and state.crawford


def test_two_point_match_crawford_game_comes_after_the_first_point():
    state = player_1_on_roll(2, Resign(1, 1), AcceptResignation(0))
    assert state.crawford


def test_one_point_match_has_no_crawford_game():
    state = player_1_on_roll(1)
    assert not state.crawford and state.can_double(1) is False  # the cube is dead at 1-away
    state = state.apply(Roll(1, Dice(6, 6))).apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.phase == "finished" and state.winner == 0
    assert state.games == (GameRecord(1, 0, 1, "resign", False),)


# --- The end of the match ----------------------------------------------------------------


def test_match_ends_at_n_points_and_nothing_is_allowed_after():
    state = player_1_on_roll(3, Double(1), Take(0), Resign(1, 2), AcceptResignation(0))
    assert state.score == (4, 0)  # the score keeps every point won
    assert (state.phase, state.winner, state.is_finished()) == ("finished", 0, True)
    assert state.player_to_act() is None and state.turn is None
    assert state.legal_actions(0) == () == state.legal_actions(1)
    assert not state.can_double(0) and not state.can_double(1)
    for event in (
        OpeningRoll((6, 5)),
        Roll(0, Dice(6, 5)),
        Roll(1, Dice(6, 5)),
        Double(0),
        Take(1),
        Drop(1),
        Resign(1, 1),
        AcceptResignation(0),
        RejectResignation(0),
        PlayMade(0, "24/13"),
        MatchAwarded(1, "moderator"),
        TimedOut(0),
        MatchAborted("moderator"),
    ):
        with pytest.raises(IllegalActionError, match="the match is over"):
            state.apply(event)


def test_award_ends_the_match_at_once_with_the_score_untouched():
    state = player_1_on_roll(5).apply(Roll(1, Dice(4, 2))).apply(MatchAwarded(1, "time ran out"))
    assert (state.phase, state.winner, state.score, state.aborted) == ("finished", 1, (0, 0), False)
    assert state.end_reason == "time ran out"
    assert match(5, MatchAwarded(0, "no show")).winner == 0  # even before the opening roll


def test_running_out_of_time_loses_the_match_whoever_is_on_roll():
    state = player_1_on_roll(5).apply(Roll(1, Dice(4, 2))).apply(TimedOut(1))
    assert (state.phase, state.winner, state.score, state.end_reason) == (
        "finished",
        0,
        (0, 0),
        "timeout",
    )
    assert player_1_on_roll(5, Double(1), TimedOut(0)).winner == 1  # the doubled player


def test_abort_ends_the_match_with_no_winner():
    state = player_1_on_roll(5, Double(1), MatchAborted("server fault"))
    assert (state.phase, state.winner, state.aborted) == ("finished", None, True)
    assert state.end_reason == "server fault"


def test_match_length_is_1_to_64_points():
    assert MatchState.new(64).match_length == 64
    for length in (0, 65, -3, True, 5.0, "5"):
        with pytest.raises(IllegalActionError, match="1 to 64 points"):
            MatchState.new(length)  # type: ignore[arg-type]


# --- Refusals ----------------------------------------------------------------------------


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
    state = match(5, *events)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(event)


def test_apply_never_changes_the_old_state():
    state = player_1_on_roll(5, Roll(1, Dice(4, 2)))
    kept = copy.deepcopy(state)
    after = state.apply(PlayMade(1, "8/4 6/4"))
    assert after != state and state == kept
    for event in (Roll(1, Dice(1, 1)), PlayMade(1, "24/1"), Double(0), Take(0)):
        with pytest.raises(EngineError):
            state.apply(event)
        assert state == kept
    finished = state.apply(MatchAwarded(0, "test"))
    assert state == kept and finished.phase == "finished"


# --- Payloads ----------------------------------------------------------------------------


ALL_EVENTS: list[Event] = [
    OpeningRoll((3, 1)),
    Roll(1, Dice(6, 6)),
    PlayMade(0, "bar/22* 13/8"),
    Double(1),
    Take(0),
    Drop(0),
    Resign(1, 3),
    AcceptResignation(0),
    RejectResignation(1),
    MatchAwarded(1, "no show"),
    TimedOut(0),
    MatchAborted("moderator"),
    Abort(1),
    OfferEnd(0),
    AcceptEnd(1),
    DeclineEnd(1),
]


def test_every_event_kind_is_covered():
    assert {event.kind for event in ALL_EVENTS} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", ALL_EVENTS, ids=lambda event: event.kind)
def test_events_round_trip_through_json_payloads(event):
    payload = json.loads(json.dumps(event.to_payload()))
    assert event_from_payload(event.kind, payload) == event


def test_payload_fields_are_json_ready():
    assert Roll(0, Dice(6, 5)).to_payload() == {"player": 0, "dice": [6, 5]}
    assert OpeningRoll((2, 4)).to_payload() == {"dice": [2, 4]}
    assert PlayMade(1, "24/18 13/8").to_payload() == {"player": 1, "play": "24/18 13/8"}
    assert Resign(0, 2).to_payload() == {"player": 0, "points": 2}


@pytest.mark.parametrize(
    ("kind", "payload", "message"),
    [
        ("castle", {}, "there is no event 'castle'"),
        ("roll", {"dice": [6, 5]}, "the roll event needs a 'player' field"),
        ("roll", {"player": 2, "dice": [6, 5]}, "'player' is player 0 or 1, not 2"),
        ("roll", {"player": True, "dice": [6, 5]}, "not True"),
        ("roll", {"player": "0", "dice": [6, 5]}, "not '0'"),
        ("roll", {"player": 0, "dice": [6]}, "'dice' is a list of two dice"),
        ("roll", {"player": 0, "dice": "65"}, "'dice' is a list of two dice"),
        ("opening_roll", {"dice": [6, 7]}, "a die shows 1 to 6, not 7"),
        ("move", {"player": 0}, "needs a 'play' field"),
        ("move", {"player": 0, "play": ["24/18"]}, "'play' is text"),
        ("resign", {"player": 0, "points": "2"}, "'points' is a whole number"),
        ("double", {"player": 0, "cube": 2}, "the double event has no field 'cube'"),
        ("match_awarded", {"winner": None, "reason": "x"}, "'winner' is player 0 or 1"),
        ("match_aborted", {"reason": 3}, "'reason' is text"),
        ("take", ["player", 0], "payload is a mapping"),
    ],
)
def test_bad_payloads_are_refused_with_a_clear_message(kind, payload, message):
    with pytest.raises(EngineError, match=message):
        event_from_payload(kind, payload)


def test_events_check_their_own_fields():
    with pytest.raises(IllegalActionError, match="player 0 or player 1"):
        Double(2)
    with pytest.raises(InvalidDiceError):
        OpeningRoll((0, 3))
    with pytest.raises(IllegalActionError, match="in notation"):
        PlayMade(0, None)  # type: ignore[arg-type]


# --- Random matches ----------------------------------------------------------------------


def random_event(state: MatchState, rng: random.Random) -> Event:
    """A random legal event, with doubles, takes, drops and resignations thrown in."""
    if state.phase == "opening":
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    player = state.player_to_act()
    assert player is not None
    actions = state.legal_actions(player)
    if "resign" in actions and rng.random() < 0.006:
        return Resign(player, rng.randint(1, 3))
    if "move" in actions:
        return PlayMade(player, format_play(rng.choice(state.legal_plays())))
    if "double" in actions and rng.random() < 0.1:
        return Double(player)
    if "roll" in actions:
        return Roll(player, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    if "take" in actions:
        return Take(player) if rng.random() < 0.7 else Drop(player)
    assert actions == ("accept_resign", "reject_resign")
    return AcceptResignation(player) if rng.random() < 0.6 else RejectResignation(player)


def check_invariants(before: MatchState, event: Event, state: MatchState) -> None:
    n = state.match_length
    points = range(1, 26)
    on_board = (
        sum(state.position.checkers(point) for point in points),
        sum(state.position.opponent_checkers(point) for point in points),
    )
    off = state.position.borne_off()
    assert on_board[0] + off[0] == 15 and on_board[1] + off[1] == 15
    assert state.score[0] >= before.score[0] and state.score[1] >= before.score[1]
    assert list(state.score) == [
        sum(g.points for g in state.games if g.winner == p) for p in (0, 1)
    ]
    assert sum(game.crawford for game in state.games) <= 1
    assert state.crawford + sum(game.crawford for game in state.games) <= 1 or state.is_finished()
    assert state.cube_value in (1, 2, 4, 8, 16, 32, 64)
    assert (state.cube_owner is None) == (state.cube_value == 1)
    finished_by_score = max(state.score) >= n
    assert state.is_finished() == finished_by_score
    if state.is_finished():
        assert state.winner == state.score.index(max(state.score)) and min(state.score) < n
        assert state.game_number == len(state.games)
        assert state.legal_actions(0) == () == state.legal_actions(1)
        return
    assert state.game_number == len(state.games) + 1
    actor = state.player_to_act()
    if state.phase == "opening":
        assert actor is None and state.position == Position.starting()
        assert state.cube_value == 1
    else:
        assert actor is not None and state.legal_actions(actor)
        assert state.legal_actions(1 - actor) == ()
    if state.crawford:
        assert not state.can_double(0) and not state.can_double(1)
    if isinstance(event, PlayMade) and state.game_number == before.game_number:
        moved = event.player
        pips_before, pips_after = before.pip_counts(), state.pip_counts()
        assert before.dice is not None
        assert 0 < pips_before[moved] - pips_after[moved] <= sum(before.dice.moves())
        assert pips_after[1 - moved] >= pips_before[1 - moved]


def crawford_games_expected(records: tuple[GameRecord, ...], n: int) -> list[bool]:
    """Which games should have been Crawford games, recomputed from the results alone."""
    expected_flags: list[bool] = []
    score, played, next_is = [0, 0], False, False
    for record in records:
        expected_flags.append(next_is)
        played = played or next_is
        score[record.winner] += record.points
        next_is = not played and n > 1 and score[record.winner] == n - 1
    return expected_flags


@pytest.mark.slow
def test_random_matches_keep_the_invariants():
    games: list[GameRecord] = []
    seed = 0
    while len(games) < 200:
        rng = random.Random(seed)
        n = rng.choice((1, 2, 3, 5, 7, 9, 11))
        state, events = MatchState.new(n), []
        while not state.is_finished():
            event = random_event(state, rng)
            after = state.apply(event)
            check_invariants(state, event, after)
            if state.phase not in ("opening", "rolling"):
                with pytest.raises(IllegalActionError):  # the other player can do nothing now
                    state.apply(Roll(1 - state.player_to_act(), Dice(1, 2)))
            state = after
            events.append(event)
        games.extend(state.games)
        assert [g.crawford for g in state.games] == crawford_games_expected(state.games, n)
        logged = [(e.kind, json.loads(json.dumps(e.to_payload()))) for e in events]
        assert fold(n, [event_from_payload(kind, payload) for kind, payload in logged]) == state
        seed += 1
    assert {game.result for game in games} == {"single", "gammon", "backgammon", "drop", "resign"}
    assert any(game.crawford for game in games)
