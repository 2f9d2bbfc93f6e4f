"""The flow of a match: the opening roll, rolls and plays, the end of the match, and random
matches that keep the invariants.

The cube is tested in test_cube.py, resignations and scoring in test_game_results.py, refusals
in test_refusals.py, and the events themselves in test_events.py.
"""

import copy
import json
import random

import pytest

from games.engine import Dice, EngineError, IllegalPlayError, Play, Position
from games.engine.errors import IllegalActionError
from games.engine.events import (
    AcceptResignation,
    Double,
    Drop,
    Event,
    MatchAborted,
    MatchAwarded,
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
from tests.engine.matches import at, match, player_1_on_roll


def closed_out() -> Position:
    """Player 0 on the bar against a closed board; player 1 could move."""
    return Position.from_checkers({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})


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
