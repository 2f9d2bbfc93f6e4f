"""The last play marked on the board: where it took checkers from and brought them to, the
checkers that arrived (each with its way back, for the glide), and the play in words."""

from __future__ import annotations

import re

import pytest

from games.engine import BAR, Dice, LastPlay, Play, Position, parse_play
from games.engine.board import Board
from games.engine.variants import BACKGAMMON
from games.views.board import board_svg, draw_board
from tests.games.factories import act, make_user, script_dice, start_match

NAMES = ("alice", "bob")
PLACE = re.compile(r'<g data-point="(\w+)"(?: data-side="(\w+)")?([^>]*)>')


def played(before: Position, notation: str, dice: tuple[int, int], mover: int):
    """The stored position (player 0's side) after ``mover`` played ``notation`` from
    ``before`` (seen from the mover's side), and the last play."""
    roll = Dice(*dice)
    play = parse_play(notation, before, roll)
    after = before.apply(play)
    return (after if mover == 0 else after.flipped()), LastPlay(mover, roll, play)


def drawn(before: Position, notation: str, dice: tuple[int, int], *, mover: int, side: int):
    stored, last = played(before, notation, dice, mover)
    return draw_board(
        Board.from_position(BACKGAMMON, stored), side=side, names=NAMES, last_play=last
    )


def marked(board, attribute: str) -> set[str]:
    """The places of the board's markup carrying ``attribute``: ``"8"``, ``"bar mine"``..."""
    return {
        f"{name} {side}" if side else name
        for name, side, rest in PLACE.findall(board_svg(board))
        if attribute in rest.split()
    }


def arrived(board, place: str) -> int:
    """How many checkers of ``place`` arrived with the last play (and glide in)."""
    places = {
        **{str(point.number): point for point in board.points},
        **{f"bar {side}": bar for side, bar in zip(("theirs", "mine"), board.bars, strict=True)},
        **{f"off {side}": tray for side, tray in zip(("theirs", "mine"), board.trays, strict=True)},
    }
    return sum(1 for checker in places[place].checkers if checker.glide)


def test_the_mover_sees_the_points_their_play_left_and_reached():
    board = drawn(Position.starting(), "8/5 6/5", (3, 1), mover=0, side=0)
    assert marked(board, "data-last-from") == {"8", "6"}
    assert marked(board, "data-last-to") == {"5"}
    assert arrived(board, "5") == 2
    assert board_svg(board).count("data-arrived") == 2
    assert 'data-last-play="' in board_svg(board)


def test_the_opponent_sees_the_same_play_in_their_own_numbering():
    board = drawn(Position.starting(), "8/5 6/5", (3, 1), mover=0, side=1)
    assert marked(board, "data-last-from") == {"17", "19"}
    assert marked(board, "data-last-to") == {"20"}
    assert arrived(board, "20") == 2
    assert "Last play: alice rolled 3-1 and played 8/5 6/5 (in alice's own numbering)." in (
        board.description
    )


def test_a_checker_moved_on_by_both_dice_is_marked_at_its_start_and_end_only():
    board = drawn(Position.starting(), "24/18/13", (6, 5), mover=1, side=1)
    assert marked(board, "data-last-from") == {"24"}
    assert marked(board, "data-last-to") == {"13"}
    watcher = drawn(Position.starting(), "24/18/13", (6, 5), mover=1, side=0)
    assert marked(watcher, "data-last-from") == {"1"}
    assert marked(watcher, "data-last-to") == {"12"}


# alice (mover) has two on her 13 point; bob has a blot on alice's 10 (his 15).
BLOT = Position.from_checkers({13: 2, 6: 13}, {15: 1, 1: 14})


def test_a_hit_checker_goes_from_its_point_to_its_bar():
    board = drawn(BLOT, "13/10* 13/9", (4, 3), mover=0, side=0)
    assert marked(board, "data-last-from") == {"13", "10"}
    assert marked(board, "data-last-to") == {"10", "9", "bar theirs"}
    assert arrived(board, "bar theirs") == 1
    assert arrived(board, "10") == 1


def test_the_player_hit_sees_their_checker_arrive_on_their_bar():
    board = drawn(BLOT, "13/10* 13/9", (4, 3), mover=0, side=1)
    assert marked(board, "data-last-from") == {"12", "15"}
    assert marked(board, "data-last-to") == {"15", "16", "bar mine"}
    assert arrived(board, "bar mine") == 1
    assert "played 13/10* 13/9" in board.description


def test_entering_from_the_bar_marks_the_bar():
    on_the_bar = Position.from_checkers({BAR: 1, 6: 14}, {1: 15})
    board = drawn(on_the_bar, "bar/16", (3, 6), mover=1, side=1)
    assert marked(board, "data-last-from") == {"bar mine"}
    assert marked(board, "data-last-to") == {"16"}
    watcher = drawn(on_the_bar, "bar/16", (3, 6), mover=1, side=0)
    assert marked(watcher, "data-last-from") == {"bar theirs"}
    assert marked(watcher, "data-last-to") == {"9"}


def test_bearing_off_marks_the_tray():
    home = Position.from_checkers({6: 2, 5: 13}, {1: 15})
    board = drawn(home, "6/off 5/off", (6, 5), mover=0, side=0)
    assert marked(board, "data-last-from") == {"6", "5"}
    assert marked(board, "data-last-to") == {"off mine"}
    assert arrived(board, "off mine") == 2
    assert board_svg(board).count("data-arrived") == 2
    opponent = drawn(home, "6/off 5/off", (6, 5), mover=0, side=1)
    assert marked(opponent, "data-last-from") == {"19", "20"}
    assert marked(opponent, "data-last-to") == {"off theirs"}


