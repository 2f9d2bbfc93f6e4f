"""An independent move generator for acey-deucey's movement: a test oracle only.

Written from docs/variants.md alone (§1.1 the text board with its two counts of checkers
waiting to enter, §2 dice and legal-play selection, §4.2 acey-deucey's movement, §8 canonical
notation with ``in``), without reading or calling the engine's generator, so that comparing the
two on random reachable positions finds the mistakes of either. Simple beats fast: every order
of the dice is tried, every finished sequence of single moves is kept, then §2.2's selection is
applied to the sequences. Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

CHECKERS = 15
START = "0 " * 24 + "| 0 0 0 0 15 15"

#: Move sources and destinations that are not points: bar 25, in (waiting) 26, off 0.
BAR, IN, OFF = 25, 26, 0


class ImpossibleBoard(ValueError):
    """A text board that is malformed or not a valid acey-deucey board."""


@dataclass(frozen=True)
class Board:
    """An acey-deucey board from the mover's side: ``points[p - 1]`` is point p, positive for the
    mover's checkers; each pair of counts is (mover, opponent)."""

    points: tuple[int, ...]
    off: tuple[int, int]
    bar: tuple[int, int]
    waiting: tuple[int, int]

    def at(self, point: int) -> int:
        return self.points[point - 1]

    def text(self) -> str:
        counts = (*self.off, *self.bar, *self.waiting)
        return " ".join(map(str, self.points)) + " | " + " ".join(map(str, counts))

    def mover_total(self) -> int:
        on_points = sum(n for n in self.points if n > 0)
        return on_points + self.off[0] + self.bar[0] + self.waiting[0]

    def opponent_total(self) -> int:
        on_points = sum(-n for n in self.points if n < 0)
        return on_points + self.off[1] + self.bar[1] + self.waiting[1]

    def pips(self) -> tuple[int, int]:
        mover = sum(p * n for p, n in enumerate(self.points, 1) if n > 0)
        opponent = sum((25 - p) * -n for p, n in enumerate(self.points, 1) if n < 0)
        mover += 25 * (self.bar[0] + self.waiting[0])
        opponent += 25 * (self.bar[1] + self.waiting[1])
        return mover, opponent


def parse_board(text: str) -> Board:
    """Read an acey-deucey text board (§1.1): 24 tokens, `|`, six counts."""
    left, bar, right = text.partition("|")
    tokens, counts = left.split(), right.split()
    if not bar or len(tokens) != 24 or len(counts) != 6:
        raise ImpossibleBoard("24 points, |, six counts")
    for token in tokens + counts:
        digits = token[1:] if token.startswith("-") else token
        if not digits.isdigit() or (len(digits) > 1 and digits[0] == "0") or token == "-0":
            raise ImpossibleBoard(f"bad token {token!r}")
    if any(c.startswith("-") for c in counts):
        raise ImpossibleBoard("counts are not negative")
    n = [int(c) for c in counts]
    board = Board(tuple(int(t) for t in tokens), (n[0], n[1]), (n[2], n[3]), (n[4], n[5]))
    if board.mover_total() != CHECKERS or board.opponent_total() != CHECKERS:
        raise ImpossibleBoard("each side has 15 checkers")
    return board


def turned(board: Board) -> Board:
    """The board seen by the other player: point p becomes 25 - p, the colours swap."""
    return Board(
        tuple(-n for n in reversed(board.points)),
        board.off[::-1],
        board.bar[::-1],
        board.waiting[::-1],
    )


# --- single moves (§4.2) ----------------------------------------------------------------------


def _open(board: Board, point: int) -> bool:
    return board.at(point) >= -1


def _all_home(board: Board) -> bool:
    if board.bar[0] or board.waiting[0]:
        return False
    return all(n <= 0 for n in board.points[6:])


def _land(board: Board, point: int) -> tuple[Board, bool]:
    """The mover's checker arrives on ``point``: a lone opposing checker goes to its bar."""
    points = list(board.points)
    hit = points[point - 1] == -1
    points[point - 1] = 1 if hit else points[point - 1] + 1
    bar = (board.bar[0], board.bar[1] + 1) if hit else board.bar
    return replace(board, points=tuple(points), bar=bar), hit


def moves_of_die(board: Board, die: int) -> list[tuple[int, int, Board]]:
    """Every single move of ``die``: (source, destination, board after)."""
    found = []
    entry = 25 - die
    if board.bar[0] > 0:
        if _open(board, entry):
            after, _ = _land(replace(board, bar=(board.bar[0] - 1, board.bar[1])), entry)
            found.append((BAR, entry, after))
        return found
    if board.waiting[0] > 0 and _open(board, entry):
        left = replace(board, waiting=(board.waiting[0] - 1, board.waiting[1]))
        after, _ = _land(left, entry)
        found.append((IN, entry, after))
    mine = [p for p in range(1, 25) if board.at(p) > 0]
    home = _all_home(board)
    for source in mine:
        points = list(board.points)
        points[source - 1] -= 1
        lifted = replace(board, points=tuple(points))
        target = source - die
        if target >= 1:
            if _open(board, target):
                found.append((source, target, _land(lifted, target)[0]))
        elif home and (target == 0 or source == max(mine)):
            found.append((source, OFF, replace(lifted, off=(board.off[0] + 1, board.off[1]))))
    return found


