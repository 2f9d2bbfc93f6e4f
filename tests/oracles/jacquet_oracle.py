"""An independent move generator for Jacquet: a test oracle only.

Written from the rules as docs/variants.md §7.1 gives them from the French sources (the
Académie des jeux oubliés, Wikipédia's "Jacquet (jeu)", the compendia quoted there), with §1 the
text board, §2 dice and legal-play selection and §8 the notation, without reading or calling the
engine's generator, so that comparing the two on random reachable positions finds the mistakes
of either. Simple beats fast: every order of the dice is tried, every finished sequence of
single moves is kept, then §2.2's selection is applied. Standard library only.

The rules, as this file applies them:

- 15 checkers a side; the mover starts on its 24 (the talon), the opponent on the mover's 12;
  both run the same way round, the mover 24 -> 1, the opponent 12 -> 1, then 24 -> 13.
- A point holding any opposing checker is closed, to a checker's last stop and to every stop
  on the way (no hitting, no bar).
- The courier: until a checker of the mover's has reached 1..6 (or been borne off), a checker
  may leave the talon only while every checker the mover has in play is on the talon.
- The blockade: a move onto a point the mover did not hold, after which that point is one of six
  or more held in a row along the opponent's path, is refused unless the mover then holds its
  1 and 2 points.
- Bearing off once every checker in play is on 1..6: a die bears off from its own point, or from
  the highest point held when no checker stands higher than the die.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

CHECKERS = 15
START = "0 " * 11 + "-15 " + "0 " * 11 + "15 | 0 0 0 0"
OFF = 0
TALON = 24
OPPONENT_PATH = list(range(12, 0, -1)) + list(range(24, 12, -1))
"""The mover's points in the order the opponent's checkers pass them."""
STEP_ON_THEIR_PATH = {point: i for i, point in enumerate(OPPONENT_PATH)}


class ImpossibleBoard(ValueError):
    """A text board that is malformed or not a valid Jacquet board."""


@dataclass(frozen=True)
class Board:
    """A Jacquet board from the mover's side: ``points[p - 1]`` is point p, positive for the
    mover's checkers; ``off`` is (mover, opponent) borne off."""

    points: tuple[int, ...]
    off: tuple[int, int]

    def at(self, point: int) -> int:
        return self.points[point - 1]

    def text(self) -> str:
        return " ".join(map(str, self.points)) + f" | {self.off[0]} {self.off[1]} 0 0"

    def mine(self) -> list[int]:
        return [p for p in range(1, 25) if self.at(p) > 0]


def parse_board(text: str) -> Board:
    """Read a Jacquet text board (§1.1): 24 tokens, `|`, four counts, the bar's two zero."""
    left, bar, right = text.partition("|")
    tokens, counts = left.split(), right.split()
    if not bar or len(tokens) != 24 or len(counts) != 4:
        raise ImpossibleBoard("24 points, |, four counts")
    for token in tokens + counts:
        digits = token[1:] if token.startswith("-") else token
        if not digits.isdigit() or (len(digits) > 1 and digits[0] == "0") or token == "-0":
            raise ImpossibleBoard(f"bad token {token!r}")
    numbers = [int(c) for c in counts]
    if min(numbers) < 0 or numbers[2] or numbers[3]:
        raise ImpossibleBoard("no bar in jacquet, and no negative counts")
    points = tuple(int(t) for t in tokens)
    board = Board(points, (numbers[0], numbers[1]))
    mover = sum(n for n in points if n > 0) + board.off[0]
    opponent = sum(-n for n in points if n < 0) + board.off[1]
    if mover != CHECKERS or opponent != CHECKERS:
        raise ImpossibleBoard("each side has 15 checkers")
    return board


def their_number(point: int) -> int:
    """The opponent's own number of the mover's ``point``, and back."""
    return point + 12 if point <= 12 else point - 12


def turned(board: Board) -> Board:
    """The board seen by the other player."""
    points = tuple(-board.at(their_number(q)) for q in range(1, 25))
    return Board(points, (board.off[1], board.off[0]))


# --- single moves -----------------------------------------------------------------------------


def _courier_home(board: Board) -> bool:
    return board.off[0] > 0 or any(board.at(p) > 0 for p in range(1, 7))


def _all_on_talon(board: Board) -> bool:
    return board.mine() == [TALON]


def _row_through(held: set[int], point: int) -> int:
    """How many held points stand in a row with ``point`` along the opponent's path."""
    steps = {STEP_ON_THEIR_PATH[p] for p in held}
    at = STEP_ON_THEIR_PATH[point]
    length = 1
    i = at - 1
    while i in steps:
        length, i = length + 1, i - 1
    i = at + 1
    while i in steps:
        length, i = length + 1, i + 1
    return length


def _lifted(board: Board, source: int) -> list[int]:
    points = list(board.points)
    points[source - 1] -= 1
    return points


