"""A hand-built judgement of plakoto, fevga, long nardi, Gul Bara, Jacquet and acey-deucey
positions (Django-free).

``judge(board)`` gives the chances of the side that has just moved (the board is seen from
its side), the other side to roll. Each side's position is summed up as an effective pip
count: the pips it still has to travel plus the delays its position promises, in pips (a
checker of its own pinned, closed points ahead of its checkers, blots the opponent can pin,
checkers left on the head; in acey-deucey, blots the opponent can hit, each costing the pips
the hit checker loses, and a checker waiting to enter counted as one on the bar: 25 pips from
home, blocked by the points held in the opponent's home). The difference of the two counts, in
turns, gives the winning chance as a race would (a normal law over the dice's spread, wider
while the checkers are still in contact); a gammon is the winner finishing before the loser
can bear off one checker; in plakoto the chance that a mother is pinned next is set apart as a
2-point game.
docs/bots.md says why each term is there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from games.computer.stakes import Chances
from games.engine.board import Board
from games.engine.play import BAR
from games.engine.variant_moves import game_end
from games.engine.variants import (
    ACEY_DEUCEY,
    FEVGA,
    GUL_BARA,
    JACQUET,
    LONG_NARDI,
    PLAKOTO,
    Track,
    Variant,
)

AVERAGE_ROLL = 49 / 6
"""Pips a roll moves on average (doubles move four times)."""
ON_ROLL = 0.6
"""What being on roll is worth in a race, in turns."""
TURN_SPREAD = 0.184
"""The spread of the turns a race takes, per square root of the pips of both sides."""
HEAD = 24
HOME = 6


@dataclass(frozen=True, slots=True)
class Weights:
    """One variant's terms, in pips of delay unless said otherwise."""

    pinned: float = 0.0
    """A checker of one's own pinned (plakoto)."""
    pinned_deep: float = 0.0
    """More for a checker pinned deeper in the opponent's home, where the pin can stay."""
    blocked: float = 0.0
    """For each closed point among the six ahead of a checker."""
    blocked_squared: float = 0.0
    """For the square of those: a checker with most of its numbers closed hardly moves."""
    prime: float = 0.0
    """For (run - 2) squared, the longest run of consecutive closed points just ahead."""
    group_cap: int = 4
    """A point's checkers count for the blocks up to this many (they pass one after another)."""
    exposure: float = 1.0
    """The share of a pin's cost a blot carries per chance of being pinned (plakoto)."""
    their_exposure: float = 0.3
    """The same for the side that is not on roll, which moves first and can cover."""
    mother_threat: float = 0.3
    """How much of the chance to pin the opponent's exposed mother counts, they being on roll."""
    head: float = 0.0
    """For each checker still on the head beyond the first (fevga, long nardi)."""
    contact_spread: float = 1.3
    """How much wider the outcome is while the sides can still block each other."""
    hit_extra: float = 0.0
    """Pips of delay beyond those lost when a blot is hit: the turn spent entering (hitting
    variants)."""


#: The variants the hand-built evaluation plays, each with its terms.
WEIGHTS: dict[Variant, Weights] = {
    PLAKOTO: Weights(
        pinned=24.0,
        pinned_deep=30.0,
        blocked=0.6,
        blocked_squared=0.25,
        prime=1.0,
        exposure=1.0,
        their_exposure=0.3,
    ),
    FEVGA: Weights(blocked=0.8, blocked_squared=0.3, prime=1.8, group_cap=15),
    LONG_NARDI: Weights(blocked=0.8, blocked_squared=0.3, prime=1.2, head=2.0, group_cap=15),
    GUL_BARA: Weights(blocked=0.8, blocked_squared=0.3, prime=1.2, group_cap=15),
    JACQUET: Weights(blocked=0.8, blocked_squared=0.3, prime=1.2, head=1.0, group_cap=15),
    ACEY_DEUCEY: Weights(
        blocked=0.6,
        blocked_squared=0.25,
        prime=1.0,
        exposure=1.0,
        their_exposure=0.35,
        hit_extra=4.0,
    ),
}


