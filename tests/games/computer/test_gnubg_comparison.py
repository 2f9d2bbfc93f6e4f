"""Our gnubg-based analysis against GNU Backgammon's own verdicts, decision by decision.

Matches played by the bots (Beginner against Intermediate, from seeded dice; of 1 point, and
of 3 points with doubles, takes and drops) are exported as .mat files and
analysed as the service analyses a match: Debian's gnubg imports the file and analyses it at
2 ply (gnubg's own count) while bgsage reviews it at 2 ply. gnubg's own verdicts are what it
says itself in that analysis: its mark on each decision at our error threshold ("doubtful"
from 0.04) and each player's figures in its statistics (unforced plays and close or actual
cube decisions, and the equity they lost). Ours are what ``review_match`` makes of the
equities gnubg gives: which decisions count, what each lost.

Our gnubg-based figures must agree with gnubg's on errors for at least 98% of decisions, and
each player's PR must be within 0.5 of gnubg's. bgsage's agreement and PR are printed beside
them (run with -s). Slow; skipped where gnubg is not installed. CI plays four of the ten
matches of the acceptance run (two of 1 point, two of 3); ``GNUBG_COMPARISON=all`` plays all ten.
"""

from __future__ import annotations

import bisect
import os
import random
import time
from dataclasses import dataclass

import pytest

from games.computer.decisions import level_named
from games.computer.duel import play_bot_match
from games.computer.gnubg import GnubgAnalysis, GnubgRecord, GnubgRun
from games.computer.review import ENGINES, ERROR, DecisionReview, MatchReview, review_match
from games.engine import Double, Drop, Event, PlayMade, Roll, Take
from games.engine.mat import export_mat
from tests.conftest import GNUBG, NO_GNUBG

pytestmark = [pytest.mark.slow, pytest.mark.skipif(GNUBG is None, reason=NO_GNUBG)]

LEVELS = (level_named("beginner"), level_named("intermediate"))
#: (match length, seed of the dice and the bots' noise)
ALL_MATCHES = [(1, seed) for seed in (1, 3, 6, 11, 12, 16, 19)] + [(3, seed) for seed in (3, 5, 7)]
MATCHES = (
    ALL_MATCHES if os.environ.get("GNUBG_COMPARISON") == "all" else [(1, 1), (1, 3), (3, 3), (3, 5)]
)
PLIES = 2


@dataclass(frozen=True)
class Compared:
    """One match: how many decisions were compared, on how many each engine's error verdict
    was gnubg's own, and each player's PR by each engine and by gnubg's statistics."""

    length: int
    seed: int
    decisions: int
    agreeing: dict[str, int]
    ratings: dict[str, tuple[float, ...]]
    seconds: float


def gnubg_errors(
    review: MatchReview, analysis: GnubgAnalysis, length: int, events: list[Event]
) -> tuple[dict[int, bool], int]:
    """gnubg's own verdict (marked or not) on each of our decisions, and how many decisions
    gnubg marked that are not among ours."""
    records = analysis.by_event(length, events)
    keys = sorted(records)
    verdicts: dict[int, bool] = {}
    covered: set[tuple[int, str]] = set()
    for decision in review.decisions:
        key, mark = _gnubg_record(decision, events, records, keys)
        covered.add((key, mark))
        verdicts[decision.index] = bool(getattr(records[key], mark))
    missed = sum(
        1
        for key, record in records.items()
        for mark in ("play_mark", "cube_mark")
        if getattr(record, mark) and (key, mark) not in covered
    )
    return verdicts, missed


def _gnubg_record(
    decision: DecisionReview,
    events: list[Event],
    records: dict[int, GnubgRecord],
    keys: list[int],
) -> tuple[int, str]:
    event = events[decision.index]
    if isinstance(event, PlayMade):
        return decision.index, "play_mark"
    if isinstance(event, Roll):
        return keys[bisect.bisect_left(keys, decision.index)], "cube_mark"
    assert isinstance(event, Double | Take | Drop)
    return decision.index, "cube_mark"


def compare(length: int, seed: int) -> Compared:
    started = time.perf_counter()
    events: list[Event] = []
    play_bot_match(length, LEVELS, random.Random(seed), events)
    if length > 1:
        assert any(isinstance(event, Double) for event in events)
    assert GNUBG is not None
    run = GnubgRun.start(export_mat(("first", "second"), length, events), program=GNUBG)
    analyses: list[GnubgAnalysis] = []

    def gnubg_analysis() -> GnubgAnalysis:
        analyses.append(run.result())
        return analyses[-1]

    review = review_match(length, events, plies=PLIES, second_opinion=gnubg_analysis)
    assert list(review.engines) == ["bgsage", "gnubg"], review.unavailable
    (analysis,) = analyses
    verdicts, missed = gnubg_errors(review, analysis, length, events)
    agreeing = {}
    for engine in ENGINES:
        agreeing[engine] = sum(
            ((opinion := decision.opinion(engine)) is not None and opinion.equity_lost >= ERROR)
            == verdicts[decision.index]
            for decision in review.decisions
        )
    ratings = {
        engine: tuple(review.player(player, engine).performance_rating for player in (0, 1))
        for engine in ENGINES
    }
    own = tuple(figures.performance_rating for figures in analysis.figures)
    return Compared(
        length,
        seed,
        len(review.decisions) + missed,
        agreeing,
        {**ratings, "gnubg's own": own},
        time.perf_counter() - started,
    )


def test_our_gnubg_figures_agree_with_gnubgs_own_on_bot_matches() -> None:
    compared = [compare(length, seed) for length, seed in MATCHES]

    print()
    print(
        "match     decisions  errors agree: gnubg  bgsage   PR first/second: gnubg's own"
        "   ours (gnubg)   bgsage      seconds"
    )
    for c in compared:
        own, ours, sage = c.ratings["gnubg's own"], c.ratings["gnubg"], c.ratings["bgsage"]
        print(
            f"{c.length}pt #{c.seed:<4} {c.decisions:9d}  "
            f"{c.agreeing['gnubg'] / c.decisions:17.1%} {c.agreeing['bgsage'] / c.decisions:7.1%}"
            f"   {own[0]:6.2f} {own[1]:6.2f}      {ours[0]:6.2f} {ours[1]:6.2f}  "
            f"{sage[0]:6.2f} {sage[1]:6.2f}  {c.seconds:7.1f}"
        )
    decisions = sum(c.decisions for c in compared)
    gnubg_share = sum(c.agreeing["gnubg"] for c in compared) / decisions
    sage_share = sum(c.agreeing["bgsage"] for c in compared) / decisions
    gaps = [
        abs(c.ratings["gnubg"][player] - c.ratings["gnubg's own"][player])
        for c in compared
        for player in (0, 1)
    ]
    sage_gaps = [
        abs(c.ratings["bgsage"][player] - c.ratings["gnubg's own"][player])
        for c in compared
        for player in (0, 1)
    ]
    print(
        f"all {decisions} decisions: errors agree with gnubg's marks for {gnubg_share:.2%} "
        f"(our gnubg figures), {sage_share:.2%} (bgsage); largest PR gap from gnubg's own: "
        f"{max(gaps):.3f} (our gnubg figures), {max(sage_gaps):.2f} (bgsage); "
        f"{sum(c.seconds for c in compared):.0f} s"
    )
    assert sum(c.length > 1 for c in compared) >= 2
    assert gnubg_share >= 0.98
    assert max(gaps) <= 0.5
