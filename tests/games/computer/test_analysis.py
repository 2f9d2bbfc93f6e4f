"""Post-match analysis over engine events: the known best play is found, mistakes are marked."""

from __future__ import annotations

from games.computer.review import BLUNDER, review_match
from games.engine import Dice, Double, OpeningRoll, PlayMade, Roll, Take


def test_the_known_best_opening_plays_are_found_and_a_poor_one_marked():
    events = [
        OpeningRoll((3, 1)),
        PlayMade(0, "24/23 24/21"),
        Roll(1, Dice(4, 2)),
        PlayMade(1, "8/4 6/4"),
    ]
    review = review_match(5, events, plies=1)
    first, second = review.decisions
    assert (first.index, first.player, first.kind) == (1, 0, "checker")
    blunder, best = first.opinions["bgsage"], second.opinions["bgsage"]
    assert blunder.best == "8/5 6/5"
    assert blunder.equity_lost >= BLUNDER and blunder.mark == "blunder"
    assert best.best == second.chosen == "8/4* 6/4"
    assert best.equity_lost == 0 and best.mark == ""
    assert list(review.engines) == ["bgsage"] and not first.disputed
    figures = review.to_json()["players"]["bgsage"]
    assert figures[0]["blunders"] == 1 and figures[0]["error_rate"] == 1.0
    assert figures[0]["performance_rating"] == round(500 * blunder.equity_lost, 2)
    assert figures[1] == {
        "decisions": 1,
        "errors": 0,
        "blunders": 0,
        "equity_lost": 0.0,
        "error_rate": 0.0,
        "performance_rating": 0.0,
    }


def test_an_early_double_is_a_blunder_and_the_take_is_right():
    events = [
        OpeningRoll((3, 1)),
        PlayMade(0, "8/5 6/5"),
        Double(1),
        Take(0),
    ]
    cube, take = review_match(5, events, plies=1).decisions[1:]
    double, answer = cube.opinions["bgsage"], take.opinions["bgsage"]
    assert (cube.kind, cube.chosen, double.best, double.mark) == (
        "cube",
        "Double",
        "No double",
        "blunder",
    )
    assert (take.kind, take.player, take.chosen, answer.best) == ("take", 0, "Take", "Take")
    assert answer.equity_lost == 0