def weights_for(variant: Variant) -> Weights:
    """The terms of ``variant``; the variants played by bgsage have none."""
    try:
        return WEIGHTS[variant]
    except KeyError:
        raise ValueError(f"the hand-built evaluation does not play {variant.name}") from None


@dataclass(frozen=True, slots=True)
class SideSummary:
    """One side's position, in its own numbering: the pips to travel and the delays its
    position promises; the chance its mother is pinned next, or that it is; the pips it
    needs before it has borne off a checker (0 once it has: no gammon is possible)."""

    pips: int
    delay: float
    mother_risk: float
    mother_pinned: bool
    to_save_gammon: int

    @property
    def effective(self) -> float:
        return self.pips + self.delay


def judge(board: Board) -> Chances:
    """The chances of the side the board is seen from, which has just moved."""
    if board.variant.hits:
        return judge_hitting(board)
    return judge_counts(board.variant, board.points, board.pinned)


def judge_hitting(board: Board) -> Chances:
    """``judge`` in a variant that hits (acey-deucey): a checker on the bar or waiting to enter
    is 25 pips from home and not yet in play."""
    end = game_end(board)
    if end is not None:
        return Chances.certain(end.winner * end.points)
    weights = weights_for(board.variant)
    turned = board.flipped()
    mine = summarise_hitting(board, weights, on_roll_next=False)
    theirs = summarise_hitting(turned, weights, on_roll_next=True)
    return _race(mine, theirs, weights, contact=_hitting_contact(board, turned))


def _race(mine: SideSummary, theirs: SideSummary, weights: Weights, *, contact: bool) -> Chances:
    spread = TURN_SPREAD * math.sqrt(mine.effective + theirs.effective + 1.0)
    if contact:
        spread *= weights.contact_spread
    spread += 0.3
    lead = (theirs.effective - mine.effective) / AVERAGE_ROLL - ON_ROLL
    win = _normal(lead / spread)
    double_win = win * _gammon_chance(mine, theirs, -ON_ROLL)
    double_loss = (1.0 - win) * _gammon_chance(theirs, mine, ON_ROLL)
    return Chances(win=win, double_win=double_win, double_loss=double_loss)


def _rear(board: Board) -> int:
    """The farthest checker of the side the board is seen from (25: on the bar or waiting)."""
    if board.points[BAR] > 0 or board.waiting[0] > 0:
        return BAR
    return max((p for p in range(1, 25) if board.points[p] > 0), default=0)


def _hitting_contact(board: Board, turned: Board) -> bool:
    return _rear(board) + _rear(turned) > 25


def summarise_hitting(board: Board, weights: Weights, *, on_roll_next: bool) -> SideSummary:
    """The position of the side ``board`` is seen from, in a variant that hits: its pips (25
    for a checker on the bar or waiting), the delay of its blots the other side can hit and
    of the points closed ahead of its checkers, entering ones included."""
    points = board.points
    off_board = points[BAR] + board.waiting[0]
    pips = board.pip_count()[0]
    closed = [False] * 25
    for point in range(1, 25):
        closed[point] = points[point] <= -2
    delay = _blocks(points, closed, weights)
    if off_board:
        ahead = sum(closed[19:25])
        group = min(off_board, weights.group_cap)
        delay += group * (weights.blocked * ahead + weights.blocked_squared * ahead * ahead)
    their_off_board = points[0] + board.waiting[1]
    shooters = ([0] if their_off_board else []) + [p for p in range(1, 25) if points[p] < 0]
    exposure = weights.their_exposure if on_roll_next else weights.exposure
    no_pins = (0,) * 26
    for point in range(1, 25):
        if points[point] != 1 or not shooters or shooters[0] >= point:
            continue
        shot = shot_chance(points, no_pins, point, shooters)
        delay += exposure * shot * (25 - point + weights.hit_extra)
    borne_off = board.borne_off()[0]
    to_save = sum(points[p] * (p - HOME) for p in range(HOME + 1, 25) if points[p] > 0)
    return SideSummary(
        pips=pips,
        delay=delay,
        mother_risk=0.0,
        mother_pinned=False,
        to_save_gammon=0 if borne_off else to_save + off_board * (25 - HOME) + 2,
    )


