"""Gul Bara's and Jacquet's match rules (docs/variants.md §6.1, §7.1): the climbing doubles from
each player's own fourth turn, stopping at the first double not played in full; the opening of
both (one die each, the higher rolls both dice); the turn count through the snapshot, the log
and the text record."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import Dice, MatchRules, MatchState
from games.engine.board import Board
from games.engine.errors import InvalidSnapshotError
from games.engine.events import Event, OpeningRoll, PlayMade, Roll, event_from_payload
from games.engine.match import NO_POSITION, fold
from games.engine.snapshots import snapshot, state_from_snapshot
from games.engine.text_record import export_text_record
from games.engine.variants import GUL_BARA, JACQUET, VARIANTS
from tests.engine.matches import at
from tests.engine.variant_boards import make

GUL_BARA_RULES = MatchRules.of("gul-bara")
JACQUET_RULES = MatchRules.of("jacquet")
NAMES = ("alice", "bob")


def round_trip(state: MatchState) -> MatchState:
    return state_from_snapshot(json.loads(json.dumps(snapshot(state))))


def gul_bara_at(board: Board, turns: tuple[int, int], dice: Dice) -> MatchState:
    """Alice (player 0) to play ``dice`` on ``board`` in her turn ``turns[0]``."""
    state = MatchState.new(5, GUL_BARA_RULES)
    return at(state, board=board, phase="moving", turn=0, dice=dice, turns_taken=turns)


def opening_turns(*plays: tuple[Dice, str]) -> MatchState:
    """Alice wins the opening roll; then the two take turns, alice first, with ``plays``."""
    state = fold(5, [OpeningRoll((5, 2))], GUL_BARA_RULES)
    for dice, notation in plays:
        player = state.turn
        assert player is not None and state.phase == "rolling"
        state = state.apply(Roll(player, dice)).apply(PlayMade(player, notation))
    return state


# --- The match and its opening ----------------------------------------------------------------


@pytest.mark.parametrize("rules", [GUL_BARA_RULES, JACQUET_RULES], ids=["gul-bara", "jacquet"])
def test_a_match_to_n_points_without_cube_opens_with_one_die_each_then_both_dice(rules):
    assert not rules.cube and not rules.crawford and rules.higher_die_rolls_again
    state = MatchState.new(5, rules)
    assert state.resignation_offers() == (1, 2) and state.pip_counts() == (360, 360)
    assert state.position == NO_POSITION and state.position_id(0) is None
    assert fold(5, [OpeningRoll((3, 3))], rules).phase == "opening"
    state = state.apply(OpeningRoll((2, 5)))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)
    assert state.legal_actions(1) == ("roll", "resign")
    state = state.apply(Roll(1, Dice(4, 3)))
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(4, 3))


def test_the_jacquet_courier_alone_leaves_the_talon_in_the_first_turn():
    state = fold(5, [OpeningRoll((6, 1)), Roll(0, Dice(6, 6))], JACQUET_RULES)
    # 24/18, and the courier cannot go on to 12, the opponent's talon: the rest is lost.
    assert state.legal_play_notations() == ("24/18",)
    state = state.apply(PlayMade(0, "24/18"))
    assert (state.phase, state.turn) == ("rolling", 1)


def test_every_jacquet_game_opens_with_the_opening_roll_again():
    board = make(JACQUET, {1: 1}, {12: 15})
    state = at(MatchState.new(3, JACQUET_RULES), board=board, phase="moving", turn=0)
    state = at(state, dice=Dice(2, 1))
    state = state.apply(PlayMade(0, "1/off"))
    assert state.score == (2, 0) and state.games[-1].result == "gammon"
    assert (state.phase, state.turn, state.board) == ("opening", None, Board.starting(JACQUET))


# --- Gul Bara's climbing doubles ---------------------------------------------------------------


def test_turns_are_counted_per_player_from_their_first_roll():
    state = fold(5, [OpeningRoll((5, 2))], GUL_BARA_RULES)
    assert state.turns_taken == (0, 0)
    state = state.apply(Roll(0, Dice(6, 5)))
    assert state.turns_taken == (1, 0)
    state = state.apply(PlayMade(0, "24/13")).apply(Roll(1, Dice(2, 1)))
    assert state.turns_taken == (1, 1)


def test_doubles_in_a_players_first_three_turns_do_not_climb():
    state = opening_turns(
        (Dice(6, 5), "24/13"),
        (Dice(6, 5), "24/13"),
        (Dice(2, 1), "24/21"),
        (Dice(2, 1), "24/21"),
    )
    state = state.apply(Roll(0, Dice(3, 3)))
    assert state.turns_taken == (3, 2)
    state = state.apply(PlayMade(0, "24/21(4)"))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)


def test_the_fourth_turn_is_each_players_own_not_the_games():
    # Bob's third turn is the game's sixth roll: his double does not climb yet.
    state = opening_turns(
        (Dice(6, 5), "24/13"),
        (Dice(6, 5), "24/13"),
        (Dice(2, 1), "24/21"),
        (Dice(2, 1), "24/21"),
        (Dice(4, 1), "24/19"),
    )
    state = state.apply(Roll(1, Dice(5, 5))).apply(PlayMade(1, "24/19(4)"))
    assert state.turns_taken == (3, 3)
    assert (state.phase, state.turn) == ("rolling", 0)
    # Alice's fourth turn climbs.
    state = state.apply(Roll(0, Dice(5, 5))).apply(PlayMade(0, "24/19(4)"))
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(6, 6))


def test_from_the_fourth_turn_a_double_climbs_to_6_6_then_the_turn_passes():
    state = gul_bara_at(Board.starting(GUL_BARA), (4, 3), Dice(3, 3))
    state = state.apply(PlayMade(0, "24/21(4)"))
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(4, 4))
    assert state.legal_actions(0) == ("move", "resign")
    state = state.apply(PlayMade(0, "24/20(4)"))
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(5, 5))
    state = state.apply(PlayMade(0, "24/19(4)"))
    assert (state.phase, state.turn, state.dice) == ("moving", 0, Dice(6, 6))
    state = state.apply(PlayMade(0, "24/18(3) 21/15"))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)
    assert state.turns_taken == (4, 3)


def test_a_climbing_double_not_played_in_full_ends_the_turn():
    # A 4 can move only the checker on 23, once: 24/20 and 19/15 are closed.
    board = make(GUL_BARA, {24: 14, 23: 1}, {20: 1, 15: 1, 12: 13})
    state = gul_bara_at(board, (5, 5), Dice(4, 4))
    assert state.legal_play_notations() == ("23/19",)
    state = state.apply(PlayMade(0, "23/19"))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)


def test_a_climbing_double_with_no_move_at_all_ends_the_turn_after_the_last_play():
    board = make(GUL_BARA, {24: 15}, {20: 1, 17: 1, 12: 13})
    state = gul_bara_at(board, (4, 4), Dice(3, 3)).apply(PlayMade(0, "24/21(4)"))
    # Every 4 would land on 20 or 17.
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)
    assert state.last_play is not None and str(state.last_play.play) == "24/21(4)"


def test_a_double_that_bears_off_the_last_checker_wins_without_climbing():
    board = make(GUL_BARA, {2: 1, 1: 1}, {12: 15})
    state = gul_bara_at(board, (9, 9), Dice(3, 3)).apply(PlayMade(0, "2/off 1/off"))
    assert state.score == (2, 0) and state.phase == "opening"
    assert state.turns_taken == (0, 0)


def test_the_turn_count_is_stored_and_a_count_where_doubles_do_not_climb_is_refused():
    state = gul_bara_at(Board.starting(GUL_BARA), (4, 3), Dice(3, 3))
    assert snapshot(state)["turns_taken"] == [4, 3]
    assert round_trip(state) == state
    assert "turns_taken" not in snapshot(MatchState.new(5, GUL_BARA_RULES))
    fevga = {**snapshot(MatchState.new(5, MatchRules.of("fevga"))), "turns_taken": [1, 0]}
    with pytest.raises(InvalidSnapshotError, match="turns are counted only"):
        state_from_snapshot(fevga)


def test_the_text_record_says_the_climb():
    events = [
        OpeningRoll((5, 2)),
        Roll(0, Dice(6, 5)),
        PlayMade(0, "24/13"),
        Roll(1, Dice(6, 5)),
        PlayMade(1, "24/13"),
        Roll(0, Dice(2, 1)),
        PlayMade(0, "24/21"),
        Roll(1, Dice(2, 1)),
        PlayMade(1, "24/21"),
        Roll(0, Dice(4, 1)),
        PlayMade(0, "24/19"),
        Roll(1, Dice(4, 1)),
        PlayMade(1, "24/19"),
        Roll(0, Dice(5, 5)),
        PlayMade(0, "24/19(4)"),
    ]
    record = export_text_record(NAMES, 5, events, GUL_BARA_RULES)
    assert "alice       played 5-5: 24/19(4); climbs to 6-6" in record


def random_event(state: MatchState, rng: random.Random) -> Event:
    if state.phase == "opening":
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    player = state.player_to_act()
    assert player is not None
    if "move" in state.legal_actions(player):
        return PlayMade(player, rng.choice(state.variant_plays()).notation)
    return Roll(player, Dice(rng.randint(1, 6), rng.randint(1, 6)))


@pytest.mark.parametrize("rules", [GUL_BARA_RULES, JACQUET_RULES], ids=["gul-bara", "jacquet"])
def test_whole_matches_play_to_their_end_through_the_log_and_the_snapshots(rules):
    rng = random.Random(33)
    state = MatchState.new(3, rules)
    events: list[Event] = []
    climbed = 0
    while not state.is_finished():
        event = random_event(state, rng)
        event = event_from_payload(event.kind, json.loads(json.dumps(event.to_payload())))
        after = state.apply(event)
        climbed += isinstance(event, PlayMade) and after.turn == event.player
        assert round_trip(after) == after
        events.append(event)
        state = after
    assert fold(3, events, rules) == state
    assert state.winner is not None and max(state.score) >= 3
    assert (climbed > 0) == bool(rules.match_variant.games[0].doubles_climb_from_turn)


def test_only_gul_baras_doubles_climb():
    assert [v for v in VARIANTS.values() if v.doubles_climb_from_turn] == [GUL_BARA]
