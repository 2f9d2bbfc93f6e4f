"""The command line for every variant (DESIGN.md, "Variants"): its output, byte for byte."""

import pytest

from .test_command_line import OPENING, OPENING_65, run

NARDI_START = "0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0"
NARDI_START_33 = (
    "24/18(2)\t0 0 0 0 0 0 0 0 0 0 0 -15 0 0 0 0 0 2 0 0 0 0 0 13 | 0 0 0 0\n"
    "24/21 24/15\t0 0 0 0 0 0 0 0 0 0 0 -15 0 0 1 0 0 0 0 0 1 0 0 13 | 0 0 0 0\n"
)
PLAKOTO_BLOT = "-14 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -1 0 0 0 0 0 15 | 0 0 0 0"
PLAKOTO_BLOT_61 = {
    "24/23 24/18*\t-14 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1p1 0 0 0 0 1 13 | 0 0 0 0",
    "24/17\t-14 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 -1 0 0 0 0 0 14 | 0 0 0 0",
}
FEVGA_START = NARDI_START
HYPER_START = "-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 | 0 0 0 0"


def lines(out: str) -> set[str]:
    return set(out.splitlines())


def test_moves_with_a_variant_prints_each_play_and_the_text_board_after_it(capsys, monkeypatch):
    code, out, err = run(
        capsys, monkeypatch, "moves", "--variant", "long-nardi", NARDI_START, "3", "3"
    )
    assert (code, err) == (0, "")
    assert lines(out) == lines(NARDI_START_33)


def test_a_plakoto_pin_is_marked_and_drawn_as_a_pin(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "moves", "--variant", "plakoto", PLAKOTO_BLOT, "6", "1")
    assert code == 0 and lines(out) == PLAKOTO_BLOT_61


def test_fevga_opens_with_one_runner(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "moves", "--variant", "fevga", FEVGA_START, "6", "5")
    assert (code, out) == (
        0,
        "24/13\t0 0 0 0 0 0 0 0 0 0 0 -15 1 0 0 0 0 0 0 0 0 0 0 14 | 0 0 0 0\n",
    )


def test_the_backgammon_family_takes_a_position_id_and_answers_with_one(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, "moves", "--variant", "backgammon", OPENING, "6", "5")
    assert code == 0 and lines(out) == lines(OPENING_65)


def test_no_legal_play_prints_nothing_and_exits_0(capsys, monkeypatch):
    closed = "-13 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -2 0 0 0 0 0 15 | 0 0 0 0"
    assert run(capsys, monkeypatch, "moves", "--variant", "plakoto", closed, "6", "6") == (
        0,
        "",
        "",
    )


def test_batch_reads_variant_lines_and_position_id_lines_alike(capsys, monkeypatch):
    stdin = (
        f"long-nardi\t{NARDI_START}\t3 3\n"
        f"{OPENING} 6 5\n"
        f"hypergammon\t{HYPER_START}\t2 1\n"
        f"plakoto\t-13 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -2 0 0 0 0 0 15 | 0 0 0 0\t6 6\n"
    )
    code, out, err = run(capsys, monkeypatch, "moves", "--batch", stdin=stdin)
    assert (code, err) == (0, "")
    answers = out.split("--\n")
    assert len(answers) == 5 and answers[-1] == "" and answers[3] == ""
    assert lines(answers[0]) == lines(NARDI_START_33)
    assert answers[1] == OPENING_65
    assert lines(answers[2]) == {
        "24/22 23/22\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0 0 | 0 0 0 0",
        "24/21\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 1 1 0 | 0 0 0 0",
        "23/21 22/21\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 2 0 0 1 | 0 0 0 0",
        "23/20\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 1 0 1 | 0 0 0 0",
        "24/23 22/20\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 2 0 | 0 0 0 0",
        "22/19\t-1 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 1 0 0 0 1 1 | 0 0 0 0",
    }


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (("moves", "--variant", "chess", NARDI_START, "3", "3"), "", "there is no variant 'chess'"),
        (("moves", "--variant", "fevga", "0 0 | 0 0 0 0", "3", "3"), "", "24 point tokens"),
        (
            ("moves", "--variant", "fevga", NARDI_START.replace(" 15 |", " 14 |"), "3", "3"),
            "",
            "14 checkers in play",
        ),
        (("moves", "--variant", "fevga", NARDI_START, "3", "7"), "", "a die shows 1 to 6, not 7"),
        (("moves", "--variant", "fevga", OPENING, "3", "1"), "", "24 point tokens"),
        (("moves", "--variant", "fevga", "--batch"), "", "--batch reads each line's variant"),
        (("moves", "--batch"), f"fevga\t{NARDI_START}\t3\n", "line 1: expected VARIANT<TAB>BOARD"),
        (("moves", "--batch"), f"nardi\t{NARDI_START}\t3 3\n", "line 1: there is no variant"),
    ],
)
def test_bad_variant_board_or_dice_exits_2_with_one_line_on_stderr(
    capsys, monkeypatch, argv, stdin, message
):
    code, _, err = run(capsys, monkeypatch, *argv, stdin=stdin)
    assert code == 2
    assert err.count("\n") == 1 and message in err


def test_compare_checks_a_hitting_variant_against_bgsage(capsys, monkeypatch):
    pytest.importorskip("bgsage", reason="bgsage is the oracle; it is in requirements.txt")
    code, out, _ = run(
        capsys, monkeypatch, "compare", "--variant", "hypergammon", "--pairs", "50", "--seed", "1"
    )
    assert (code, out) == (0, "variant: hypergammon pairs: 50 disagreements: 0\n")
    code, _, err = run(capsys, monkeypatch, "compare", "--variant", "plakoto", "--pairs", "5")
    assert code == 2 and "hitting variants only" in err
