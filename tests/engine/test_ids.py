"""GNU Backgammon Position and Match IDs and XGIDs: published vectors, round trips, bad input.

Each published vector names where it comes from. Diagrams quoted in those sources were read
point by point into the ``Position.from_checkers`` calls below; the pip counts the sources print
are checked too, as a second reading of the same diagram.
"""

import base64
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from games.engine import InvalidPositionError, Position
from games.engine.ids import (
    DROPPED,
    NO_GAME,
    PLAYING,
    MatchKey,
    XgidState,
    gnubg_from_xgid,
    match_id,
    match_key_from_id,
    position_from_id,
    position_id,
    xgid,
    xgid_from_gnubg,
    xgid_from_text,
)


def gnubg_id(bits: str, characters: int) -> str:
    """Pack a bit string, first bit least significant, the way the gnubg manual describes."""
    size = characters * 6 // 8
    value = int(bits[::-1] or "0", 2)
    return base64.b64encode(value.to_bytes(size, "little")).decode()[:characters]


# --- Position ID: published vectors ------------------------------------------------------------


def test_starting_position_id_is_the_manuals():
    # gnubg manual, "A technical description of the Position ID".
    assert position_id(Position.starting()) == "4HPwATDgc/ABMA"
    assert position_from_id("4HPwATDgc/ABMA") == Position.starting()


def test_manuals_bit_string_for_the_start_packs_to_the_starting_id():
    # gnubg manual: the key of the starting position, bit by bit.
    bits = "00000111110011100000111110000000000011000000011111001110000011111000000000001100"
    assert gnubg_id(bits, 14) == "4HPwATDgc/ABMA"


def test_position_id_from_games_backgammon_diagram():
    # CPAN Games::Backgammon 0.03 (Janek Schleicher), POD of set_position: a gnubg board with
    # "Position ID: sOfgEwDg8+AIBg", X (black) at roll, pip counts O 138, X 159.
    position = Position.from_checkers(
        {6: 5, 8: 4, 13: 3, 16: 1, 21: 2}, {5: 2, 6: 4, 8: 3, 13: 5, 15: 1}
    )
    assert position.pip_count() == (159, 138)
    assert position_id(position) == "sOfgEwDg8+AIBg"
    assert position_from_id("sOfgEwDg8+AIBg") == position


def test_position_id_from_gnubg_board_with_the_opponent_almost_off():
    # gnubg "show board" output quoted in a public Kotlin test (FixResignationTests):
    # "Position ID: AgAAPBcAAAAAAA", X on roll with 7 off, O with one checker left and 14 off.
    # Asymmetric, so it pins down that gnubg encodes the player not on roll first.
    position = Position.from_checkers({1: 4, 3: 3, 4: 1}, {2: 1})
    assert position.borne_off() == (7, 14)
    assert position_id(position) == "AgAAPBcAAAAAAA"
    assert position_from_id("AgAAPBcAAAAAAA") == position


@pytest.mark.parametrize(
    "text",
    # wildbg (carsten-wenderdel/wildbg), crates/engine/src/position/conversion.rs, test
    # matching_ids: IDs its encoder reproduces; wildbg's tests match gnubg's.
    ["4HPwATDgc/ABMA", "jGfkASjg8wcBMA", "zGbiIQgxH/AAWA", "zGbiIYCYD3gALA"],
)
def test_wildbg_position_ids_survive_a_round_trip(text):
    assert position_id(position_from_id(text)) == text


def test_wildbg_labels_hold_for_its_bar_and_off_vectors():
    # wildbg's comments: "zGbiIQgxH/AAWA" has X (on roll) on the bar, "zGbiIYCYD3gALA" has O off.
    assert position_from_id("zGbiIQgxH/AAWA").checkers(25) > 0
    assert position_from_id("zGbiIYCYD3gALA").borne_off()[1] > 0


def test_position_id_ignores_surrounding_whitespace():
    assert position_from_id("  4HPwATDgc/ABMA\n") == Position.starting()


# --- Position ID: round trips ------------------------------------------------------------------


