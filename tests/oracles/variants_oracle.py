"""An independent move generator for plakoto, fevga and long-nardi: a test oracle only.

Written from docs/variants.md alone (the text board, §2 dice and legal-play selection, §5-§7 the
variants' rules, §8 canonical notation), without reading the engine, so that comparing the two
on random reachable positions finds the mistakes of either. Simple and obviously correct beats
fast: every sequence of single-die moves is enumerated, then the selection rules of §2.2 are
applied to the finished sequences. Standard library only.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

VARIANTS = ("plakoto", "fevga", "long-nardi")
CHECKERS = 15
OFF = 0
HEAD = 24

START_BOARDS = {
    "plakoto": "-15 " + "0 " * 22 + "15 | 0 0 0 0",
    "fevga": "0 " * 11 + "-15 " + "0 " * 11 + "15 | 0 0 0 0",
    "long-nardi": "0 " * 11 + "-15 " + "0 " * 11 + "15 | 0 0 0 0",
}

#: Long nardi's first-turn doubles that may take two checkers from the head (§7).
FIRST_TURN_DOUBLES = frozenset({3, 4, 6})

_COUNT = re.compile(r"0|-?[1-9][0-9]*")
_PIN = re.compile(r"(-?[1-9][0-9]*)p([1-9][0-9]*)")


class ImpossibleBoard(ValueError):
    """A text board that is malformed or not a valid board of the variant (§1.1)."""


@dataclass(frozen=True)
class Board:
    """A text board seen from the mover's side.

    `points[p - 1]` is point p as (top, pinned): `top` is the signed count of the checkers
    standing free on top (positive: the mover's), `pinned` is 1 when a checker of the other
    colour lies pinned beneath them (plakoto only), else 0.
    """

    points: tuple[tuple[int, int], ...]
    mover_off: int
    opponent_off: int

    def at(self, point: int) -> tuple[int, int]:
        return self.points[point - 1]

    def text(self) -> str:
        tokens = [f"{top}p{pinned}" if pinned else str(top) for top, pinned in self.points]
        return " ".join(tokens) + f" | {self.mover_off} {self.opponent_off} 0 0"

    def mover_points(self) -> list[int]:
        """Points holding at least one of the mover's checkers, pinned or free."""
        return [p for p in range(1, 25) if self.at(p)[0] > 0 or self.mover_is_pinned_at(p)]

    def mover_is_pinned_at(self, point: int) -> bool:
        top, pinned = self.at(point)
        return top < 0 and pinned == 1

    def mover_checkers(self) -> int:
        return sum(top if top > 0 else pinned for top, pinned in self.points) + self.mover_off

    def opponent_checkers(self) -> int:
        return sum(-top if top < 0 else pinned for top, pinned in self.points) + self.opponent_off


def parse_board(variant: str, text: str) -> Board:
    """Read a text board (§1.1) and check that it is valid for the variant."""
    if variant not in VARIANTS:
        raise ImpossibleBoard(f"unknown variant {variant!r}")
    left, bar, right = text.partition("|")
    if not bar:
        raise ImpossibleBoard("no '|' in the board")
    tokens = left.split()
    counts = right.split()
    if len(tokens) != 24 or len(counts) != 4:
        raise ImpossibleBoard("a board has 24 points and four counts")
    points = []
    for token in tokens:
        if _COUNT.fullmatch(token):
            points.append((int(token), 0))
            continue
        pin = _PIN.fullmatch(token)
        if not pin or variant != "plakoto" or int(pin.group(2)) != 1:
            raise ImpossibleBoard(f"bad point {token!r}")
        points.append((int(pin.group(1)), 1))
    if not all(_COUNT.fullmatch(c) and not c.startswith("-") for c in counts):
        raise ImpossibleBoard(f"bad counts {right!r}")
    mover_off, opponent_off, mover_bar, opponent_bar = (int(c) for c in counts)
    if mover_bar or opponent_bar:
        raise ImpossibleBoard("no bar in this variant")
    board = Board(tuple(points), mover_off, opponent_off)
    if board.mover_checkers() != CHECKERS or board.opponent_checkers() != CHECKERS:
        raise ImpossibleBoard("each side has 15 checkers")
    return board


def opponent_view(variant: str, board: Board) -> Board:
    """The same board seen by the other player (who is on roll next), per §1.2's geometry."""

    def seen_from(point: int) -> int:
        if variant == "plakoto":
            return 25 - point
        return point + 12 if point <= 12 else point - 12

    points = [(0, 0)] * 24
    for p in range(1, 25):
        top, pinned = board.at(p)
        points[seen_from(p) - 1] = (-top, pinned)
    return Board(tuple(points), board.opponent_off, board.mover_off)


# --- single moves -----------------------------------------------------------------------------


def opponent_path_index(point: int) -> int:
    """The opponent's own number q of the mover's point, in fevga and long-nardi (§1.2)."""
    return point + 12 if point <= 12 else point - 12


def _is_open(variant: str, board: Board, point: int) -> bool:
    top, pinned = board.at(point)
    if variant == "plakoto":
        return top >= 0 or (top == -1 and not pinned)
    return top >= 0


def _may_bear_off(variant: str, board: Board) -> bool:
    held = board.mover_points()
    if any(p > 6 for p in held):
        return False
    if variant == "plakoto":
        return not any(board.mover_is_pinned_at(p) for p in held)
    return True


def _has_passed(board: Board) -> bool:
    """Fevga: some checker of the mover's has gone past the opponent's start (§6)."""
    return board.mover_off > 0 or any(board.at(p)[0] > 0 for p in range(1, 12))


def _holds_starting_quarter(board: Board) -> bool:
    return all(board.at(p)[0] > 0 for p in range(19, 25))


def _builds_forbidden_block(board: Board, new_point: int) -> bool:
    """Fevga and long-nardi (§6, §7): the newly held point belongs to six points held in a row
    along the opponent's path with no opponent checker ahead of them (at a lower q).

    Only the rows containing the new point are judged, and none while the opponent has no
    checker on the board.
    """
    held = [False] * 26
    opponent = []
    for point, (top, _pinned) in enumerate(board.points, start=1):
        q = opponent_path_index(point)
        if top > 0:
            held[q] = True
        elif top < 0:
            opponent.append(q)
    if not opponent:
        return False
    new_q = opponent_path_index(new_point)
    for low in range(max(1, new_q - 5), min(new_q, 19) + 1):
        if all(held[low : low + 6]) and min(opponent) >= low:
            return True
    return False


def _apply(variant: str, board: Board, source: int, destination: int) -> Board:
    points = list(board.points)
    top, pinned = points[source - 1]
    top -= 1
    if top == 0 and pinned:
        top, pinned = -1, 0
    points[source - 1] = (top, pinned)
    mover_off = board.mover_off
    if destination == OFF:
        mover_off += 1
    else:
        top, pinned = points[destination - 1]
        if top == -1 and not pinned:
            points[destination - 1] = (1, 1)
        else:
            points[destination - 1] = (top + 1, pinned)
    return Board(tuple(points), mover_off, board.opponent_off)


def single_moves(
    variant: str, board: Board, die: int, head_moves_left: int
) -> Iterator[tuple[int, int, Board]]:
    """Every legal single move of one die: (source, destination, board after)."""
    bearing_off = _may_bear_off(variant, board)
    held = [p for p in range(1, 25) if board.at(p)[0] > 0]
    highest = max(held, default=0)
    for source in held:
        if variant == "long-nardi" and source == HEAD and head_moves_left <= 0:
            continue
        if (
            variant == "fevga"
            and source == HEAD
            and not _has_passed(board)
            and board.at(HEAD)[0] != CHECKERS
        ):
            continue
        target = source - die
        if target >= 1:
            if not _is_open(variant, board, target):
                continue
            destination = target
        else:
            if not bearing_off or (target < 0 and source != highest):
                continue
            destination = OFF
        after = _apply(variant, board, source, destination)
        newly_held = destination != OFF and board.at(destination)[0] <= 0
        if variant == "fevga" and newly_held and _holds_starting_quarter(after):
            continue
        if (
            variant in ("fevga", "long-nardi")
            and newly_held
            and _builds_forbidden_block(after, destination)
        ):
            continue
        yield source, destination, after


# --- plays ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sequence:
    """A finished sequence of single moves: what it did and which dice it used."""

    moves: tuple[tuple[int, int], ...]
    dice_used: tuple[int, ...]
    after: Board


def move_sequences(variant: str, board: Board, d1: int, d2: int) -> set[Sequence]:
    """Every sequence of single moves that cannot be continued (all dice used, or stuck)."""
    dice = (d1,) * 4 if d1 == d2 else (d1, d2)
    head_limit = 1
    if (
        variant == "long-nardi"
        and d1 == d2
        and d1 in FIRST_TURN_DOUBLES
        and board.at(HEAD)[0] == CHECKERS
    ):
        head_limit = 2
    finished: set[Sequence] = set()
    seen: set[tuple[Board, tuple[int, ...], tuple[tuple[int, int], ...]]] = set()

    def extend(current: Board, left: tuple[int, ...], used: tuple[int, ...], moves, heads):
        key = (current, tuple(sorted(used)), tuple(sorted(moves)))
        if key in seen:
            return
        seen.add(key)
        continued = False
        if current.mover_off < CHECKERS:
            for die in sorted(set(left)):
                rest = list(left)
                rest.remove(die)
                for source, destination, after in single_moves(
                    variant, current, die, head_limit - heads
                ):
                    continued = True
                    extend(
                        after,
                        tuple(rest),
                        used + (die,),
                        moves + ((source, destination),),
                        heads + (source == HEAD),
                    )
        if not continued:
            finished.add(Sequence(tuple(sorted(moves)), tuple(sorted(used)), current))

    extend(board, dice, (), (), 0)
    return finished


def _dice_count(sequence: Sequence, dice_in_roll: int) -> int:
    if sequence.after.mover_off == CHECKERS and sequence.moves:
        return dice_in_roll
    return len(sequence.dice_used)


def legal_sequences(variant: str, board: Board, d1: int, d2: int) -> list[Sequence]:
    """The move sequences allowed by §2.2: most dice used, else the larger die."""
    sequences = [s for s in move_sequences(variant, board, d1, d2) if s.moves]
    if not sequences:
        return []
    in_roll = 4 if d1 == d2 else 2
    most = max(_dice_count(s, in_roll) for s in sequences)
    sequences = [s for s in sequences if _dice_count(s, in_roll) == most]
    if d1 != d2 and most == 1:
        larger = max(d1, d2)
        with_larger = [s for s in sequences if s.dice_used == (larger,)]
        sequences = with_larger or sequences
    return sequences


# --- notation (§8) ----------------------------------------------------------------------------


def _point_text(point: int) -> str:
    return "off" if point == OFF else str(point)


def format_play(
    variant: str, before: Board, moves: tuple[tuple[int, int], ...], after: Board
) -> str:
    """The canonical notation of a play given as its single moves (§8)."""
    paths: list[list[int]] = []
    for source, destination in sorted(moves, key=lambda m: (-m[0], -m[1])):
        extendable = [path for path in paths if path[-1] != OFF and path[-1] == source]
        if extendable:
            extendable[-1].append(destination)
        else:
            paths.append([source, destination])

    texts = []
    for path in paths:
        last = path[-1]
        marked = (
            variant == "plakoto"
            and last != OFF
            and before.at(last) == (-1, 0)
            and after.at(last)[0] > 0
            and after.at(last)[1] == 1
        )
        text = f"{path[0]}/{_point_text(last)}" + ("*" if marked else "")
        texts.append((path[0], last, marked, text))

    counted: dict[tuple[int, int, bool, str], int] = {}
    for entry in texts:
        counted[entry] = counted.get(entry, 0) + 1
    ordered = sorted(counted, key=lambda e: (-e[0], -e[1], not e[2], e[3]))
    return " ".join(e[3] + (f"({counted[e]})" if counted[e] > 1 else "") for e in ordered)


def _spellings_by_board(variant: str, board_text: str, d1: int, d2: int) -> dict[Board, set[str]]:
    """Every legal board after, with the canonical strings of the move orders reaching it."""
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError("a die shows 1 to 6")
    board = parse_board(variant, board_text)
    spellings: dict[Board, set[str]] = {}
    for sequence in legal_sequences(variant, board, d1, d2):
        text = format_play(variant, board, sequence.moves, sequence.after)
        spellings.setdefault(sequence.after, set()).add(text)
    return spellings


def legal_plays(variant: str, board_text: str, d1: int, d2: int) -> set[tuple[str, str]]:
    """The set of (NOTATION, BOARD_AFTER) lines the command line must print (§2.2, §8)."""
    spellings = _spellings_by_board(variant, board_text, d1, d2)
    return {(min(texts), after.text()) for after, texts in spellings.items()}


def ambiguous_notations(variant: str, board_text: str, d1: int, d2: int) -> dict[str, set[str]]:
    """Boards after reached by plays whose canonical strings differ (§8 says there are none)."""
    spellings = _spellings_by_board(variant, board_text, d1, d2)
    return {after.text(): texts for after, texts in spellings.items() if len(texts) > 1}


# --- the end of a game and random games -------------------------------------------------------


def game_is_over(variant: str, after: Board) -> bool:
    """Whether the play that left `after` (mover's side) ended the game (§5, §9)."""
    if after.mover_off == CHECKERS:
        return True
    if variant == "plakoto":
        top, pinned = after.at(1)
        opponent_mother_pinned = top > 0 and pinned
        mover_mother_pinned = after.at(HEAD)[0] < 0 and after.at(HEAD)[1]
        mover_still_at_start = after.at(HEAD)[0] > 0
        return bool(opponent_mother_pinned and (mover_mother_pinned or not mover_still_at_start))
    return False


#: How the random games choose a play: `uniform` among the legal plays; `blocking` nine times
#: in ten the play that pins the most (plakoto) and holds the longest row of points, which builds
#: the pins and primes whose rules uniform play seldom reaches.
PLAY_STYLES = ("uniform", "blocking")


def _blocking_strength(after: Board) -> tuple[int, int, int]:
    """Pins made, the longest row of points held along the opponent's path, points held."""
    held_q = {opponent_path_index(p) for p in range(1, 25) if after.at(p)[0] > 0}
    longest = in_a_row = 0
    for q in range(1, 25):
        in_a_row = in_a_row + 1 if q in held_q else 0
        longest = max(longest, in_a_row)
    pins = sum(1 for top, pinned in after.points if top > 0 and pinned)
    return pins, longest, len(held_q)


def random_positions(
    variant: str, seed: int, pairs: int, style: str = "uniform", max_turns: int = 1000
) -> Iterator[tuple[str, int, int]]:
    """`pairs` reachable (BOARD, D1, D2) from random games, the same for the same seed.

    Each turn's board is seen from the player on roll; the play is chosen among the oracle's
    own legal plays (see PLAY_STYLES), so the positions are reachable by its rules.
    """
    if style not in PLAY_STYLES:
        raise ValueError(f"unknown play style {style!r}")
    rng = random.Random(seed)
    produced = 0
    while True:
        board_text = parse_board(variant, START_BOARDS[variant]).text()
        for _turn in range(max_turns):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            yield board_text, d1, d2
            produced += 1
            if produced >= pairs:
                return
            plays = sorted(legal_plays(variant, board_text, d1, d2))
            after = parse_board(variant, board_text)
            if plays:
                chosen = rng.choice(plays)[1]
                if style == "blocking" and rng.random() < 0.9:
                    chosen = max(
                        (after_text for _, after_text in plays),
                        key=lambda t: _blocking_strength(parse_board(variant, t)),
                    )
                after = parse_board(variant, chosen)
                if game_is_over(variant, after):
                    break
            board_text = opponent_view(variant, after).text()
