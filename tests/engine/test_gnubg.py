"""GNU Backgammon Position and Match IDs: published vectors, round trips, bad input.

Each published vector names where it comes from. Diagrams quoted in those sources were read
point by point into the ``Position.from_checkers`` calls below; the pip counts the sources print
are checked too, as a second reading of the same diagram.
"""

import base64
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import EngineError, InvalidMatchIdError, InvalidPositionError, Position
from games.engine.gnubg import (
    DROPPED,
    NO_GAME,
    PLAYING,
    MatchKey,
    match_id,
    match_key_from_id,
)
from tests.engine.boards import positions


def gnubg_id(bits: str, characters: int) -> str:
    """Pack a bit string, first bit least significant, the way the gnubg manual describes."""
    size = characters * 6 // 8
    value = int(bits[::-1] or "0", 2)
    return base64.b64encode(value.to_bytes(size, "little")).decode()[:characters]


# --- Position ID: published vectors ------------------------------------------------------------


def test_starting_position_id_is_the_manuals():
    # gnubg manual, "A technical description of the Position ID".
    assert Position.starting().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == Position.starting()


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
    assert position.position_id() == "sOfgEwDg8+AIBg"
    assert Position.from_position_id("sOfgEwDg8+AIBg") == position


def test_position_id_from_gnubg_board_with_the_opponent_almost_off():
    # gnubg "show board" output quoted in a public Kotlin test (FixResignationTests):
    # "Position ID: AgAAPBcAAAAAAA", X on roll with 7 off, O with one checker left and 14 off.
    # Asymmetric, so it pins down that gnubg encodes the player not on roll first.
    position = Position.from_checkers({1: 4, 3: 3, 4: 1}, {2: 1})
    assert position.borne_off() == (7, 14)
    assert position.position_id() == "AgAAPBcAAAAAAA"
    assert Position.from_position_id("AgAAPBcAAAAAAA") == position


@pytest.mark.parametrize(
    "text",
    # wildbg (carsten-wenderdel/wildbg), crates/engine/src/position/conversion.rs, test
    # matching_ids: IDs its encoder reproduces; wildbg's tests match gnubg's.
    ["4HPwATDgc/ABMA", "jGfkASjg8wcBMA", "zGbiIQgxH/AAWA", "zGbiIYCYD3gALA"],
)
def test_wildbg_position_ids_survive_a_round_trip(text):
    assert Position.from_position_id(text).position_id() == text


def test_wildbg_labels_hold_for_its_bar_and_off_vectors():
    # wildbg's comments: "zGbiIQgxH/AAWA" has X (on roll) on the bar, "zGbiIYCYD3gALA" has O off.
    assert Position.from_position_id("zGbiIQgxH/AAWA").checkers(25) > 0
    assert Position.from_position_id("zGbiIYCYD3gALA").borne_off()[1] > 0


def test_position_id_ignores_surrounding_whitespace():
    assert Position.from_position_id("  4HPwATDgc/ABMA\n") == Position.starting()


# --- Position ID: round trips ------------------------------------------------------------------


@given(positions())
def test_position_id_round_trips(position):
    text = position.position_id()
    assert len(text) == 14
    assert Position.from_position_id(text) == position


@given(positions())
def test_position_id_of_the_flipped_board_swaps_the_two_halves_of_the_key(position):
    # The key is the opponent's 25 slots then the player's; flipping the board swaps them.
    assert Position.from_position_id(position.flipped().position_id()) == position.flipped()


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
        Position.from_position_id(text)
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
    with pytest.raises(InvalidMatchIdError, match="not a Match ID") as caught:
        match_key_from_id(text)
    assert message in str(caught.value)


def test_a_money_game_has_no_crawford_game():
    crawford_money = match_bits()[:7] + "1" + match_bits()[8:]
    with pytest.raises(InvalidMatchIdError, match="a money game has no Crawford game"):
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
    with pytest.raises(InvalidMatchIdError, match=message):
        replace(key, **{field: value})


def test_a_bad_match_id_is_its_own_error_not_a_bad_position():
    with pytest.raises(InvalidMatchIdError) as caught:
        match_key_from_id("zzzz")
    assert isinstance(caught.value, EngineError) and isinstance(caught.value, ValueError)
    assert not isinstance(caught.value, InvalidPositionError)
