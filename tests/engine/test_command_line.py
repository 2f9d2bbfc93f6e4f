"""The command line's contract, which outside checks rely on: its output, byte for byte."""

import io

import pytest

from games.engine.__main__ import main

OPENING = "4HPwATDgc/ABMA"
OPENING_65 = (
    "24/13\t4HPwATDgc/ADIA\n"
    "24/18 13/8\t4HPwATDg8+BBIA\n"
    "24/18 8/3\t4HPwATDEZ/BBIA\n"
    "13/8 13/7\t4HPwATDg68EBMA\n"
    "13/7 8/3\t4HPwATDE1+ABMA\n"
    "13/2\t4HPwATDC5+ABMA\n"
    "8/3 8/2\t4HPwATCKT/ABMA\n"
)
#: A checker on the bar: it enters first (wildbg's vector with X on the bar).
ON_THE_BAR = "zGbiIQgxH/AAWA"
ON_THE_BAR_42 = (
    "bar/21 13/11\tzGbiIQgxH+QAMQ\n"
    "bar/21 6/4\tzGbiIQhxHvAAMQ\n"
    "bar/21 4/2\tzGbiIQglH/AAMQ\n"
    "bar/23 13/9\tzGbiIQgxH+EANA\n"
    "bar/23 6/2\tzGbiIQhlHvAANA\n"
)
#: Bearing off: a 6 bears off from the highest point, a 5 too.
BEARING_OFF = "750BAMDdbQMAAA"
BEARING_OFF_65 = "6/1 6/off\t750BAMC72wAAAA\n6/off 5/off\t750BAMDdrQAAAA\n"
#: Closed out: nothing enters.
CLOSED_OUT = "s+0zAADgc/ABYA"


def run(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        code = main(list(argv))
    except SystemExit as exit:
        code = exit.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("position_id", "dice", "expected"),
    [
        (OPENING, ("6", "5"), OPENING_65),
        (ON_THE_BAR, ("4", "2"), ON_THE_BAR_42),
        (BEARING_OFF, ("6", "5"), BEARING_OFF_65),
        (CLOSED_OUT, ("6", "6"), ""),
    ],
)
def test_moves_prints_each_play_and_the_position_after_it(
    capsys, monkeypatch, position_id, dice, expected
):
    assert run(capsys, monkeypatch, "moves", position_id, *dice) == (0, expected, "")


def test_batch_answers_each_line_and_ends_each_answer_with_two_dashes(capsys, monkeypatch):
    stdin = f"{OPENING} 6 5\n\n{CLOSED_OUT} 6 6\n{BEARING_OFF} 5 6\n"
    code, out, err = run(capsys, monkeypatch, "moves", "--batch", stdin=stdin)
    assert (code, err) == (0, "")
    assert out == f"{OPENING_65}--\n--\n{BEARING_OFF_65}--\n"


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (
            ("moves", "4HPwATDgc/ABM", "6", "5"),
            "",
            "error: not a Position ID: '4HPwATDgc/ABM' has 13 characters; a Position ID has 14\n",
        ),
        (("moves", OPENING, "7", "5"), "", "error: a die shows 1 to 6, not 7\n"),
        (("moves", OPENING, "x", "5"), "", "error: a die shows 1 to 6, not 'x'\n"),
        (
            ("moves", "--batch"),
            f"{OPENING} 6 5\n4HPwATDgc/ABM 6 5\n",
            "error: line 2: not a Position ID: '4HPwATDgc/ABM' has 13 characters; "
            "a Position ID has 14\n",
        ),
        (
            ("moves", "--batch", "extra"),
            "",
            "error: --batch reads its input from stdin and takes no arguments\n",
        ),
    ],
)
def test_bad_input_exits_2_with_one_line_on_stderr(capsys, monkeypatch, argv, stdin, message):
    code, _, err = run(capsys, monkeypatch, *argv, stdin=stdin)
    assert (code, err) == (2, message)


def test_batch_keeps_the_answers_before_a_bad_line(capsys, monkeypatch):
    stdin = f"{OPENING} 6 5\n{OPENING} 6\n"
    code, out, err = run(capsys, monkeypatch, "moves", "--batch", stdin=stdin)
    assert (code, out) == (2, f"{OPENING_65}--\n")
    assert err == f"error: line 2: expected POSITION_ID D1 D2, got '{OPENING} 6'\n"
