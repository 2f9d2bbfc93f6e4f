"""The raters scored on matches the engine played (ratings/engine_play.py, manage.py
rating_engine_data and rating_engine_score)."""

from __future__ import annotations

import csv
import math
import random
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from ratings import fibs
from ratings.engine_play import (
    FibsRater,
    PlayedMatch,
    fitted_shapes,
    read_matches,
    reordered,
    score,
)

#: Players whose FIBS strengths are known: a stand-in for the engine's levels.
STRENGTHS = {"weak": 1300.0, "fair": 1500.0, "good": 1700.0, "strong": 1900.0}


def played(matches: int, seed: int = 3) -> list[PlayedMatch]:
    """Matches of 1 to 17 points between the players above, decided by FIBS's formula."""
    dice = random.Random(seed)
    found = []
    for _ in range(matches):
        first, second = dice.sample(sorted(STRENGTHS), 2)
        length = dice.choice(range(1, 18, 2))
        chance = fibs.win_probability(STRENGTHS[first], STRENGTHS[second], length)
        found.append(PlayedMatch(first, second, length, dice.random() < chance))
    return found


def test_every_rater_learns_the_order_of_strength_and_beats_a_coin():
    result = score(played(600))
    assert result.matches == 600 and result.scored == 300
    assert [rater.name for rater in result.raters] == ["Glicko-2", "length-aware", "FIBS"]
    for rater in result.raters:
        assert rater.log_loss < math.log(2) and rater.brier < 0.25
        assert sorted(rater.ratings, key=rater.ratings.get) == ["weak", "fair", "good", "strong"]
        assert sum(count for _, count in rater.by_length.values()) == 300


def test_frozen_raters_stop_learning_at_the_first_part():
    matches = played(200)
    frozen, learning = score(matches, frozen=True), score(matches)
    first_part = score(matches[:101], held_out_share=1 / 101, frozen=True)
    for stopped, going_on, fitted in zip(
        frozen.raters, learning.raters, first_part.raters, strict=True
    ):
        assert stopped.ratings == fitted.ratings != going_on.ratings
    assert frozen.frozen and not learning.frozen


def test_the_fibs_rater_rates_both_players_from_their_ratings_before_the_match():
    rater = FibsRater(2)
    rater.rate(0, 1, 1, True)
    assert rater.ratings == [1510.0, 1490.0] and rater.experience == [1, 1]
    assert rater.chance(0, 1, 1) == fibs.win_probability(1510, 1490, 1)


def test_matches_decided_by_fibss_formula_bear_out_its_square_root():
    figures = fitted_shapes(played(400), exponents=(0.0, 0.5, 1.0))
    likelihood = {exponent: in_sample for exponent, (_, in_sample) in figures.items()}
    assert likelihood[0.5] > likelihood[0.0] and likelihood[0.5] > likelihood[1.0]
    assert all(held_out < math.log(2) for held_out, _ in figures.values())


def test_random_orders_are_seeded():
    matches = played(120)
    first = reordered(matches, 3, seed=5)
    assert first == reordered(matches, 3, seed=5)
    assert first != reordered(matches, 3, seed=6)
    assert [len(losses) for losses in first.values()] == [3, 3, 3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("number,first,second,length\n", "no column winner"),
        ("number,first,second,length,winner\n", "no match"),
        ("number,first,second,length,winner\n0,a,b,x,a\n", "line 2: number and length"),
        ("number,first,second,length,winner\n0,a,b,0,a\n", "at least 1 point"),
        ("number,first,second,length,winner\n0,a,b,3,c\n", "the winner one of them"),
        ("number,first,second,length,winner\n0,a,a,3,a\n", "two players"),
    ],
)
def test_a_bad_matches_file_is_refused_with_its_reason(text, message):
    with pytest.raises(ValueError, match=message):
        read_matches(StringIO(text))


def test_matches_are_read_in_the_order_of_their_numbers():
    text = "number,first,second,length,winner\n1,a,b,3,b\n0,b,a,5,b\n"
    assert read_matches(StringIO(text)) == [
        PlayedMatch("b", "a", 5, True),
        PlayedMatch("a", "b", 3, False),
    ]


def test_the_score_command_prints_the_table(tmp_path: Path):
    path = tmp_path / "matches.csv"
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["number", "first", "second", "length", "winner", "games"])
        for number, match in enumerate(played(80)):
            winner = match.first if match.first_won else match.second
            writer.writerow([number, match.first, match.second, match.length, winner, 1])
    out = StringIO()
    call_command("rating_engine_score", str(path), "--orders", "3", "--shapes", stdout=out)
    text = out.getvalue()
    result = score(read_matches(path.open()))
    assert "80 matches; scored on the last 40 (learning on)" in text
    for rater in result.raters:
        assert f"{rater.name:<14}{rater.log_loss:9.4f}{rater.brier:8.4f}" in text
    best = min(result.raters, key=lambda rater: rater.log_loss)
    worst = max(result.raters, key=lambda rater: rater.log_loss)
    assert f"{worst.name} - {best.name}: +{worst.log_loss - best.log_loss:.4f} log loss" in text
    assert "in 3 random orders of the same matches" in text
    assert "strengths fitted by maximum likelihood" in text and "\n 0.50" in text
    with pytest.raises(CommandError, match="no column"):
        bad = tmp_path / "bad.csv"
        bad.write_text("a,b\n1,2\n")
        call_command("rating_engine_score", str(bad))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("rating_engine_score", str(tmp_path / "none.csv"))


def test_the_data_command_plays_seeded_matches_between_the_levels(tmp_path: Path):
    from games.management.commands.rating_engine_data import PLAYERS, scheduled

    assert [player.name for player in PLAYERS][1::2] == [
        "beginner",
        "intermediate",
        "advanced",
        "expert",
    ]
    assert scheduled(2026, 5) == scheduled(2026, 5) != scheduled(2027, 5)
    first, second, length = scheduled(7, 0)  # a short match between two one-ply players
    assert (first.name, second.name, length) == ("casual", "club", 1)
    paths = [tmp_path / "one.csv", tmp_path / "two.csv"]
    for path in paths:
        call_command(
            "rating_engine_data", str(path), "--matches", "1", "--seed", "7", stdout=StringIO()
        )
    assert paths[0].read_text() == paths[1].read_text()
    (match,) = read_matches(paths[0].open())
    assert (match.first, match.second, match.length) == ("casual", "club", 1)
    with pytest.raises(CommandError, match="at least 1"):
        call_command("rating_engine_data", str(paths[0]), "--matches", "0")
