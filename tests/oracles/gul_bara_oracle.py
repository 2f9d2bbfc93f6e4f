"""An independent move generator for Gul Bara: a test oracle only.

Written from the rules (docs/variants.md §6.1, after [W-GulBara], [bingo-gulbara],
[eighty-gulbara] and [sp-gulbara]; §1.1 the text board, §2 dice and legal-play selection, §8
canonical notation) without reading or calling the engine's generator, so that comparing the two
on random reachable positions finds the mistakes of either. Simple beats fast: every order of
the dice is tried, every finished sequence of single moves is kept, then §2.2's selection is
applied to the sequences. Standard library only.

The rules, as this file reads them: both sides start with 15 on their own 24 (the mover's 24 and
12), both run 24 to 1 in their own numbering, so the opponent's point q is the mover's q + 12
or q - 12; a checker may land on an empty point or one of its own, never on a point with any
opposing checker (there is no hitting); bearing off once all fifteen not yet off stand on 1..6,
a die d from point d, a die higher than the highest point from the highest point; a double is
four moves of its number, and from a player's fourth turn on it is followed by each higher
double up to 6-6 while each is played in full (each double is a separate question here).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

CHECKERS = 15
START = " ".join(["0"] * 11 + ["-15"] + ["0"] * 11 + ["15"]) + " | 0 0 0 0"
OFF = 0
CLIMB_FROM_TURN = 4


class ImpossibleBoard(ValueError):
    """A text board that is malformed or not a valid Gul Bara board."""


@dataclass(frozen=True)
class Board:
    """A Gul Bara board from the mover's side: ``points[p - 1]`` is point p, positive for the
    mover's checkers, negative for the opponent's; ``off`` is (mover, opponent)."""

    points: tuple[int, ...]
    off: tuple[int, int]

    def at(self, point: int) -> int:
        return self.points[point - 1]

    def text(self) -> str:
        return " ".join(map(str, self.points)) + f" | {self.off[0]} {self.off[1]} 0 0"

    def pips(self) -> tuple[int, int]:
        mover = sum(p * n for p, n in enumerate(self.points, 1) if n > 0)
        opponent = sum(own_number(p) * -n for p, n in enumerate(self.points, 1) if n < 0)
        return mover, opponent


def own_number(point: int) -> int:
    """The opponent's own number of the mover's ``point`` (and back: the map is its own
    inverse): half the board round."""
    return point + 12 if point <= 12 else point - 12


def parse_board(text: str) -> Board:
    """Read a Gul Bara text board (§1.1): 24 signed counts, `|`, four counts, the bars 0."""
    left, bar, right = text.partition("|")
    tokens, counts = left.split(), right.split()
    if not bar or len(tokens) != 24 or len(counts) != 4:
        raise ImpossibleBoard("24 points, |, four counts")
    for token in tokens + counts:
        digits = token[1:] if token.startswith("-") else token
        if not digits.isdigit() or (len(digits) > 1 and digits[0] == "0") or token == "-0":
            raise ImpossibleBoard(f"bad token {token!r}")
    if any(c.startswith("-") for c in counts) or counts[2:] != ["0", "0"]:
        raise ImpossibleBoard("counts are not negative and nobody is on a bar")
    points = tuple(int(t) for t in tokens)
    board = Board(points, (int(counts[0]), int(counts[1])))
    if sum(n for n in points if n > 0) + board.off[0] != CHECKERS:
        raise ImpossibleBoard("the mover has 15 checkers")
    if sum(-n for n in points if n < 0) + board.off[1] != CHECKERS:
        raise ImpossibleBoard("the opponent has 15 checkers")
    return board


def turned(board: Board) -> Board:
    """The board seen by the other player: their point q is our own_number(q), colours swap."""
    points = tuple(-board.at(own_number(q)) for q in range(1, 25))
    return Board(points, board.off[::-1])


# --- single moves -----------------------------------------------------------------------------


def _all_home(board: Board) -> bool:
    return all(n <= 0 for n in board.points[6:])


def _with(board: Board, source: int, destination: int) -> Board:
    points = list(board.points)
    points[source - 1] -= 1
    off = board.off
    if destination == OFF:
        off = (off[0] + 1, off[1])
    else:
        points[destination - 1] += 1
    return Board(tuple(points), off)


def moves_of_die(board: Board, die: int) -> list[tuple[int, int, Board]]:
    """Every single move of ``die``: (source, destination, board after)."""
    found = []
    mine = [p for p in range(1, 25) if board.at(p) > 0]
    home = _all_home(board)
    for source in mine:
        target = source - die
        if target >= 1:
            if board.at(target) >= 0:
                found.append((source, target, _with(board, source, target)))
        elif home and (target == 0 or source == max(mine)):
            found.append((source, OFF, _with(board, source, OFF)))
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


# --- notation (§8, no marks: nothing is hit or pinned) ----------------------------------------


def notation(moves: tuple[tuple[int, int], ...]) -> str:
    """§8: sort, join into paths, write the ends, count and order."""
    paths: list[list[int]] = []
    for source, destination in sorted(moves, key=lambda m: (-m[0], -m[1])):
        joinable = [path for path in paths if path[-1] == source and path[-1] != OFF]
        if joinable:
            joinable[-1].append(destination)
        else:
            paths.append([source, destination])
    counted: dict[tuple[int, int], int] = {}
    for path in paths:
        ends = (path[0], path[-1])
        counted[ends] = counted.get(ends, 0) + 1
    written = []
    for first, last in sorted(counted, key=lambda ends: (-ends[0], -ends[1])):
        text = f"{first}/{'off' if last == OFF else last}"
        n = counted[(first, last)]
        written.append(text if n == 1 else f"{text}({n})")
    return " ".join(written)


def spellings(board_text: str, d1: int, d2: int) -> dict[str, set[str]]:
    """Each legal board after (as text) with every spelling of the sequences that reach it."""
    board = parse_board(board_text)
    found: dict[str, set[str]] = {}
    for sequence in legal_sequences(board, d1, d2):
        found.setdefault(sequence.after.text(), set()).add(notation(sequence.moves))
    return found


def legal_plays(board_text: str, d1: int, d2: int) -> set[tuple[str, str]]:
    """The (NOTATION, BOARD_AFTER) lines ``moves --variant gul-bara`` must print."""
    return {(min(texts), after) for after, texts in spellings(board_text, d1, d2).items()}


def played_in_full(board_text: str, number: int) -> bool:
    """Whether the legal plays of ``number``-``number`` use all four moves (or bear off the last
    checker): every legal play uses as many dice as any other."""
    found = legal_sequences(parse_board(board_text), number, number)
    return bool(found) and (len(found[0].moves) == 4 or found[0].after.off[0] == CHECKERS)


# --- random games -----------------------------------------------------------------------------


def _progress(after: Board) -> tuple[int, int, int]:
    """Borne off, checkers at home, pips left (fewer is better): a player racing home."""
    home = sum(n for n in after.points[:6] if n > 0)
    return after.off[0], home, -after.pips()[0]


def random_positions(seed: int, pairs: int) -> Iterator[tuple[str, int, int]]:
    """``pairs`` reachable (BOARD, D1, D2) from games played with the oracle's own plays.

    Each play is chosen at random half the time and otherwise races home (bear-offs). From a
    player's fourth turn on, a double played in full is followed in the same turn by the next
    higher one, each a pair of its own, so the boards of a climb are met too.
    """
    rng = random.Random(seed)
    produced = 0
    board = parse_board(START)
    turns = [0, 0]
    player = 0
    while produced < pairs:
        turns[player] += 1
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        while produced < pairs:
            yield board.text(), d1, d2
            produced += 1
            plays = sorted(legal_plays(board.text(), d1, d2))
            if not plays:
                break
            if rng.random() < 0.5:
                chosen = rng.choice(plays)[1]
            else:
                chosen = max((a for _, a in plays), key=lambda t: _progress(parse_board(t)))
            full = d1 == d2 and played_in_full(board.text(), d1)
            board = parse_board(chosen)
            climbs = turns[player] >= CLIMB_FROM_TURN and full and d1 < 6
            if board.off[0] == CHECKERS or not climbs:
                break
            d1 = d2 = d1 + 1
        if board.off[0] == CHECKERS:
            board, turns, player = parse_board(START), [0, 0], 0
        else:
            board, player = turned(board), 1 - player
