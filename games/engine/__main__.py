"""The engine's command line: legal plays of any variant, the benchmark, the oracle check.

    python -m games.engine moves POSITION_ID D1 D2
    python -m games.engine moves --variant V BOARD D1 D2
    python -m games.engine moves --batch
    python -m games.engine bench [--pairs N] [--seed S] [--repeat R]
    python -m games.engine compare [--pairs N] [--seed S] [--variant V]

BOARD is the text board of docs/variants.md (or, for backgammon, nackgammon and hypergammon, a
Position ID; acey-deucey's adds the checkers waiting to enter: ``... | 0 0 0 0 15 15``, and its
``1 2`` lists the plays of the 1 and the 2 alone; Gul Bara's climbing doubles are one call a
double: ``3 3``, then ``4 4`` on the board after, ...); each answer line is
NOTATION<TAB>BOARD_AFTER, the board still seen from the mover's side. --batch reads lines
``VARIANT<TAB>BOARD<TAB>D1 D2`` or ``POSITION_ID D1 D2`` and ends each answer with a line
``--``. Bad input exits 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from .board import Board
from .dice import Dice, check_die
from .errors import EngineError
from .legal import legal_plays
from .play import format_play
from .position import Position
from .variant_moves import variant_plays
from .variants import variant_named


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def moves_lines(position_text: str, first: str, second: str) -> list[str]:
    """``NOTATION<TAB>POSITION_ID_AFTER`` for each legal play, from the mover's side."""
    position = Position.from_position_id(position_text)
    dice = Dice(_die(first), _die(second))
    return [
        f"{format_play(play)}\t{position.apply(play).position_id()}"
        for play in legal_plays(position, dice)
    ]


def variant_moves_lines(variant_name: str, board_text: str, first: str, second: str) -> list[str]:
    """``NOTATION<TAB>BOARD_AFTER`` for each legal play of the variant, from the mover's side.

    The board after is written as the board was given: a text board, or a Position ID.
    """
    variant = variant_named(variant_name)
    board = Board.parse(variant, board_text)
    dice = Dice(_die(first), _die(second))
    as_id = "|" not in board_text
    return [
        f"{play.notation}\t{play.after.position_id() if as_id else play.after.text()}"
        for play in variant_plays(board, dice)
    ]


def _die(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None:
        raise EngineError(f"a die shows 1 to 6, not {text!r}")
    return check_die(value)


def _batch(lines: Sequence[str]) -> int:
    out = sys.stdout
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            answer = _batch_answer(line.rstrip("\r\n"), number)
        except EngineError as error:
            _fail(f"line {number}: {error}")
        out.write("".join(f"{text}\n" for text in answer) + "--\n")
    return 0


def _batch_answer(line: str, number: int) -> list[str]:
    if "\t" in line:
        fields = line.split("\t")
        dice = fields[-1].split() if len(fields) == 3 else []
        if len(dice) != 2:
            _fail(f"line {number}: expected VARIANT<TAB>BOARD<TAB>D1 D2, got {line.strip()!r}")
        return variant_moves_lines(fields[0].strip(), fields[1], *dice)
    fields = line.split()
    if len(fields) != 3:
        _fail(f"line {number}: expected POSITION_ID D1 D2, got {line.strip()!r}")
    return moves_lines(*fields)


def _fail(message: str) -> NoReturn:
    sys.stdout.flush()
    sys.stderr.write(f"error: {message}\n")
    raise SystemExit(2)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m games.engine", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    moves = commands.add_parser("moves", help="list the legal plays of a roll")
    moves.add_argument(
        "--batch",
        action="store_true",
        help="read VARIANT<TAB>BOARD<TAB>D1 D2 or POSITION_ID D1 D2 lines",
    )
    moves.add_argument(
        "--variant",
        help="the rules: backgammon, nackgammon, ..., long-nardi, acey-deucey, gul-bara, jacquet",
    )
    moves.add_argument("args", nargs="*", metavar="[BOARD|POSITION_ID] D1 D2")
    for name in ("bench", "compare"):
        command = commands.add_parser(name)
        command.add_argument("--pairs", type=int, default=10_000 if name == "bench" else 100_000)
        command.add_argument("--seed", type=int, default=2026)
        if name == "bench":
            command.add_argument("--repeat", type=int, default=5)
        else:
            command.add_argument(
                "--variant", help="a hitting variant to check with the family's generator"
            )
    args = parser.parse_args(argv)

    if args.command == "moves":
        if args.batch:
            if args.args:
                _fail("--batch reads its input from stdin and takes no arguments")
            if args.variant is not None:
                _fail("--batch reads each line's variant from stdin: VARIANT<TAB>BOARD<TAB>D1 D2")
            return _batch(sys.stdin.readlines())
        if len(args.args) != 3:
            _fail("usage: python -m games.engine moves [--variant V BOARD | POSITION_ID] D1 D2")
        try:
            if args.variant is None:
                lines = moves_lines(*args.args)
            else:
                lines = variant_moves_lines(args.variant, *args.args)
        except EngineError as error:
            _fail(str(error))
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        return 0
    if args.command == "bench":
        from .bench import bench

        for line in bench(args.pairs, args.seed, args.repeat):
            print(line, flush=True)
        return 0
    if args.variant is not None:
        return _compare_variant(args.variant, args.pairs, args.seed)
    from .oracle import disagreements
    from .selfplay import self_play_pairs

    found = disagreements(self_play_pairs(args.pairs, args.seed))
    for position, dice, ours, theirs in found[:10]:
        print(f"{position.position_id()} {dice}: ours {len(ours)}, bgsage {len(theirs)}")
    print(f"pairs: {args.pairs} disagreements: {len(found)}")
    return 1 if found else 0


def _compare_variant(name: str, pairs: int, seed: int) -> int:
    """bgsage against the family's generator on self-play boards of a hitting variant."""
    from .oracle import variant_disagreements
    from .selfplay import variant_self_play_pairs

    try:
        variant = variant_named(name)
    except EngineError as error:
        _fail(str(error))
    if not variant.hits:
        _fail(f"bgsage plays no {variant.name}: it is an oracle for hitting variants only")
    if variant.enters_from_off_board:
        _fail(f"bgsage plays no {variant.name}: its checkers all start on the board")
    found = variant_disagreements(variant_self_play_pairs(variant, pairs, seed))
    for board, dice, ours, theirs in found[:10]:
        print(f"{board.text()} {dice}: ours {len(ours)}, bgsage {len(theirs)}")
    print(f"variant: {variant.name} pairs: {pairs} disagreements: {len(found)}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
