"""Reading .mat files: what gnubg writes, the spellings other programs use, and files refused
with the line at fault."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine import AcceptResignation, Resign, Roll
from games.engine.mat import export_mat
from games.engine.mat_reader import MatFileError, parse_mat
from tests.games.formats.matches import as_recorded, random_match

DATA = Path(__file__).parent / "data"
GNUBG_MATCH = (DATA / "gnubg_selfplay_5_point.mat").read_text()


def test_a_match_gnubg_exported_reads_to_its_final_score():
    # GNU Backgammon 1.07.001 playing itself (player names gnubg and root), exported with
    # `export match mat`: drops, a take, resignations, a Crawford game, bear-offs as 1/0.
    record = parse_mat(GNUBG_MATCH)
    assert record.names == ("gnubg", "root")
    assert record.match_length == 5
    assert record.tags == (("EventDate", "2026.12.02"),)
    state = record.state
    assert state.is_finished() and state.winner == 1
    assert state.score == (2, 10)
    assert [(g.winner, g.points, g.result, g.crawford) for g in state.games] == [
        (1, 1, "drop", False),
        (1, 2, "resign", False),
        (0, 1, "drop", False),
        (1, 1, "drop", False),
        (0, 1, "resign", True),
        (1, 6, "resign", False),
    ]


def test_a_win_before_the_game_is_over_is_the_resignation_of_the_player_on_roll():
    record = parse_mat(GNUBG_MATCH)
    last_game = record.events[-2:]
    assert last_game == (Resign(0, 3), AcceptResignation(1))  # a backgammon with the cube at 2


def test_what_we_write_of_gnubgs_match_reads_back_the_same():
    record = parse_mat(GNUBG_MATCH)
    again = parse_mat(export_mat(record.names, record.match_length, record.events))
    assert as_recorded(5, again.events) == as_recorded(5, record.events)
    assert again.state == record.state


def _spelled_differently(text: str) -> str:
    """The same match as other programs spell it: tabs between the columns, CRLF line ends,
    a byte-order mark, XG's header, bear-offs as "off", the bar as "bar", "and the match"."""
    lines = []
    for line in text.splitlines():
        line = re.sub(r"(\S) {2,}(\S)", "\\1\t\t\\2", line)
        line = re.sub(r"^(\s*\d+\))\s{20,}", "\\1\t\t\t\t", line)
        line = re.sub(r"/0\b", "/off", line)
        line = re.sub(r"\b25/", "bar/", line)
        lines.append(line)
    lines[-2] += " and the match"
    header = ['; [Site "XG Mobile"]', '; [Player 1 "gnubg"]', '; [Player 2 "root"]']
    return "\ufeff" + "\r\n".join(header + lines) + "\r\n"


def test_other_programs_spellings_read_the_same():
    varied = _spelled_differently(GNUBG_MATCH)
    assert "\t" in varied and "/off" in varied and "bar/" in varied
    record, original = parse_mat(varied), parse_mat(GNUBG_MATCH)
    assert as_recorded(5, record.events) == as_recorded(5, original.events)
    assert record.state.score == (2, 10)
    assert ("Player 1", "gnubg") in record.tags


def test_long_plays_in_the_left_column_still_leave_the_right_one_readable():
    text = export_mat(("alice", "bob"), 3, random_match(0, 3))
    assert re.search(r"\) \d\d: [0-9/* ]{23,}[0-9*] \d\d:", text)  # a cell of 28 or more
    assert parse_mat(text).state.score == (13, 0)


def test_a_roll_with_no_play_written_then_a_resignation_is_a_resignation_after_rolling():
    text = (
        " 3 point match\n\n Game 1\n alice : 0        bob : 0\n"
        "  1) 31: 8/5 6/5                 43:\n"
        "      Wins 1 point\n"
    )
    record = parse_mat(text)
    assert record.events[-3:] == (
        Roll(1, record.events[-3].dice),
        Resign(1, 1),
        AcceptResignation(0),
    )
    assert record.state.score == (1, 0)


def test_a_file_that_stops_mid_game_leaves_the_match_under_way():
    lines = GNUBG_MATCH.splitlines()
    record = parse_mat("\n".join(lines[:15]))
    assert not record.state.is_finished()
    assert record.state.game_number == 1 and record.state.phase == "rolling"


def _with_line(number: int, new: str) -> str:
    lines = GNUBG_MATCH.splitlines()
    lines[number - 1] = new
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (
            _with_line(9, "  3) 53: 8/3 6/1                 62: 13/7 7/5"),
            9,
            "not a legal play of 5-3",
        ),
        (
            _with_line(9, "  3) 53: 8/3 6/3                 62: 13/7 7/4"),
            9,
            "not a legal play of 6-2",
        ),
        (_with_line(8, "  2) 52:                         63: 8/5 11/5"), 8, "can be played"),
        (
            _with_line(23, " gnubg : 0                      root : 2"),
            23,
            "the games before make it 0-1",
        ),
        (
            _with_line(23, " gnubg : 0                      sage : 1"),
            23,
            "the players are gnubg and root",
        ),
        (_with_line(19, " 13) 54: 25/21                    Doubles => 4"), 19, "a double offers 2"),
        (_with_line(20, " 14)  Drops                       Wins 2 points"), 20, "not 2 points"),
        (_with_line(22, " Game 3"), 22, "expected game 2 here"),
        (
            _with_line(20, " 14)  Drops                       frobnicates"),
            20,
            "cannot read 'frobnicates'",
        ),
        (_with_line(7, "  1) 33: 24/21 24/21 6/3 6/3"), 7, "the opening roll cannot be a double"),
        (_with_line(7, "  1) 71: 13/6 24/23"), 7, "71 is not a roll"),
        (_with_line(3, " 0 point match"), 3, "money session"),
        (_with_line(6, " gnubg 0 root 0"), 6, "expected the players and their scores"),
        (_with_line(19, " Game 2"), 19, "game 2 starts before game 1 is over"),
    ],
)
def test_a_file_breaking_the_rules_is_refused_naming_the_line(text, line, reason):
    with pytest.raises(MatFileError) as refused:
        parse_mat(text)
    assert refused.value.line_number == line
    assert reason in str(refused.value)
    assert str(refused.value).startswith(f"line {line}: ")


def test_a_resignation_by_the_player_not_on_roll_is_refused():
    text = (
        " 3 point match\n Game 1\n alice : 0        bob : 0\n  1) 31: 8/5 6/5\n"
        "                                  Wins 1 point\n"
    )
    with pytest.raises(MatFileError, match="line 5: .*only the player on roll can resign"):
        parse_mat(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello world",
        "\x00\x01\x02 binary",
        "Ünïcödé ✓ 五点比赛",
        " 5 point match\n",
        " 5 point match\n 5 point match\n",
        " 99 point match\n Game 1\n a : 0  b : 0\n",
        '; [Event "only a header"]\n',
        " 5 point match\n  1) 31: 8/5 6/5\n",
    ],
)
def test_garbage_is_refused_with_a_reason(text):
    with pytest.raises(MatFileError) as refused:
        parse_mat(text)
    assert str(refused.value)