@st.composite
def positions(draw):
    """0 to 15 checkers a side on points and bars, never two colours on one point."""
    mine = Counter(draw(st.lists(st.integers(1, 25), max_size=15)))
    open_to_them = [p for p in range(1, 26) if p == 25 or 25 - p not in mine]
    theirs = Counter(draw(st.lists(st.sampled_from(open_to_them), max_size=15)))
    return Position.from_checkers(dict(mine), dict(theirs))


@given(positions())
def test_position_id_round_trips(position):
    text = position_id(position)
    assert len(text) == 14
    assert position_from_id(text) == position


@given(positions())
def test_position_id_of_the_flipped_board_swaps_the_two_halves_of_the_key(position):
    # The key is the opponent's 25 slots then the player's; flipping the board swaps them.
    assert position_from_id(position_id(position.flipped())) == position.flipped()


# --- Position ID: bad input --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "has 13 characters; a Position ID has 14"),
        ("4HPwATDgc/ABMAA", "has 15 characters"),
        ("", "has 0 characters"),
        ("4HPwATDgc/AB!A", "contains '!', which is not a base64 character"),
        ("4HPwATDgc/ABMB", "encodes bits past the key's end"),
        (gnubg_id("1" * 16, 14), "gives the opponent more than 15 checkers"),
        (gnubg_id("0" * 25 + "1" * 16, 14), "gives the player on roll more than 15 checkers"),
        (gnubg_id("0" * 50 + "1", 14), "has checkers after the player on roll's bar"),
        # The opponent on their 24 point, the player on roll on their 1 point: the same point.
        (gnubg_id("0" * 23 + "10" + "0" + "10", 14), "puts both players on the 1 point"),
    ],
)
def test_bad_position_ids_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidPositionError, match="not a Position ID") as caught:
        position_from_id(text)
    assert message in str(caught.value)


# --- Match ID: published vectors ---------------------------------------------------------------


def test_match_id_of_the_manuals_example():
    # gnubg manual, "A technical description of the Match ID": score 2-4 in a 9-point match,
    # player 0 holds a 2-cube, player 1 has just rolled 52. The ID predates the 67th
    # ("Jacoby not in use") bit, so it reads as Jacoby in use.
    key = MatchKey(
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        crawford=False,
        game_state=PLAYING,
        turn=1,
        doubled=False,
        resigned=0,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
        jacoby=True,
    )
    assert match_id(key) == "QYkqASAAIAAA"
    assert match_key_from_id("QYkqASAAIAAA") == key


def test_match_id_from_a_gnubg_board_with_a_resignation_pending():
    # The same gnubg board as AgAAPBcAAAAAAA: "Match ID : USGgACAAIAAE", 5-point match,
    # O (player 0) 2 points, X (player 1) 4 points and on roll, owning the cube at 2,
    # resigning a single game; O must answer. Match play, so the Jacoby bit is off.
    assert match_key_from_id("USGgACAAIAAE") == MatchKey(
        cube_value=2,
        cube_owner=1,
        player_on_roll=1,
        crawford=False,
        game_state=PLAYING,
        turn=0,
        doubled=False,
        resigned=1,
        dice=(0, 0),
        match_length=5,
        score=(2, 4),
        jacoby=False,
    )
    assert match_id(match_key_from_id("USGgACAAIAAE")) == "USGgACAAIAAE"


def test_match_id_writes_the_high_die_first_as_gnubg_does():
    # gnubg's matchid.c swaps the dice so the higher comes first.
    low_first = replace(match_key_from_id("QYkqASAAIAAA"), dice=(2, 5))
    assert low_first.dice == (5, 2)
    assert match_id(low_first) == "QYkqASAAIAAA"


# --- Match ID: round trips ---------------------------------------------------------------------


@st.composite
def match_keys(draw):
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 25, 32767]))
    most = length or 32767
    rolled = draw(st.booleans())
    return MatchKey(
        cube_value=2 ** draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([None, 0, 1])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.integers(NO_GAME, DROPPED)),
        turn=draw(st.integers(0, 1)),
        doubled=draw(st.booleans()),
        resigned=draw(st.integers(0, 3)),
        dice=(draw(st.integers(1, 6)), draw(st.integers(1, 6))) if rolled else (0, 0),
        match_length=length,
        score=(draw(st.integers(0, most)), draw(st.integers(0, most))),
        jacoby=draw(st.booleans()),
    )


