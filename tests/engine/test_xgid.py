"""XGIDs (eXtreme Gammon): published vectors, round trips, bad input, and the conversions to
and from GNU Backgammon's IDs.

Each published vector names where it comes from; boards quoted in those sources were read point
by point into the ``Position.from_checkers`` calls below, and the pip counts they print are
checked too.
"""

from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from games.engine import EngineError, InvalidPositionError, InvalidXgidError, Position
from games.engine.gnubg import match_id, match_key_from_id
from games.engine.xgid import XgidState, gnubg_from_xgid, xgid, xgid_from_gnubg, xgid_from_text
from tests.engine.boards import positions

# --- XGID: published vectors -------------------------------------------------------------------


def test_starting_xgid_from_an_xg_export():
    # eXtreme Gammon text export quoted in a public TypeScript test (parseAnalysis): the opening
    # board, X on roll before rolling, money play with Jacoby and beavers ("3"), cube action.
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"
    state = xgid_from_text(text)
    assert state == XgidState(position=Position.starting(), crawford_jacoby=3)
    assert xgid(state) == text


def test_starting_xgid_for_a_five_point_match():
    # The same board in a 5-point match, as written by the XG convention above.
    state = XgidState(position=Position.starting(), match_length=5)
    assert xgid(state) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"


def test_xgid_from_an_xg_export_with_the_opponent_owning_the_cube():
    # xgparser (Kevin Unger), xgtext_test.go, "test data from actual XG text export": X to play
    # 21, score X 3 O 6 in a 7-point match, cube 2 owned by O, pip count X 111 O 52.
    text = "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10"
    board = Position.from_checkers(
        {1: 2, 3: 3, 4: 2, 5: 2, 6: 2, 14: 1, 18: 1, 19: 2},
        {1: 4, 2: 2, 3: 2, 4: 2, 5: 3, 15: 1},
    )
    state = xgid_from_text(text)
    assert state == XgidState(
        position=board,
        cube_value=2,
        cube_owner=-1,
        turn=1,
        dice=(2, 1),
        score_x=3,
        score_o=6,
        match_length=7,
    )
    assert board.pip_count() == (111, 52)
    assert xgid(state) == text


def test_xgid_bars_from_an_xg_export():
    # XG export quoted in the same TypeScript test: one checker of each side on the bar
    # (X's on the right of the bar column, O's on the left), pip count 168 each.
    text = "XGID=aa----E-C---eE---c-e----AA:0:0:1:52:0:0:3:0:10"
    board = Position.from_checkers(
        {25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {25: 1, 24: 1, 13: 5, 8: 3, 6: 5}
    )
    state = xgid_from_text(text)
    assert state.position == board
    assert board.pip_count() == (168, 168)
    assert state.dice == (5, 2)
    assert xgid(state) == text


@pytest.mark.parametrize(
    ("text", "pips"),
    [
        # XG export in xg2anki's test of its input dialog: money, X owns a 2-cube, beavers only.
        ("XGID=--BBBBB-AB----a--cbdbBb-a-:1:1:1:65:0:0:2:0:10", (108, 90)),
        # xgparser xgtext_test.go: cube action, X 0 O 5 in a 9-point match.
        ("XGID=---BBaB-BbA-bC-b--BdAca---:0:0:1:00:0:5:0:9:10", (147, 137)),
        # xgparser xgtext_test.go: X to play 42 in a 13-point match.
        ("XGID=---CBbB-B---bC-b-bcbbC----:0:0:1:42:0:0:0:13:10", (147, 145)),
    ],
)
def test_xg_exports_read_to_the_pip_counts_xg_prints(text, pips):
    state = xgid_from_text(text)
    assert state.position.pip_count() == pips
    assert xgid(state) == text


def test_xgid_prefix_is_optional_and_whitespace_ignored():
    bare = "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10"
    assert xgid_from_text(f"  {bare}\n") == xgid_from_text(f"XGID={bare}")


def test_position_on_roll_flips_the_board_when_o_is_on_roll():
    board = Position.from_checkers({6: 2}, {1: 1})
    assert XgidState(position=board, turn=1).position_on_roll() == board
    assert XgidState(position=board, turn=-1).position_on_roll() == board.flipped()


def test_xg_double_beaver_and_raccoon_are_read_and_written():
    for letter, beavers in (("D", 0), ("B", 1), ("R", 2)):
        text = f"XGID=-b----E-C---eE---c-e----B-:1:0:1:{letter}:0:0:3:0:10"
        state = xgid_from_text(text)
        assert (state.doubled, state.beavers, state.dice) == (True, beavers, None)
        assert xgid(state) == text


# --- XGID: round trips -------------------------------------------------------------------------


@st.composite
def xgid_states(draw):
    length = draw(st.sampled_from([0, 1, 5, 11]))
    doubled = draw(st.booleans())
    rolled = not doubled and draw(st.booleans())
    return XgidState(
        position=draw(positions()),
        cube_value=2 ** draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([-1, 0, 1])),
        turn=draw(st.sampled_from([-1, 1])),
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else None,
        doubled=doubled,
        beavers=draw(st.integers(0, 2)) if doubled else 0,
        score_x=draw(st.integers(0, length or 50)),
        score_o=draw(st.integers(0, length or 50)),
        crawford_jacoby=draw(st.integers(0, 1 if length else 3)),
        match_length=length,
        max_cube=draw(st.integers(0, 15)),
    )