def moves_of_die(board: Board, die: int, blockade: bool = True) -> list[tuple[int, int, Board]]:
    """Every single move of ``die``: (source, destination, board after). ``blockade`` False
    drops the blockade rule (to measure how often it decides)."""
    found = []
    mine = board.mine()
    home = all(p <= 6 for p in mine)
    for source in mine:
        if source == TALON and not _courier_home(board) and not _all_on_talon(board):
            continue
        target = source - die
        if target >= 1:
            if board.at(target) < 0:
                continue
            points = _lifted(board, source)
            points[target - 1] += 1
            after = Board(tuple(points), board.off)
            if blockade and board.at(target) == 0:
                held = set(after.mine())
                if not {1, 2} <= held and _row_through(held, target) >= 6:
                    continue
            found.append((source, target, after))
        elif home and (target == 0 or source == max(mine)):
            after = Board(tuple(_lifted(board, source)), (board.off[0] + 1, board.off[1]))
            found.append((source, OFF, after))
    return found


# --- plays (§2.2) -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sequence:
    moves: tuple[tuple[int, int], ...]
    dice: tuple[int, ...]
    after: Board


def sequences(board: Board, d1: int, d2: int, blockade: bool = True) -> list[Sequence]:
    """Every sequence of single moves that uses the dice in some order until it cannot go on."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    found: list[Sequence] = []

    def walk(current: Board, order: tuple[int, ...], moves: tuple, dice: tuple) -> None:
        done = not order or current.off[0] == CHECKERS
        options = [] if done else moves_of_die(current, order[0], blockade)
        if not options:
            found.append(Sequence(moves, dice, current))
            return
        for source, destination, after in options:
            walk(after, order[1:], moves + ((source, destination),), dice + (order[0],))

    for order in orders:
        walk(board, order, (), ())
    return found


def legal_sequences(board: Board, d1: int, d2: int, blockade: bool = True) -> list[Sequence]:
    """Most dice used (bearing off the last checker uses them all); else the larger die."""
    whole = 4 if d1 == d2 else 2

    def used(sequence: Sequence) -> int:
        return whole if sequence.after.off[0] == CHECKERS else len(sequence.dice)

    found = [s for s in sequences(board, d1, d2, blockade) if s.moves]
    if not found:
        return []
    most = max(used(s) for s in found)
    found = [s for s in found if used(s) == most]
    if most == 1 and d1 != d2:
        larger = [s for s in found if s.dice == (max(d1, d2),)]
        found = larger or found
    return found


# --- notation (§8) ----------------------------------------------------------------------------


def notation(moves: tuple[tuple[int, int], ...]) -> str:
    """§8 with no marks: sort, join into paths, write, count and order."""
    ordered = sorted(moves, key=lambda m: (-m[0], -m[1]))
    paths: list[list[int]] = []
    for source, destination in ordered:
        joinable = [p for p in paths if p[-1] == source and p[-1] != OFF]
        if joinable:
            joinable[-1].append(destination)
        else:
            paths.append([source, destination])
    counted: dict[tuple[int, int], int] = {}
    for path in paths:
        ends = (path[0], path[-1])
        counted[ends] = counted.get(ends, 0) + 1
    written = []
    for first, last in sorted(counted, key=lambda e: (-e[0], -e[1])):
        text = f"{first}/{'off' if last == OFF else last}"
        n = counted[(first, last)]
        written.append(text if n == 1 else f"{text}({n})")
    return " ".join(written)


def spellings(board_text: str, d1: int, d2: int, blockade: bool = True) -> dict[str, set[str]]:
    """Each legal board after (as text) with every spelling of the sequences that reach it."""
    board = parse_board(board_text)
    found: dict[str, set[str]] = {}
    for sequence in legal_sequences(board, d1, d2, blockade):
        found.setdefault(sequence.after.text(), set()).add(notation(sequence.moves))
    return found


def legal_plays(board_text: str, d1: int, d2: int, blockade: bool = True) -> set[tuple[str, str]]:
    """The (NOTATION, BOARD_AFTER) lines ``moves --variant jacquet`` must print."""
    return {(min(texts), after) for after, texts in spellings(board_text, d1, d2, blockade).items()}


# --- random games -----------------------------------------------------------------------------


def courier_on_its_way(board: Board) -> bool:
    """The mover's courier has left the talon and not yet reached home."""
    return not _courier_home(board) and not _all_on_talon(board)


def _progress(board: Board) -> tuple[int, int]:
    home = sum(n for n in board.points[:6] if n > 0)
    return board.off[0], home


def _points_held(board: Board) -> int:
    return len(board.mine())


def random_positions(seed: int, pairs: int) -> Iterator[tuple[str, int, int]]:
    """``pairs`` reachable (BOARD, D1, D2) from games played with the oracle's own plays.

    A play is chosen at random, or to hold the most points (which meets the blockade), or to
    race home (which bears off), so that every rule comes up.
    """
    rng = random.Random(seed)
    board = parse_board(START)
    for _ in range(pairs):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        yield board.text(), d1, d2
        afters = sorted(after for _, after in legal_plays(board.text(), d1, d2))
        if afters:
            style = rng.random()
            if style < 0.4:
                chosen = rng.choice(afters)
            elif style < 0.7:
                chosen = max(afters, key=lambda t: _points_held(parse_board(t)))
            else:
                chosen = max(afters, key=lambda t: _progress(parse_board(t)))
            board = parse_board(chosen)
        board = parse_board(START) if board.off[0] == CHECKERS else turned(board)