@given(match_keys())
def test_match_id_round_trips(key):
    text = match_id(key)
    assert len(text) == 12
    assert match_key_from_id(text) == key
    assert match_id(match_key_from_id(text)) == text


# --- Match ID: bad input -----------------------------------------------------------------------


def match_bits(
    *, log_cube="0000", owner="11", state="100", dice="000000", length="0" * 15, score="0" * 30
):
    """A match key as the manual writes it, each field least significant bit first."""
    return "".join([log_cube, owner, "1", "0", state, "1", "0", "00", dice, length, score])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("QYkqASAAIAA", "has 11 characters; a Match ID has 12"),
        ("QYkqASAAIA A", "contains ' ', which is not a base64 character"),
        ("QYkqASAAIAAI", "sets bits past the 67th"),
        (gnubg_id(match_bits(owner="01"), 12), "gives the cube's owner as 2"),
        (gnubg_id(match_bits(state="101"), 12), "has game state 5"),
        (gnubg_id(match_bits(dice="111100"), 12), "dice show 1 to 6 or (0, 0) before the roll"),
        (gnubg_id(match_bits(dice="100000"), 12), "dice show 1 to 6"),
        (gnubg_id(match_bits(length="1" + "0" * 14, score="01" + "0" * 28), 12), "0 to 1"),
    ],
)
def test_bad_match_ids_are_refused_with_the_reason(text, message):
    with pytest.raises(InvalidPositionError, match="not a Match ID") as caught:
        match_key_from_id(text)
    assert message in str(caught.value)


def test_a_money_game_has_no_crawford_game():
    crawford_money = match_bits()[:7] + "1" + match_bits()[8:]
    with pytest.raises(InvalidPositionError, match="a money game has no Crawford game"):
        match_key_from_id(gnubg_id(crawford_money, 12))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("cube_value", 3, "power of two"),
        ("cube_value", 2**16, "power of two"),
        ("cube_owner", 2, "player 0, 1 or None"),
        ("turn", 2, "turn is player 0 or 1"),
        ("crawford", 1, "crawford is True or False"),
        ("game_state", 5, "game state is 0 to 4"),
        ("resigned", 4, "resignation offers"),
        ("dice", (7, 1), "dice show 1 to 6"),
        ("score", (10, 0), "0 to 9 in this match"),
        ("match_length", -1, "match length is 0"),
    ],
)
def test_match_key_refuses_impossible_values(field, value, message):
    key = match_key_from_id("QYkqASAAIAAA")
    with pytest.raises(InvalidPositionError, match=message):
        replace(key, **{field: value})


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
    with pytest.raises(InvalidPositionError, match="not an XGID") as caught:
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
    text = xgid_from_gnubg(position_id(on_roll), match_id(o_on_roll))
    state = xgid_from_text(text)
    assert state.turn == -1
    assert state.position == on_roll.flipped()
    assert state.position_on_roll() == on_roll
    assert (state.cube_owner, state.score_x, state.score_o) == (1, 4, 2)
    assert gnubg_from_xgid(text) == (position_id(on_roll), match_id(o_on_roll))


def test_a_double_crosses_between_gnubg_and_xg():
    # gnubg's XGID import: with "D" the turn field names the doubler, who keeps the dice
    # ownership, and the other player must answer.
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:0:5:10"
    position_text, match_text = gnubg_from_xgid(text)
    key = match_key_from_id(match_text)
    assert (key.player_on_roll, key.turn, key.doubled, key.dice) == (0, 1, True, (0, 0))
    assert xgid_from_gnubg(position_text, match_text) == text


def test_beavers_cannot_cross_to_gnubg():
    with pytest.raises(InvalidPositionError, match="cannot record the beaver"):
        gnubg_from_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:1:B:0:0:3:0:10")


@given(xgid_states())
def test_xgid_survives_gnubg_and_back_when_gnubg_can_say_it(state):
    # gnubg IDs record no beavers and no cube limit; xgid_from_gnubg writes XG's usual 10.
    assume(not state.beavers and (state.match_length or state.crawford_jacoby < 2))
    text = xgid_from_gnubg(*gnubg_from_xgid(xgid(state)))
    assert xgid_from_text(text) == replace(state, max_cube=10)
