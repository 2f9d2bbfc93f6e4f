"""Play notation: canonical formatting, forgiving parsing, errors that name the wrong part."""

import pytest

from games.engine import (
    BAR,
    AmbiguousPlayError,
    Dice,
    IllegalPlayError,
    InvalidNotationError,
    Position,
    legal_plays,
)
from games.engine.notation import parse_play
from games.engine.play import Play, format_play, make_move

START = Position.starting()


@pytest.mark.parametrize(
    ("text", "dice", "canonical"),
    [
        ("24/18 13/8", (6, 5), "24/18 13/8"),
        ("24/18, 13/8", (6, 5), "24/18 13/8"),
        ("13/8,24/18", (6, 5), "24/18 13/8"),
        ("24/18/13", (6, 5), "24/13"),
        ("24/13", (6, 5), "24/13"),
        ("8/5(2) 6/3(2)", (3, 3), "8/5(2) 6/3(2)"),
        ("8/5 8/5 6/3 6/3", (3, 3), "8/5(2) 6/3(2)"),
        ("24/18(2)", (3, 3), "24/18(2)"),
        ("13/10(2) 10/7(2)", (3, 3), "13/7(2)"),
        ("  13/7   8/7 ", (6, 1), "13/7 8/7"),
    ],
)
def test_common_spellings_resolve_to_the_canonical_play(text, dice, canonical):
    assert format_play(parse_play(text, START, Dice(*dice))) == canonical


def test_bar_and_off_spellings():
    entering = Position.from_checkers({BAR: 1, 6: 14}, {})
    for text in ("bar/22", "b/22", "BAR/22", "25/22", "Bar/22 6/4"):
        play = parse_play(text if " " in text else f"{text} 6/4", entering, Dice(3, 2))
        assert format_play(play) == "bar/22 6/4"
    home = Position.from_checkers({6: 1, 5: 1}, {})
    for text in ("6/off 5/off", "6/o 5/O", "6/0 5/0", "5/off, 6/off"):
        assert format_play(parse_play(text, home, Dice(6, 5))) == "6/off 5/off"


def test_hits_may_be_marked_or_left_out():
    blot = Position.from_checkers({24: 2, 13: 13}, {5: 1, 19: 14})  # a blot on our 20 point
    play = parse_play("24/20*/16 24/16", blot, Dice(4, 4))
    assert format_play(play) == "24/20*/16 24/16"
    assert format_play(parse_play("24/16(2)", blot, Dice(4, 4))) == "24/20*/16 24/16"


def test_an_unmarked_path_means_the_quiet_way_when_there_is_one():
    # 13/5 with 6-2 can pass the 7 (no hit) or the 11 (hitting a blot).
    position = Position.from_checkers({13: 1, 6: 14}, {14: 1, 24: 14})
    assert format_play(parse_play("13/5", position, Dice(6, 2))) == "13/5"
    assert format_play(parse_play("13/11*/5", position, Dice(6, 2))) == "13/11*/5"
    assert format_play(parse_play("13/11/5", position, Dice(6, 2))) == "13/11*/5"


def test_ambiguous_paths_must_say_which():
    # Blots on our 11 and our 7: 13/5 hits one of them either way.
    position = Position.from_checkers({13: 1, 6: 14}, {14: 1, 18: 1, 24: 13})
    with pytest.raises(AmbiguousPlayError, match="13/5 can be played as .* or .*: say which"):
        parse_play("13/5", position, Dice(6, 2))
    assert format_play(parse_play("13/7*/5", position, Dice(6, 2))) == "13/7*/5"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("24/18 13/x8", "x8"),
        ("24-18", "24-18"),
        ("24/18(5)", "1 to 4"),
        ("off/18", "start from off"),
        ("24/bar", "end on the bar"),
        ("13/18", "higher points to lower"),
        ("24/26", "no point 26"),
        ("24*/18", "where it lands"),
        ("6/off*", "nothing is hit"),
    ],
)
def test_a_parse_error_names_the_wrong_part(text, names):
    with pytest.raises(InvalidNotationError, match=names):
        parse_play(text, START, Dice(6, 5))


def test_an_illegal_play_says_why_and_lists_the_legal_ones():
    with pytest.raises(IllegalPlayError, match="24/18 is not a legal play of 6-5: play as much"):
        parse_play("24/18", START, Dice(6, 5))
    with pytest.raises(IllegalPlayError, match="no checker on the 20"):
        parse_play("20/14 13/8", START, Dice(6, 5))
    entering = Position.from_checkers({BAR: 1, 13: 14}, {})
    with pytest.raises(IllegalPlayError, match="bar must enter first"):
        parse_play("13/7 13/8", entering, Dice(6, 5))
    with pytest.raises(IllegalPlayError, match="Legal plays: 24/13"):
        parse_play("13/7 6/1", START, Dice(6, 5))


def test_an_empty_play_only_when_nothing_can_move():
    closed = {point: 2 for point in range(1, 7)}
    dancing = Position.from_checkers({BAR: 1, 13: 14}, closed)
    assert parse_play("", dancing, Dice(6, 5)) == Play()
    with pytest.raises(IllegalPlayError, match="no move is possible"):
        parse_play("bar/19", dancing, Dice(6, 5))
    with pytest.raises(IllegalPlayError, match="choose a play"):
        parse_play("", START, Dice(6, 5))


def test_formatting_is_independent_of_move_order():
    a = Play((make_move(24, 6), make_move(13, 5)))
    b = Play((make_move(13, 5), make_move(24, 6)))
    assert format_play(a) == format_play(b) == "24/18 13/8"


def test_every_legal_plays_notation_parses_back_to_it():
    for dice in [(6, 5), (3, 1), (4, 4), (1, 1), (6, 6), (2, 1)]:
        for play in legal_plays(START, Dice(*dice)):
            again = parse_play(format_play(play), START, Dice(*dice))
            assert START.apply(again) == START.apply(play)


def test_moves_written_one_die_at_a_time_land_where_written():
    # "8/4 4/2" (as .mat files write a checker's moves) passes through the 4 and hits there,
    # like "8/4*/2"; 8/6/2, which avoids the blot, is a different play.
    position = Position.from_checkers({8: 2, 6: 5, 13: 5, 24: 2, 22: 1}, {21: 1, 2: 14})
    assert format_play(parse_play("8/4 4/2", position, Dice(4, 2))) == "8/4*/2"
    assert format_play(parse_play("8/6 6/2", position, Dice(4, 2))) == "8/6 6/2"
