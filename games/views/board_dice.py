"""The dice as drawn on the board: where each die goes and where its pips are."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import Dice
from games.views.board_geometry import BOTTOM, LEFT, POINT_WIDTH, RIGHT_HALF, TOP


@dataclass
class Die:
    x: float
    y: float
    value: int
    used: bool
    pips: list[tuple[float, float]]


def draw_dice(dice: Dice | None, owner: int | None, side: int, used: tuple[int, ...]) -> list[Die]:
    """The dice as drawn: on the roller's half of the board, each die of a double twice."""
    if dice is None:
        return []
    mine = owner == side
    centre_x = (RIGHT_HALF + 3 * POINT_WIDTH) if mine else (LEFT + 3 * POINT_WIDTH)
    y = (TOP + BOTTOM) / 2
    values = [dice.first, dice.second] * (2 if dice.is_double() else 1)
    left_over = list(used)
    drawn = []
    size = 30
    start = centre_x - (len(values) * (size + 8) - 8) / 2
    for index, value in enumerate(values):
        x = start + index * (size + 8)
        is_used = value in left_over
        if is_used:
            left_over.remove(value)
        drawn.append(Die(x, y - size / 2, value, is_used, _pips(value, x, y - size / 2, size)))
    return drawn


_PIP_SPOTS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


def _pips(value: int, x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + dx * size, y + dy * size) for dx, dy in _PIP_SPOTS[value]]
