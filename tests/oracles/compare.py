"""Compare the engine's command line with the independent oracle on random reachable positions.

    python tests/oracles/compare.py --variant fevga --pairs 50000 --seed 1 --engine-cwd /work/main

Prints how many (board, dice) pairs were compared and every disagreement: the board, the dice,
the lines only the engine printed and the lines only the oracle expects. Exits 1 when any pair
disagrees.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.oracles.variants_oracle import (  # noqa: E402
    PLAY_STYLES,
    VARIANTS,
    legal_plays,
    random_positions,
)

REPO_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Disagreement:
    variant: str
    board: str
    dice: tuple[int, int]
    only_in_engine: frozenset[tuple[str, str]]
    only_in_oracle: frozenset[tuple[str, str]]

    def describe(self) -> str:
        lines = [f"{self.variant}\t{self.board}\t{self.dice[0]} {self.dice[1]}"]
        lines += [f"  only in engine: {n}\t{b}" for n, b in sorted(self.only_in_engine)]
        lines += [f"  only in oracle: {n}\t{b}" for n, b in sorted(self.only_in_oracle)]
        return "\n".join(lines)


def engine_answers(
    requests: list[tuple[str, str, int, int]], engine_cwd: Path, python: str
) -> list[set[tuple[str, str]]]:
    """Ask the engine's `moves --batch` for every (variant, board, d1, d2), in order."""
    stdin = "".join(f"{v}\t{board}\t{d1} {d2}\n" for v, board, d1, d2 in requests)
    finished = subprocess.run(
        [python, "-m", "games.engine", "moves", "--batch"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=engine_cwd,
        check=False,
    )
    if finished.returncode != 0:
        raise RuntimeError(f"the engine exited {finished.returncode}: {finished.stderr.strip()}")
    answers: list[set[tuple[str, str]]] = []
    current: set[tuple[str, str]] = set()
    for line in finished.stdout.splitlines():
        if line == "--":
            answers.append(current)
            current = set()
            continue
        notation, _tab, board_after = line.partition("\t")
        current.add((notation, board_after))
    if len(answers) != len(requests):
        raise RuntimeError(f"{len(requests)} questions, {len(answers)} answers")
    return answers


def compare(
    variant: str,
    pairs: int,
    seed: int,
    engine_cwd: Path,
    python: str = sys.executable,
    style: str = "uniform",
) -> list[Disagreement]:
    """Every pair of `pairs` random reachable positions where the engine and oracle differ."""
    positions = random_positions(variant, seed, pairs, style)
    requests = [(variant, board, d1, d2) for board, d1, d2 in positions]
    found = []
    batch = 5000
    for start in range(0, len(requests), batch):
        chunk = requests[start : start + batch]
        for (v, board, d1, d2), engine in zip(
            chunk, engine_answers(chunk, engine_cwd, python), strict=True
        ):
            oracle = legal_plays(v, board, d1, d2)
            if engine != oracle:
                found.append(
                    Disagreement(
                        v,
                        board,
                        (d1, d2),
                        frozenset(engine - oracle),
                        frozenset(oracle - engine),
                    )
                )
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=(*VARIANTS, "all"), default="all")
    parser.add_argument("--pairs", type=int, default=50_000, help="pairs per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine-cwd", type=Path, default=REPO_ROOT)
    parser.add_argument("--python", default=sys.executable, help="the engine's interpreter")
    parser.add_argument("--style", choices=PLAY_STYLES, default="uniform", help="random games")
    args = parser.parse_args()
    variants = VARIANTS if args.variant == "all" else (args.variant,)
    total = 0
    for variant in variants:
        found = compare(variant, args.pairs, args.seed, args.engine_cwd, args.python, args.style)
        total += len(found)
        for disagreement in found:
            print(disagreement.describe())
        print(
            f"{variant} ({args.style} games, seed {args.seed}): {args.pairs} pairs compared, "
            f"{len(found)} disagree",
            flush=True,
        )
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
