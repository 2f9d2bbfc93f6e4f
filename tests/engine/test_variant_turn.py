"""A play of any variant put together one checker at a time (``PartialVariantPlay``)."""

import random

import pytest

from games.engine import (
    Board,
    Dice,
    IllegalPlayError,
    find_play,
    format_play,
    variant_named,
    variant_plays,
)
from games.engine.play import make_move
from games.engine.turn import PartialVariantPlay
from tests.engine.test_variant_match import board_of, points_text


def boards_of_a_game(variant: str, seed: int, count: int) -> list[tuple[Board, Dice]]:
    """Boards and rolls met in a game of random legal plays, from the mover's side."""
    rng = random.Random(seed)
    board = Board.starting(variant_named(variant))
    found = []
    while len(found) < count:
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        plays = variant_plays(board, dice)
        found.append((board, dice))
        if plays:
            board = rng.choice(plays).after
        if max(board.borne_off()) == board.variant.checkers:
            break
        board = board.flipped()
    return found


@pytest.mark.parametrize(
    "variant", ["portes", "plakoto", "fevga", "long-nardi", "hypergammon", "nackgammon"]
)
def test_every_legal_play_can_be_put_together_and_read_back(variant):
    for board, dice in boards_of_a_game(variant, seed=3, count=12):
        plays = variant_plays(board, dice)
        turn = PartialVariantPlay(board, dice)
        assert bool(turn.next_moves()) == bool(plays)
        assert turn.is_complete() == (not plays)
        for legal in plays:
            step = PartialVariantPlay(board, dice)
            for (source, destination), die in zip(legal.moves, legal.dice, strict=True):
                hit = destination != 0 and step.board.points[destination] == -1
                step = step.with_move(make_move(source, die, hit))
            assert step.is_complete() and step.board == legal.after
            assert find_play(board, dice, format_play(step.play())).after == legal.after


def test_a_pinned_checker_offers_no_move_and_a_pin_is_marked():
    board = board_of("plakoto", points_text({1: "-13", 13: "-1p1", 18: "-1", 24: "14"}))
    turn = PartialVariantPlay(board, Dice(6, 1))
    assert 13 not in turn.movable_points()
    move = turn.move_to(24, 18)
    assert move.hit
    turn = turn.with_move(move).with_move(turn.with_move(move).move_to(24, 23))
    assert str(turn.play()) == "24/23 24/18*"
    with pytest.raises(IllegalPlayError, match="cannot go to the 7 point"):
        PartialVariantPlay(board, Dice(6, 1)).move_to(13, 7)


def test_long_nardi_offers_a_second_checker_from_the_head_only_on_a_first_6_6():
    start = Board.starting(variant_named("long-nardi"))
    turn = PartialVariantPlay(start, Dice(6, 6))
    turn = turn.with_move(turn.move_to(24, 18))
    assert 24 in turn.movable_points()
    turn = PartialVariantPlay(start, Dice(5, 5))
    turn = turn.with_move(turn.move_to(24, 19))
    assert turn.movable_points() == {19}
    assert turn.undo().moves == ()
