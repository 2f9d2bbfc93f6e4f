"""Every legal play of a roll in any variant, with its canonical notation; and how a game ends.

One generator for the whole family, driven by the Variant: it tries every order of single moves
(docs/variants.md §2), each checked against the board as it stands, keeps the plays that use the
most dice (the larger die when only one can be played) and merges plays that end in the same
board. Backgammon's own fast generator (``legal``) stays the one the match uses for backgammon;
this one agrees with it, and with bgsage for nackgammon and hypergammon (tests/engine).

>>> from .dice import Dice
>>> from .variants import LONG_NARDI
>>> [play.notation for play in variant_plays(Board.starting(LONG_NARDI), Dice(6, 6))]
['24/18(2)']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from .board import Board
from .dice import Dice
from .errors import AmbiguousPlayError, EngineError, IllegalPlayError
from .notation import parse_paths
from .play import BAR, IN, OFF, point_name
from .variants import Landing, Variant, opponent_point

HOME = range(1, 7)
HEAD = 24
START_QUARTER = range(19, 25)
PAST_OPPONENT_START = range(1, 12)
LAST_TWO_POINTS = (1, 2)
PRIME = 6

_Step = tuple[int, int]
BoardState = tuple[tuple[int, ...], tuple[int, ...]]
"""A board in the search: its ``points`` and ``pinned`` tuples (cheaper than a ``Board``). In a
variant whose checkers enter from off the board, ``points`` has a 27th slot, ``points[IN]``: the
mover's checkers waiting to enter (the opponent's cannot change during the mover's play).
``PlaySearch.state`` and ``PlaySearch.board_of`` go between a Board and its state."""


@dataclass(frozen=True, slots=True)
class VariantPlay:
    """One distinct legal play: its canonical notation, the board after it (still from the
    mover's side) and one sequence of ``(source, destination)`` moves that makes it."""

    notation: str
    after: Board
    moves: tuple[_Step, ...]
    dice: tuple[int, ...] = ()
    """The die each of ``moves`` uses, in the same order."""


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, seen from the side a board is seen from.

    ``winner`` is 1 when that side won, -1 when the other side won, 0 for a draw; ``points`` is
    what the game is worth before any cube.
    """

    winner: int
    points: int
    how: str


def variant_plays(board: Board, dice: Dice) -> tuple[VariantPlay, ...]:
    """Every distinct legal play of ``dice`` on ``board``; empty when nothing can move."""
    return PlaySearch(board, dice).plays()


class PlaySearch:
    """The legal plays of ``dice`` on ``board``, found by trying every order of single moves;
    ``single_moves`` and ``after_move`` also let a play be put together a move at a time."""

    def __init__(self, board: Board, dice: Dice) -> None:
        self.board = board
        self.variant: Variant = board.variant
        self.dice = dice
        self.head_start = board.mine(HEAD)
        limit = 1
        if (
            dice.is_double()
            and dice.first in self.variant.first_turn_two_from_head
            and self.head_start == self.variant.checkers
        ):
            limit = 2
        self.head_limit = limit
        self.guards_blocks = (
            self.variant.forbid_full_start_quarter
            or self.variant.forbid_prime_with_no_one_ahead
            or self.variant.prime_needs_last_two_points
        )
        self.enters = self.variant.enters_from_off_board
        self.seen: set[tuple[BoardState, tuple[int, ...]]] = set()
        self.ends: list[tuple[int, tuple[_Step, ...], tuple[int, ...], BoardState]] = []

    def state(self, board: Board) -> BoardState:
        """``board`` as the search holds it."""
        if self.enters:
            return board.points + (board.waiting[0],), board.pinned
        return board.points, board.pinned

    def board_of(self, state: BoardState) -> Board:
        """The Board of a state the search reached."""
        if self.enters:
            top = state[0]
            return Board(self.variant, top[:IN], state[1], (top[IN], self.board.waiting[1]))
        return Board(self.variant, state[0], state[1])

    def plays(self) -> tuple[VariantPlay, ...]:
        found: dict[BoardState, VariantPlay] = {}
        for _, moves, dice, state in self._legal_ends():
            if state not in found:
                after = self.board_of(state)
                found[state] = VariantPlay(self._notation(moves, after), after, moves, dice)
        return tuple(found.values())

    def boards_after(self) -> tuple[BoardState, ...]:
        """The distinct boards the legal plays leave, as ``plays`` finds them, without their
        notation: for a search that looks at many plays and names one."""
        return tuple(dict.fromkeys(state for *_, state in self._legal_ends()))

    def _legal_ends(self) -> list[tuple[int, tuple[_Step, ...], tuple[int, ...], BoardState]]:
        """The ends of the move orders that make legal plays (§2.2): the most dice used, the
        larger die when only one can be played."""
        self._extend(self.state(self.board), self.dice.moves(), [], [])
        if not self.ends:
            return []
        most = max(used for used, *_ in self.ends)
        if most == 0:
            return []
        ends = [end for end in self.ends if end[0] == most]
        if most == 1 and not self.dice.is_double():
            high = [end for end in ends if end[2] == (self.dice.high,)]
            ends = high or ends
        return ends

    def _extend(
        self, state: BoardState, left: tuple[int, ...], moves: list[_Step], dice: list[int]
    ) -> None:
        key = (state, left)
        if key in self.seen:
            return
        self.seen.add(key)
        total = len(self.dice.moves())
        if self._in_play(state) == 0:
            self.ends.append((total, tuple(moves), tuple(dice), state))
            return
        moved = False
        for die in sorted(set(left), reverse=True):
            rest = list(left)
            rest.remove(die)
            for step in self.single_moves(state, die):
                moved = True
                moves.append(step)
                dice.append(die)
                self._extend(self.after_move(state, step), tuple(rest), moves, dice)
                moves.pop()
                dice.pop()
        if not moved:
            self.ends.append((total - len(left), tuple(moves), tuple(dice), state))

    def _in_play(self, state: BoardState) -> int:
        top, pinned = state
        mine = top[BAR] + top[IN] if self.enters else top[BAR]
        for point in range(1, 25):
            n = top[point]
            mine += n if n > 0 else pinned[point] if n < 0 else 0
        return mine

    def single_moves(self, state: BoardState, die: int) -> list[_Step]:
        """Every ``(source, destination)`` the mover may take ``die`` on ``state`` (0: off)."""
        top, pinned = state
        variant = self.variant
        if variant.hits and top[BAR] > 0:
            entry = BAR - die
            return [(BAR, entry)] if top[entry] >= -1 else []
        steps = []
        if self.enters and top[IN] > 0 and top[BAR - die] >= -1:
            steps.append((IN, BAR - die))
        bearing_off = self._may_bear_off(state)
        highest = max((p for p in range(1, 25) if top[p] > 0), default=0)
        for source in range(24, 0, -1):
            if top[source] <= 0:
                continue
            destination = source - die
            if destination >= 1:
                if not self._open(state, destination):
                    continue
            elif not bearing_off or (destination < 0 and source != highest):
                continue
            else:
                destination = OFF
            step = (source, destination)
            if self._restricted(state, step):
                continue
            steps.append(step)
        return steps

    def _open(self, state: BoardState, point: int) -> bool:
        top, pinned = state
        landing = self.variant.landing
        if landing is Landing.HIT:
            return top[point] >= -1
        if landing is Landing.PIN:
            return top[point] >= 0 or (top[point] == -1 and not pinned[point])
        return top[point] >= 0

    def _may_bear_off(self, state: BoardState) -> bool:
        top, pinned = state
        if top[BAR] > 0 or (self.enters and top[IN] > 0):
            return False
        for point in range(7, 25):
            if top[point] > 0 or (top[point] < 0 and pinned[point]):
                return False
        if self.variant.pins:
            return not any(top[p] < 0 and pinned[p] for p in HOME)
        return True

    def _restricted(self, state: BoardState, step: _Step) -> bool:
        """Whether the variant's block, head and courier rules forbid ``step`` (§6, §7, §7.1)."""
        variant = self.variant
        top = state[0]
        source, destination = step
        if source == HEAD and self._in_play(state) != top[HEAD]:
            if variant.runner_must_pass_opponent_start and not self._passed(state):
                return True
            if variant.courier_must_reach_home and not self._passed(state, HOME):
                return True
            if variant.one_from_head and self.head_start - top[HEAD] + 1 > self.head_limit:
                return True
        if destination == OFF or top[destination] != 0 or not self.guards_blocks:
            return False
        held = {p for p in range(1, 25) if top[p] > 0}
        held.add(destination)
        if top[source] == 1:
            held.discard(source)
        if variant.forbid_full_start_quarter and held.issuperset(START_QUARTER):
            return True
        if variant.forbid_prime_with_no_one_ahead:
            return self._prime_with_no_one_ahead(top, held, destination)
        if variant.prime_needs_last_two_points and not held.issuperset(LAST_TWO_POINTS):
            return self._longest_row_through(held, destination) >= PRIME
        return False

    def _passed(self, state: BoardState, points: range = PAST_OPPONENT_START) -> bool:
        """Whether a checker of the mover's has reached ``points`` (or been borne off)."""
        top = state[0]
        return any(top[p] > 0 for p in points) or self._in_play(state) < self.variant.checkers

    def _longest_row_through(self, held: set[int], point: int) -> int:
        """How many held points in a row along the opponent's path ``point`` stands in."""
        theirs = {opponent_point(self.variant, p) for p in held}
        centre = opponent_point(self.variant, point)
        low = centre
        while low - 1 in theirs:
            low -= 1
        high = centre
        while high + 1 in theirs:
            high += 1
        return high - low + 1

    def _prime_with_no_one_ahead(self, top: tuple[int, ...], held: set[int], new: int) -> bool:
        """Whether the newly held point completes six in a row on the opponent's path with no
        opponent checker past them."""
        on_their_path = [False] * 31
        nearest_opponent = 25
        for point in range(1, 25):
            theirs = opponent_point(self.variant, point)
            if point in held:
                on_their_path[theirs] = True
            elif top[point] < 0:
                nearest_opponent = min(nearest_opponent, theirs)
        if nearest_opponent == 25:
            return False
        centre = opponent_point(self.variant, new)
        for lowest in range(max(1, centre - 5), min(centre, 19) + 1):
            if nearest_opponent >= lowest and all(on_their_path[lowest : lowest + 6]):
                return True
        return False

    def after_move(self, state: BoardState, step: _Step) -> BoardState:
        """The board after the mover's checker takes ``step`` (hitting or pinning as it lands)."""
        top, pinned = list(state[0]), list(state[1])
        source, destination = step
        top[source] -= 1
        if source < BAR and top[source] == 0 and pinned[source]:
            top[source], pinned[source] = -pinned[source], 0
        if destination != OFF:
            if top[destination] == -1 and self.variant.landing is Landing.HIT:
                top[destination] = 1
                top[0] += 1
            elif top[destination] == -1 and self.variant.landing is Landing.PIN:
                top[destination], pinned[destination] = 1, 1
            else:
                top[destination] += 1
        return tuple(top), tuple(pinned)

    def _notation(self, moves: tuple[_Step, ...], after: Board) -> str:
        sources = {source for source, _ in moves}
        if BAR in sources and IN in sources:
            return min(self._spelling(relabeled, after) for relabeled in _entries_relabeled(moves))
        return self._spelling(moves, after)

    def _spelling(self, moves: tuple[_Step, ...], after: Board) -> str:
        ordered = sorted(moves, key=lambda step: (-_rank(step[0]), -step[1]))
        before = self.board
        if self.variant.hits:
            top = list(self.state(before)[0])
            hits = []
            for source, destination in ordered:
                hit = destination != OFF and top[destination] == -1
                top[source] -= 1
                if hit:
                    top[destination] = 1
                elif destination != OFF:
                    top[destination] += 1
                hits.append(hit)
            return canonical_notation(ordered, hits)
        pins: set[int] = set()
        if self.variant.pins:
            pins = {
                p
                for p in range(1, 25)
                if before.points[p] == -1
                and not before.pinned[p]
                and after.points[p] > 0
                and after.pinned[p]
            }
        return canonical_notation(ordered, [False] * len(ordered), pins)


def _entries_relabeled(moves: tuple[_Step, ...]) -> list[tuple[_Step, ...]]:
    """The same moves with the bar's and the waiting checkers' entries shared out every way: a
    checker from the bar and one from off the board that enter land alike, so each sharing is a
    spelling of the play, and §8 takes the least."""
    entries = [i for i, (source, _) in enumerate(moves) if source in (BAR, IN)]
    from_bar = sum(1 for source, _ in moves if source == BAR)
    spellings = []
    for chosen in combinations(entries, from_bar):
        spellings.append(
            tuple(
                ((BAR if i in chosen else IN), destination)
                if i in entries
                else (source, destination)
                for i, (source, destination) in enumerate(moves)
            )
        )
    return spellings


def _rank(point: int) -> float:
    """Where a move's source comes in the canonical order (§8): the bar, then the checkers
    waiting to enter, then the points from 24 down."""
    return BAR - 0.5 if point == IN else point


def canonical_notation(
    ordered: list[_Step], hits: list[bool], marked_ends: set[int] | frozenset[int] = frozenset()
) -> str:
    """docs/variants.md §8: join sorted moves into paths, mark, count and order them.

    ``hits[i]`` marks the stop where move ``i`` lands; ``marked_ends`` marks a path's last stop.

    >>> canonical_notation([(24, 21), (21, 18), (21, 18), (18, 15)], [False] * 4)
    '24/18 21/15'
    >>> canonical_notation([(24, 18), (13, 8)], [False, False], {18})
    '24/18* 13/8'
    """
    paths: list[list[tuple[int, bool]]] = []
    for (source, destination), hit in zip(ordered, hits, strict=True):
        path = next((p for p in reversed(paths) if p[-1][0] == source), None)
        if path is None:
            paths.append([(source, False), (destination, hit)])
        else:
            path.append((destination, hit))
    for path in paths:
        if path[-1][0] in marked_ends:
            path[-1] = (path[-1][0], True)
    counted = Counter(_path_text(path) for path in paths)
    ends = {_path_text(path): (path[0][0], path[-1][0]) for path in paths}
    ordered_texts = sorted(
        counted, key=lambda text: (-_rank(ends[text][0]), -ends[text][1], "*" not in text, text)
    )
    return " ".join(
        text if counted[text] == 1 else f"{text}({counted[text]})" for text in ordered_texts
    )


def _path_text(path: list[tuple[int, bool]]) -> str:
    stops = [path[0]] + [stop for stop in path[1:-1] if stop[1]] + [path[-1]]
    return "/".join(point_name(point) + ("*" if hit else "") for point, hit in stops)


def climbing_doubles(variant: Variant, dice: Dice, turn: int) -> tuple[Dice, ...]:
    """The doubles a roll of ``dice`` on the player's own ``turn`` (1 is their first) calls for,
    in order, each played as four moves of its number (docs/variants.md §6.1).

    Where the variant's doubles climb, a double from that turn on is followed by each higher
    double up to 6-6; the turn stops at the first of them that is not played in full
    (``double_after``). Anything else is the roll alone.

    >>> from .variants import FEVGA, GUL_BARA
    >>> [str(d) for d in climbing_doubles(GUL_BARA, Dice(3, 3), 4)]
    ['3-3', '4-4', '5-5', '6-6']
    >>> [str(d) for d in climbing_doubles(GUL_BARA, Dice(3, 3), 3)]
    ['3-3']
    >>> [str(d) for d in climbing_doubles(FEVGA, Dice(3, 3), 9)]
    ['3-3']
    """
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 1:
        raise EngineError(f"a player's turns are counted from 1, not {turn!r}")
    climbs = variant.doubles_climb_from_turn
    if not dice.is_double() or not climbs or turn < climbs:
        return (dice,)
    return tuple(Dice(n, n) for n in range(dice.first, 7))


def double_after(board: Board, dice: Dice, play: VariantPlay, turn: int) -> Dice | None:
    """The double the mover plays next in the same turn, on ``play.after``, once ``play`` of
    ``dice`` was played on ``board`` in the player's ``turn``; None when the turn is over.

    The next double of ``climbing_doubles`` comes only after a play that used all four moves
    and left the game going on: a double not played in full ends the turn, and the higher ones
    are not played. ``play`` must be one of the legal plays of ``dice`` on ``board`` (the empty
    play when there is none) wherever ``dice`` climb.

    >>> from .variants import GUL_BARA
    >>> start = Board.starting(GUL_BARA)
    >>> play = find_play(start, Dice(5, 5), "24/14(2)")
    >>> str(double_after(start, Dice(5, 5), play, 4))
    '6-6'
    >>> double_after(start, Dice(5, 5), play, 1) is None
    True
    """
    sequence = climbing_doubles(board.variant, dice, turn)
    if dice not in sequence[:-1]:
        return None
    legal = {p.after: p for p in variant_plays(board, dice)}
    if legal:
        if play.after not in legal:
            raise IllegalPlayError(f"{play.notation or 'no move'} is not a legal play of {dice}")
        moves = legal[play.after].moves
    elif play.moves or play.after != board:
        raise IllegalPlayError(f"nothing can move with {dice}: the play is empty")
    else:
        moves = ()
    if len(moves) < len(dice.moves()):
        return None
    if game_end(play.after) is not None:
        return None
    return sequence[sequence.index(dice) + 1]


def game_end(board: Board) -> GameEnd | None:
    """The end of the game on ``board``, just after the side it is seen from played; else None.

    A side that has borne off every checker wins 1, a gammon (the loser bore off none) or, where
    the variant has one, a backgammon. In plakoto, pinning the opponent's mother wins 2 unless
    the pinner still has checkers on its own start; both mothers pinned is a draw.
    """
    variant = board.variant
    mine_off, theirs_off = board.borne_off()
    if mine_off == variant.checkers:
        return GameEnd(1, _bear_off_points(board), "bore off")
    if theirs_off == variant.checkers:
        return GameEnd(-1, _bear_off_points(board.flipped()), "bore off")
    if variant.mother_pin_wins:
        theirs_pinned = board.points[1] > 0 and board.pinned[1] > 0
        mine_pinned = board.points[HEAD] < 0 and board.pinned[HEAD] > 0
        if theirs_pinned and mine_pinned:
            return GameEnd(0, 0, "both mothers pinned")
        if theirs_pinned and board.mine(HEAD) == 0:
            return GameEnd(1, variant.mother_pin_wins, "mother pinned")
    return None


def _bear_off_points(winner_view: Board) -> int:
    variant = winner_view.variant
    if winner_view.borne_off()[1] > 0:
        return 1
    if variant.backgammon > variant.gammon and (
        winner_view.points[0] > 0
        or winner_view.waiting[1] > 0
        or any(winner_view.theirs(p) for p in HOME)
    ):
        return variant.backgammon
    return variant.gammon


def find_play(board: Board, dice: Dice, text: str) -> VariantPlay:
    """The legal play of ``dice`` on ``board`` that ``text`` names, in any common spelling.

    Stops along a path may be left out and marks may be omitted, unless that leaves the play
    in doubt (AmbiguousPlayError); a play the rules do not allow raises IllegalPlayError.

    >>> from .variants import PLAKOTO
    >>> board = Board.parse(PLAKOTO, "-14 " + "0 " * 16 + "-1 0 0 0 0 0 15 | 0 0 0 0")
    >>> find_play(board, Dice(6, 1), "24/18, 24/23").notation
    '24/23 24/18*'
    """
    paths = parse_paths(text)
    plays = variant_plays(board, dice)
    if not paths:
        if not plays:
            return VariantPlay("", board, ())
        raise IllegalPlayError(f"the {dice} can be played; choose a play{_choices(plays)}")
    if not plays:
        raise IllegalPlayError(f"no move is possible with {dice}: the play is empty")
    flow: dict[int, int] = {}
    written_stops: set[int] = set()
    marked: set[int] = set()
    for path in paths:
        flow[path.source] = flow.get(path.source, 0) - 1
        flow[path.stops[-1][0]] = flow.get(path.stops[-1][0], 0) + 1
        written_stops.update(point for point, _ in path.stops[:-1])
        marked.update(point for point, hit in path.stops if hit)
    written = {point: n for point, n in flow.items() if n}
    candidates = [play for play in plays if _flow(board, play.after) == written]
    if len(candidates) > 1:
        landing = [p for p in candidates if written_stops <= {d for _, d in p.moves}]
        candidates = landing or candidates
    if len(candidates) > 1:
        exact = [p for p in candidates if _marks(p.notation) == marked]
        candidates = exact or candidates
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        options = " or ".join(play.notation for play in candidates)
        raise AmbiguousPlayError(f"{text.strip()} can be played as {options}: say which")
    raise IllegalPlayError(f"{text.strip()} is not a legal play of {dice}{_choices(plays)}")


def _flow(before: Board, after: Board) -> dict[int, int]:
    """Where the mover's checkers went: a point's count lost (negative) or gained; 0 is off."""
    change = {point: after.mine(point) - before.mine(point) for point in range(1, 26)}
    change[OFF] = after.borne_off()[0] - before.borne_off()[0]
    change[IN] = after.waiting[0] - before.waiting[0]
    return {point: n for point, n in change.items() if n}


def _marks(notation: str) -> set[int]:
    return {
        int(stop[:-1])
        for path in notation.split()
        for stop in path.split("(")[0].split("/")
        if stop.endswith("*")
    }


def _choices(plays: tuple[VariantPlay, ...], limit: int = 12) -> str:
    shown = ", ".join(play.notation for play in plays[:limit])
    more = f" and {len(plays) - limit} more" if len(plays) > limit else ""
    return f". Legal plays: {shown}{more}"
