"""The board drawn for each variant: plakoto's pins, and fevga's and long nardi's shared track
seen from either side (games/views/board.py, board_words.py)."""

from __future__ import annotations

import re

import pytest

from games.engine.board import Board
from games.engine.variants import FEVGA, LONG_NARDI, PLAKOTO
from games.views.board import board_svg, draw_board

PINS = "-13 0 0 0 0 0 0 0 0 0 0 0 -1p1 0 0 0 0 0 0 2p1 0 0 0 12 | 0 0 0 0"


def pinned_points(svg: str) -> dict[str, str]:
    return dict(re.findall(r'<g data-point="(\d+)" data-pinned="(\d+)"', svg))


def test_a_pinned_checker_is_drawn_beneath_its_pinner_and_marked():
    board = draw_board(Board.parse(PLAKOTO, PINS), side=0, names=("ann", "bob"))
    svg = board_svg(board)

    assert pinned_points(svg) == {"13": "1", "20": "1"}
    twenty = board.points[19]
    beneath, *pinners = twenty.checkers
    assert beneath.pinned and beneath.owner == 1 and [c.owner for c in pinners] == [0, 0]
    assert beneath.y < pinners[0].y < beneath.y + 2 * 17  # partly covered, nearer the edge
    assert svg.count("data-pinned-checker") == 2
    thirteen = board.points[12]
    assert thirteen.checkers[0].owner == 0 and thirteen.checkers[-1].owner == 1


def test_the_screen_reader_text_says_which_checkers_are_pinned_in_each_players_numbering():
    board = Board.parse(PLAKOTO, PINS)
    ann = draw_board(board, side=0, names=("ann", "bob")).description
    bob = draw_board(board, side=1, names=("ann", "bob")).description

    assert ann.startswith("ann: 12 on 24, 2 on 20, 1 pinned on 13;")
    assert "bob: 13 on 24, 1 on 12, 1 pinned on 5;" in ann
    assert bob.startswith("bob: 13 on 24, 1 on 12, 1 pinned on 5;")
    assert "ann: 12 on 24, 2 on 20, 1 pinned on 13;" in bob


@pytest.mark.parametrize("variant", [FEVGA, LONG_NARDI])
@pytest.mark.parametrize("side", [0, 1])
def test_on_a_shared_track_both_players_start_on_their_own_24(variant, side):
    board = Board.parse(variant, "0 0 0 0 0 -3 0 0 0 0 0 -12 0 0 1 0 0 0 0 0 0 0 0 12 | 2 0 0 0")
    drawn = draw_board(board, side=side, names=("ann", "bob"))
    me, them = ("ann", "bob") if side == 0 else ("bob", "ann")

    words = dict(part.split(": ", 1) for part in re.split(r"(?<=\.) ", drawn.description))
    if side == 0:
        assert words[me].startswith("12 on 24, 1 on 15;") and "2 borne off" in words[me]
        assert words[them].startswith("12 on 24, 3 on 18;")
    else:
        assert words[me].startswith("12 on 24, 3 on 18;")
        assert words[them].startswith("12 on 24, 1 on 15;") and "2 borne off" in words[them]
    their_tray, my_tray = drawn.trays
    assert my_tray.hit_x == drawn.points[5].hit_x  # the viewer bears off below their 1..6
    assert their_tray.hit_x == drawn.points[12].hit_x  # the opponent above its 13..18, top left
    assert their_tray.hit_y + their_tray.hit_height < drawn.points[12].hit_y
    assert my_tray.hit_y > drawn.points[5].hit_y + drawn.points[5].hit_height
    for tray in drawn.trays:
        assert tray.hit_x >= 0 and tray.hit_x + tray.hit_width <= drawn.width
        assert tray.hit_y >= 0 and tray.hit_y + tray.hit_height <= drawn.height
    svg = board_svg(drawn)
    assert f'viewBox="0 0 {drawn.width:g} {drawn.height:g}"' in svg


def test_on_opposite_tracks_the_opponent_bears_off_top_right():
    drawn = draw_board(Board.starting(PLAKOTO), side=1, names=("ann", "bob"))
    their_tray, my_tray = drawn.trays
    assert their_tray.hit_x == my_tray.hit_x == drawn.points[18].hit_x
    assert their_tray.hit_y < my_tray.hit_y