def judge_counts(variant: Variant, points: tuple[int, ...], pinned: tuple[int, ...]) -> Chances:
    """``judge`` of the board that ``points`` and ``pinned`` count (a Board's own fields)."""
    weights = weights_for(variant)
    mine = summarise(points, pinned, variant, weights, on_roll_next=False)
    other_points, other_pinned = flipped(variant, points, pinned)
    theirs = summarise(other_points, other_pinned, variant, weights, on_roll_next=True)
    if not mine.pips or not theirs.pips or mine.mother_pinned or theirs.mother_pinned:
        end = game_end(Board(variant, points, pinned))
        if end is not None:
            return Chances.certain(end.winner * end.points)
    contact = in_contact(variant, points, other_points)
    spread = TURN_SPREAD * math.sqrt(mine.effective + theirs.effective + 1.0)
    if contact:
        spread *= weights.contact_spread
    spread += 0.3
    lead = (theirs.effective - mine.effective) / AVERAGE_ROLL - ON_ROLL
    win = _normal(lead / spread)
    double_win = win * _gammon_chance(mine, theirs, -ON_ROLL)
    double_loss = (1.0 - win) * _gammon_chance(theirs, mine, ON_ROLL)
    chances = Chances(win=win, double_win=double_win, double_loss=double_loss)
    if not variant.mother_pin_wins:
        return chances
    lose_mother = 0.9 if mine.mother_pinned else mine.mother_risk
    win_mother = 0.9 if theirs.mother_pinned else weights.mother_threat * theirs.mother_risk
    both = lose_mother + win_mother
    if both > 1.0:  # a pinned mother and a threat to the other: chances, not certainties
        lose_mother, win_mother = lose_mother / both, win_mother / both
    rest = max(0.0, 1.0 - lose_mother - win_mother)
    return Chances(
        win=rest * chances.win + win_mother,
        double_win=rest * chances.double_win + win_mother,
        loss=rest * chances.losing + lose_mother,
        double_loss=rest * chances.double_loss + lose_mother,
    )


def _gammon_chance(winner: SideSummary, loser: SideSummary, winner_lead: float) -> float:
    """The chance the winner bears off everything before the loser bears off one checker."""
    if loser.to_save_gammon == 0:
        return 0.0
    turns = (loser.to_save_gammon + loser.delay - winner.effective) / AVERAGE_ROLL
    spread = TURN_SPREAD * math.sqrt(loser.to_save_gammon + winner.effective + 1.0) + 0.3
    return _normal((turns + winner_lead) / spread)


