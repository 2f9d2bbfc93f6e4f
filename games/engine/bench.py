"""The engine benchmark: legal_plays against bgsage's possible_moves on the same positions."""

from __future__ import annotations

import time
from collections.abc import Callable

from .legal import legal_plays
from .oracle import _bgsage
from .selfplay import self_play_pairs


def _best_time(run: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def bench(pairs: int = 10_000, seed: int = 2026, repeat: int = 5) -> list[str]:
    """Time both generators on the same seeded self-play sample; the last line is the ratio."""
    sample = self_play_pairs(pairs, seed)
    possible_moves = _bgsage().possible_moves
    boards = [(list(position.points), dice.first, dice.second) for position, dice in sample]

    def ours() -> None:
        for position, dice in sample:
            legal_plays(position, dice)

    def theirs() -> None:
        for board, first, second in boards:
            possible_moves(board, first, second)

    ours_time = _best_time(ours, repeat)
    theirs_time = _best_time(theirs, repeat)
    return [
        f"pairs: {pairs} (seed {seed}, best of {repeat})",
        f"legal_plays: {pairs / ours_time:,.0f} per second ({ours_time * 1e6 / pairs:.1f} us each)",
        f"bgsage possible_moves: {pairs / theirs_time:,.0f} per second "
        f"({theirs_time * 1e6 / pairs:.1f} us each)",
        f"ratio: {ours_time / theirs_time:.2f}",
    ]