# --- plays (§2.2) -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sequence:
    moves: tuple[tuple[int, int], ...]
    dice: tuple[int, ...]
    after: Board


def sequences(board: Board, d1: int, d2: int) -> list[Sequence]:
    """Every sequence of single moves that uses the dice in some order until it cannot go on."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: list[Sequence] = []

    def walk(current: Board, order: tuple[int, ...], moves: tuple, dice: tuple) -> None:
        options = [] if not order or current.off[0] == CHECKERS else moves_of_die(current, order[0])
        if not options:
            found.append(Sequence(moves, dice, current))
            return
        for source, destination, after in options:
            walk(after, order[1:], moves + ((source, destination),), dice + (order[0],))

    for order in orders:
        walk(board, order, (), ())
    return found


def legal_sequences(board: Board, d1: int, d2: int) -> list[Sequence]:
    """Most dice used (bearing off the last checker uses them all); else the larger die."""
    whole = 4 if d1 == d2 else 2

    def used(sequence: Sequence) -> int:
        return whole if sequence.after.off[0] == CHECKERS else len(sequence.dice)

    found = [s for s in sequences(board, d1, d2) if s.moves]
    if not found:
        return []
    most = max(used(s) for s in found)
    found = [s for s in found if used(s) == most]
    if most == 1 and d1 != d2:
        larger = [s for s in found if s.dice == (max(d1, d2),)]
        found = larger or found
    return found


# --- notation (§8) ----------------------------------------------------------------------------


def _rank(point: int) -> float:
    return {BAR: 25.0, IN: 24.5}.get(point, float(point))


def _name(point: int) -> str:
    return {BAR: "bar", IN: "in", OFF: "off"}.get(point, str(point))


def notation(before: Board, moves: tuple[tuple[int, int], ...]) -> str:
    """§8: sort, replay for the hits, join into paths, write, count and order."""
    ordered = sorted(moves, key=lambda m: (-_rank(m[0]), -m[1]))
    points = list(before.points)
    paths: list[list[tuple[int, bool]]] = []
    for source, destination in ordered:
        if 1 <= source <= 24:
            points[source - 1] -= 1
        hit = destination != OFF and points[destination - 1] == -1
        if destination != OFF:
            points[destination - 1] = 1 if hit else points[destination - 1] + 1
        joinable = [p for p in paths if p[-1][0] == source and p[-1][0] != OFF]
        if joinable:
            joinable[-1].append((destination, hit))
        else:
            paths.append([(source, False), (destination, hit)])
    texts: dict[tuple[float, int, bool, str], int] = {}
    for path in paths:
        stops = [path[0], *[s for s in path[1:-1] if s[1]], path[-1]]
        text = "/".join(_name(p) + ("*" if h else "") for p, h in stops)
        key = (_rank(path[0][0]), path[-1][0], "*" in text, text)
        texts[key] = texts.get(key, 0) + 1
    keys = sorted(texts, key=lambda k: (-k[0], -k[1], not k[2], k[3]))
    return " ".join(k[3] + (f"({texts[k]})" if texts[k] > 1 else "") for k in keys)


def spellings(board_text: str, d1: int, d2: int) -> dict[str, set[str]]:
    """Each legal board after (as text) with every spelling of the sequences that reach it."""
    board = parse_board(board_text)
    found: dict[str, set[str]] = {}
    for sequence in legal_sequences(board, d1, d2):
        found.setdefault(sequence.after.text(), set()).add(notation(board, sequence.moves))
    return found


def legal_plays(board_text: str, d1: int, d2: int) -> set[tuple[str, str]]:
    """The (NOTATION, BOARD_AFTER) lines ``moves --variant acey-deucey`` must print."""
    return {(min(texts), after) for after, texts in spellings(board_text, d1, d2).items()}


# --- random games -----------------------------------------------------------------------------


def _progress(after: Board) -> tuple[int, int, int]:
    """Borne off, checkers at home, checkers entered: what a player racing home wants."""
    home = sum(n for n in after.points[:6] if n > 0)
    return after.off[0], home, -after.waiting[0]


def random_positions(seed: int, pairs: int) -> Iterator[tuple[str, int, int]]:
    """``pairs`` reachable (BOARD, D1, D2) from games played with the oracle's own plays.

    Each play is chosen at random half the time (hits, checkers on the bar, checkers left
    waiting) and otherwise races home (bear-offs), so every rule comes up.
    """
    rng = random.Random(seed)
    produced = 0
    board = parse_board(START)
    while produced < pairs:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield board.text(), d1, d2
        produced += 1
        plays = sorted(legal_plays(board.text(), d1, d2))
        if plays:
            if rng.random() < 0.5:
                chosen = rng.choice(plays)[1]
            else:
                chosen = max((a for _, a in plays), key=lambda t: _progress(parse_board(t)))
            board = parse_board(chosen)
        board = parse_board(START) if board.off[0] == CHECKERS else turned(board)
