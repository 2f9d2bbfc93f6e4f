"""A match state written as GNU Backgammon's IDs and as an XGID."""

import dataclasses

from games.engine import MatchState, OpeningRoll, Position
from games.engine.gnubg import match_key_from_id
from games.engine.match_ids import gnubg_ids, xgid_of
from games.engine.xgid import xgid_from_text


def test_the_ids_of_a_new_match():
    position_id, match_id = gnubg_ids(MatchState.new(5))
    assert position_id == "4HPwATDgc/ABMA"
    key = match_key_from_id(match_id)
    assert (key.match_length, key.score, key.cube_value, key.cube_owner) == (5, (0, 0), 1, None)


def test_the_ids_follow_the_player_on_roll_and_the_dice():
    state = MatchState.new(7).apply(OpeningRoll((2, 6)))
    position_id, match_id = gnubg_ids(state)
    key = match_key_from_id(match_id)
    assert key.player_on_roll == 1 and key.turn == 1 and key.dice == (6, 2)
    assert Position.from_position_id(position_id) == state.position_for(1)
    xg = xgid_from_text(xgid_of(state))
    assert xg.turn == -1 and xg.dice == (6, 2) and xg.match_length == 7


def test_a_gammon_past_the_match_length_is_written_at_the_match_length():
    won = dataclasses.replace(MatchState.new(1), score=(3, 0), phase="finished", winner=0)
    assert match_key_from_id(gnubg_ids(won)[1]).score == (1, 0)
    xg = xgid_from_text(xgid_of(won))
    assert (xg.score_x, xg.score_o) == (1, 0)