@pytest.mark.parametrize("side", [0, 1])
def test_each_arrived_checker_glides_from_where_a_checker_left(side):
    board = drawn(BLOT, "13/10* 13/9", (4, 3), mover=0, side=side)
    starts = [ghost for place in [*board.points, *board.bars] for ghost in place.ghosts]
    gliders = [
        checker
        for place in [*board.points, *board.bars, *board.trays]
        for checker in place.checkers
        if checker.glide
    ]
    assert len(gliders) == len(starts) == 3
    ends = sorted(
        (checker.x + checker.glide[0], checker.y + checker.glide[1]) for checker in gliders
    )
    assert ends == sorted(starts)


def test_a_dance_marks_nothing_and_says_so():
    board = draw_board(
        Board.starting(BACKGAMMON), side=0, names=NAMES, last_play=LastPlay(1, Dice(6, 6), Play())
    )
    svg = board_svg(board)
    assert "data-last-from" not in svg and "data-last-to" not in svg
    assert "data-arrived" not in svg and "data-last-play" not in svg
    assert board.description.endswith("Last play: bob rolled 6-6 and could not move.")


def test_without_a_last_play_nothing_is_marked():
    svg = board_svg(draw_board(Board.starting(BACKGAMMON), side=0, names=NAMES))
    assert "data-last" not in svg and "data-arrived" not in svg and "Last play" not in svg


@pytest.mark.django_db
class TestTheMatchPage:
    @pytest.fixture
    def players(self):
        return make_user("alice"), make_user("bob")

    @pytest.fixture
    def dice(self, monkeypatch):
        # Opening roll 3 (alice) v 1 (bob): alice moves 3-1 first.
        return script_dice(monkeypatch, 3, 1)

    def page(self, client, match, query=""):
        response = client.get(f"/matches/{match.pk}/{query}")
        assert response.status_code == 200
        return response.content.decode()

    def marks(self, html, attribute):
        return {
            f"{name} {side}" if side else name
            for name, side, rest in PLACE.findall(html)
            if attribute in rest.split()
        }

    def test_the_opponents_play_is_marked_for_the_player_and_watchers(self, client, players, dice):
        alice, bob = players
        match = start_match(alice, bob)
        html = self.page(client, match)
        assert "data-last-from" not in html, "nothing is marked before the first play"
        dice.add(6, 5)
        act(match, alice, "move", play="8/5 6/5")
        client.force_login(bob)
        html = self.page(client, match)
        assert self.marks(html, "data-last-from") == {"17", "19"}
        assert self.marks(html, "data-last-to") == {"20"}
        assert "Last play: alice rolled 3-1 and played 8/5 6/5" in html
        client.logout()
        watched = self.page(client, match)
        assert self.marks(watched, "data-last-from") == {"8", "6"}
        assert self.marks(watched, "data-last-to") == {"5"}

    def test_the_viewers_own_steps_replace_the_mark(self, client, players, dice):
        alice, bob = players
        match = start_match(alice, bob)
        dice.add(6, 5)
        match = act(match, alice, "move", play="8/5 6/5")
        match = act(match, bob, "roll")
        client.force_login(bob)
        assert self.marks(self.page(client, match), "data-last-to") == {"20"}, "rolled: kept"
        stepped = self.page(client, match, "?steps=24-6")
        assert "data-last-from" not in stepped and "data-last-to" not in stepped
        assert "data-last-play" not in stepped

    def test_a_new_game_starts_unmarked(self, client, players, dice):
        alice, bob = players
        match = start_match(alice, bob, length=3)
        dice.add(6, 5)
        match = act(match, alice, "move", play="8/5 6/5")
        match = act(match, bob, "resign", points=1)
        dice.add(4, 2)
        match = act(match, alice, "accept_resign")
        client.force_login(bob)
        html = self.page(client, match)
        assert 'data-match-status="active"' in html
        assert "data-last-from" not in html and "data-last-to" not in html

    def test_the_replay_marks_each_steps_play(self, client, players, dice):
        alice, bob = players
        match = start_match(alice, bob)
        dice.add(6, 5)
        match = act(match, alice, "move", play="8/5 6/5")
        url = f"/matches/{match.pk}/replay/"
        before = client.get(url, {"step": 2}).content.decode()
        assert "data-last-from" not in before
        played_step = client.get(url, {"step": 3}).content.decode()
        assert self.marks(played_step, "data-last-from") == {"8", "6"}
        assert self.marks(played_step, "data-last-to") == {"5"}


def test_the_play_has_one_key_from_either_side():
    keys = {
        drawn(Position.starting(), "8/5 6/5", (3, 1), mover=0, side=side).last_play_key
        for side in (0, 1)
    }
    other = drawn(Position.starting(), "13/10 6/5", (3, 1), mover=0, side=0).last_play_key
    assert len(keys) == 1 and other not in keys


def test_a_checker_that_left_a_tall_stack_is_shown_past_it():
    tall = Position.from_checkers({6: 9, 5: 6}, {1: 15})
    board = drawn(tall, "6/1 6/2", (5, 4), mover=0, side=0)
    six = next(point for point in board.points if point.number == 6)
    assert six.checkers[-1].count == 7
    standing = {(checker.x, checker.y) for checker in six.checkers}
    assert len(six.ghosts) == 2
    assert not standing & set(six.ghosts)