def _normal(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def flipped(
    variant: Variant, points: tuple[int, ...], pinned: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board's counts seen from the other side (Board.flipped, without a Board)."""
    if variant.track is Track.OPPOSITE:
        return tuple(-n for n in reversed(points)), tuple(reversed(pinned))
    turned = (0, *(-n for n in points[13:25]), *(-n for n in points[1:13]), 0)
    return turned, (0, *pinned[13:25], *pinned[1:13], 0)


def in_contact(variant: Variant, points: tuple[int, ...], other_points: tuple[int, ...]) -> bool:
    """Whether a checker of either side still has to pass a checker of the other.

    Pinned checkers are left out: a pin lasts until its pinner moves on, and the pinner is
    counted where it stands."""
    if variant.track is Track.OPPOSITE:
        rear = max((p for p in range(1, 25) if points[p] > 0), default=0)
        their_rear = max((p for p in range(1, 25) if other_points[p] > 0), default=0)
        return rear + their_rear > 25
    return _passes(points) or _passes(other_points)


def _passes(points: tuple[int, ...]) -> bool:
    rear = max((p for p in range(1, 25) if points[p] > 0), default=0)
    return any(points[p] < 0 for p in range(1, rear))


def summarise(
    points: tuple[int, ...],
    pinned: tuple[int, ...],
    variant: Variant,
    weights: Weights,
    *,
    on_roll_next: bool,
) -> SideSummary:
    """The position of the side whose checkers are positive in ``points``; the other side
    rolls next unless ``on_roll_next``."""
    pins = variant.pins
    pips = 0
    on_board = 0
    to_save = 0
    delay = 0.0
    for point in range(1, 25):
        n = points[point]
        own = n if n > 0 else (pinned[point] if n < 0 else 0)
        if not own:
            continue
        on_board += own
        pips += own * point
        if point > HOME:
            to_save += own * (point - HOME)
        if n < 0:
            delay += own * pin_cost(weights, point)
    at_least_one_off = on_board < variant.checkers
    closed = [False] * 25
    for point in range(1, 25):
        n = points[point]
        closed[point] = n < 0 and (not pins or n <= -2 or pinned[point] > 0)
    delay += _blocks(points, closed, weights)
    mother_risk = 0.0
    if pins:
        exposure = weights.their_exposure if on_roll_next else weights.exposure
        shooters = [point for point in range(1, 24) if points[point] < 0]
        for point in range(2, 25):
            if points[point] != 1 or pinned[point] or not shooters or shooters[0] >= point:
                continue
            shot = shot_chance(points, pinned, point, shooters)
            if point == HEAD:
                mother_risk = shot
            else:
                delay += exposure * shot * pin_cost(weights, point)
    elif points[HEAD] > 1:
        delay += weights.head * (points[HEAD] - 1)
    return SideSummary(
        pips=pips,
        delay=delay,
        mother_risk=mother_risk,
        mother_pinned=pins and points[HEAD] < 0 and pinned[HEAD] > 0,
        to_save_gammon=0 if at_least_one_off else to_save + 2,
    )


def pin_cost(weights: Weights, point: int) -> float:
    """The delay of a checker pinned on ``point`` of its owner's numbering."""
    return weights.pinned + weights.pinned_deep * (point - 1) / 23


def _blocks(points: tuple[int, ...], closed: list[bool], weights: Weights) -> float:
    """The delay of the side's checkers from the closed points ahead of them."""
    run_down = [0] * 25
    closed_below = [0] * 25
    for point in range(1, 25):
        run_down[point] = run_down[point - 1] + 1 if closed[point] else 0
        closed_below[point] = closed_below[point - 1] + closed[point]
    delay = 0.0
    for point in range(2, 25):
        n = points[point]
        if n <= 0:
            continue
        low = max(point - 6, 0)
        ahead = closed_below[point - 1] - closed_below[low]
        if not ahead:
            continue
        run = max(run_down[low + 1 : point])
        group = min(n, weights.group_cap)
        delay += group * (
            weights.blocked * ahead
            + weights.blocked_squared * ahead * ahead
            + weights.prime * max(run - 2, 0) ** 2
        )
    return delay


def shot_chance(
    points: tuple[int, ...],
    pinned: tuple[int, ...],
    target: int,
    shooters: list[int] | None = None,
) -> float:
    """The chance (of 36 rolls) that the other side's next roll can land a checker on
    ``target``, in plakoto's geometry: its free checkers (on ``shooters``, found when not
    given) move up the numbering, through points not closed to them."""
    if shooters is None:
        shooters = [point for point in range(1, 25) if points[point] < 0]
    hits = 0
    for source in shooters:
        if source >= target:
            break
        for needs, mask in _ways(target - source):
            if hits | mask == hits:
                continue
            for step in needs:
                if not _open_to_them(points, pinned, source + step):
                    break
            else:
                hits |= mask
    return hits.bit_count() / 36


def _open_to_them(points: tuple[int, ...], pinned: tuple[int, ...], point: int) -> bool:
    """Whether the other side may land on ``point``: it is not held by two of the side's
    checkers, nor by one pinning a checker of theirs."""
    return points[point] < 1 or (points[point] == 1 and not pinned[point])


@cache
def _ways(distance: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The rolls that carry one checker ``distance`` pips, grouped by the points on the way
    that must be open: ``(steps on the way, mask of the 36 rolls)``."""
    ways: dict[tuple[int, ...], int] = {}
    for first in range(1, 7):
        for second in range(1, 7):
            bit = 1 << ((first - 1) * 6 + second - 1)
            routes: list[tuple[int, ...]] = []
            if first != second:
                if distance in (first, second):
                    routes.append(())
                elif distance == first + second:
                    routes += [(first,), (second,)]
            elif distance % first == 0 and distance // first <= 4:
                routes.append(tuple(first * k for k in range(1, distance // first)))
            for route in routes:
                ways[route] = ways.get(route, 0) | bit
    return tuple(ways.items())