@given(xgid_states())
def test_xgid_round_trips(state):
    text = xgid(state)
    assert xgid_from_text(text) == state
    assert xgid(xgid_from_text(text)) == text


# --- XGID: bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5", "has 9 colon-separated fields"),
        ("XGID=-b----E-C---eE---c-e----:0:0:1:00:0:0:0:5:10", "in 24 characters, not 26"),
        ("XGID=-b----E-C---eE---c-e--x-B-:0:0:1:00:0:0:0:5:10", "'x' on the board"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:5:10", "O's bar holds only O's"),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:00:0:0:0:5:10", "X's bar holds only X's"),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:5:10", "at most 15 checkers"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:5:10", "has dice '70'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:05:0:0:0:5:10", "has dice '05'"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:x:00:0:0:0:5:10", "'x' for the turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:5:10", "the turn is 1 (X) or -1 (O)"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:5:10", "1 (X), -1 (O) or 0"),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:5:10", "2**16"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:0:0:5:10", "0 to 5 in this match"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:5:10", "0 to 1 in a match"),
    ],
)
def test_bad_xgids_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidXgidError, match="not an XGID") as caught:
        xgid_from_text(text)
    assert message in str(caught.value)


# --- Between gnubg and XG ----------------------------------------------------------------------


def test_gnubg_ids_to_xgid_as_backgammoncalculator_converts_them():
    # The R package backgammoncalculator's README: gnuid_to_xgid("4HPwATDgc/ABMA",
    # "8IhuACAACAAE") gives this XGID (player 1 on roll with 53, score 2-1 to player 0,
    # Crawford game of a 3-point match), and xgid_to_gnubg of it gives "8IluACAACAAE":
    # the same key with the game in play, as gnubg's own XGID import sets it.
    expected = "XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10"
    assert xgid_from_gnubg("4HPwATDgc/ABMA", "8IhuACAACAAE") == expected
    assert gnubg_from_xgid(expected) == ("4HPwATDgc/ABMA", "8IluACAACAAE")


def test_gnubg_ids_and_xgid_agree_when_player_0_is_on_roll():
    # gnubg's Position ID is from the side of the player on roll; X is gnubg's player 1, so with
    # player 0 (O) on roll the XGID's board is the gnubg board flipped.
    on_roll = Position.from_checkers({1: 4, 3: 3, 4: 1}, {2: 1})
    o_on_roll = replace(
        match_key_from_id("USGgACAAIAAE"), player_on_roll=0, turn=0, resigned=0, dice=(4, 1)
    )
    text = xgid_from_gnubg(on_roll.position_id(), match_id(o_on_roll))
    state = xgid_from_text(text)
    assert state.turn == -1
    assert state.position == on_roll.flipped()
    assert state.position_on_roll() == on_roll
    assert (state.cube_owner, state.score_x, state.score_o) == (1, 4, 2)
    assert gnubg_from_xgid(text) == (on_roll.position_id(), match_id(o_on_roll))


def test_a_double_crosses_between_gnubg_and_xg():
    # gnubg's XGID import: with "D" the turn field names the doubler, who keeps the dice
    # ownership, and the other player must answer.
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:0:5:10"
    position_text, match_text = gnubg_from_xgid(text)
    key = match_key_from_id(match_text)
    assert (key.player_on_roll, key.turn, key.doubled, key.dice) == (0, 1, True, (0, 0))
    assert xgid_from_gnubg(position_text, match_text) == text


def test_beavers_cannot_cross_to_gnubg():
    with pytest.raises(InvalidXgidError, match="cannot record the beaver"):
        gnubg_from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:3:0:10")


@given(xgid_states())
def test_xgid_survives_gnubg_and_back_when_gnubg_can_say_it(state):
    # gnubg IDs record no beavers and no cube limit; xgid_from_gnubg writes XG's usual 10.
    assume(not state.beavers and (state.match_length or state.crawford_jacoby < 2))
    text = xgid_from_gnubg(*gnubg_from_xgid(xgid(state)))
    assert xgid_from_text(text) == replace(state, max_cube=10)


def test_a_bad_xgid_is_its_own_error_not_a_bad_position():
    # 16 checkers on X's 24 point: the board is impossible, and the XGID is what is wrong.
    with pytest.raises(InvalidXgidError, match="at most 15 checkers") as caught:
        xgid_from_text("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:5:10")
    assert isinstance(caught.value, EngineError) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, InvalidPositionError)
