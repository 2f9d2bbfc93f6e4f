"""A player's rating history as a picture: where the line, its points and the axis labels go.

The profile page draws it as an SVG from a template; every coordinate is computed here, so the
page needs no script. The x axis counts rated matches (0: before the first), the y axis is the
rating, with round-numbered ticks.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 260
PLOT_LEFT, PLOT_RIGHT = 64, WIDTH - 16
PLOT_TOP, PLOT_BOTTOM = 16, HEIGHT - 44
MIN_SPAN = 40  # a flat history still gets a readable scale
Y_TICKS = 5
X_TICKS = 8


@dataclass(frozen=True)
class Tick:
    """An axis label: ``position`` is x on the x axis, y on the y axis."""

    position: float
    label: str


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    line: str  # the polyline's points attribute
    points: list[ChartPoint]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    description: str


def rating_chart(ratings: Sequence[float]) -> RatingChart | None:
    """The chart of ``ratings``: the rating before the first rated match, then after each one.

    None when there is no rated match to draw.

    >>> chart = rating_chart([1500, 1662.3, 1580])
    >>> chart.line
    '64.0,216.0 344.0,53.7 624.0,136.0'
    >>> [tick.label for tick in chart.y_ticks], [tick.label for tick in chart.x_ticks]
    (['1500', '1550', '1600', '1650', '1700'], ['0', '1', '2'])
    """
    if len(ratings) < 2:
        return None
    matches = len(ratings) - 1
    low, high, y_step = _y_scale(min(ratings), max(ratings))

    def x_of(index: float) -> float:
        return round(PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * index / matches, 1)

    def y_of(value: float) -> float:
        return round(PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * (value - low) / (high - low), 1)

    points = [
        ChartPoint(
            x_of(index),
            y_of(value),
            f"before the first rated match: {value:.0f}"
            if index == 0
            else f"after rated match {index}: {value:.0f}",
        )
        for index, value in enumerate(ratings)
    ]
    y_ticks = [Tick(y_of(value), f"{value:.0f}") for value in _range(low, high, y_step)]
    x_step = _nice_step(matches / X_TICKS) if matches > X_TICKS else 1
    x_ticks = [Tick(x_of(index), str(index)) for index in range(0, matches + 1, int(x_step))]
    description = (
        f"Rating over {matches} rated {'match' if matches == 1 else 'matches'}: from "
        f"{ratings[0]:.0f} to {ratings[-1]:.0f}, lowest {min(ratings):.0f}, "
        f"highest {max(ratings):.0f}."
    )
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        left=PLOT_LEFT,
        right=PLOT_RIGHT,
        top=PLOT_TOP,
        bottom=PLOT_BOTTOM,
        line=" ".join(f"{point.x},{point.y}" for point in points),
        points=points,
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        description=description,
    )


def _y_scale(lowest: float, highest: float) -> tuple[float, float, float]:
    """The y axis's ends and tick step: round numbers around the ratings."""
    if highest - lowest < MIN_SPAN:
        middle = (highest + lowest) / 2
        lowest, highest = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    step = _nice_step((highest - lowest) / (Y_TICKS - 1))
    low = math.floor(lowest / step) * step
    high = math.ceil(highest / step) * step
    return low, high, step


def _nice_step(rough: float) -> float:
    """The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least ``rough``."""
    power = 10 ** math.floor(math.log10(rough))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= rough:
            return factor * power
    return 10 * power


def _range(low: float, high: float, step: float) -> list[float]:
    count = round((high - low) / step)
    return [low + index * step for index in range(count + 1)]
