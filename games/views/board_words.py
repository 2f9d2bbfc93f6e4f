"""The board in words, for screen readers: each side's checkers point by point, every point
numbered as its owner counts it (the variant says how the two numberings meet)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import BAR
from games.engine.board import Board
from games.engine.variants import opponent_point


def describe(seen: Board, *, names: tuple[str, str]) -> str:
    """``seen`` from the side of ``names[0]``; a pinned checker (plakoto) is said to be pinned.

    >>> from games.engine.variants import FEVGA
    >>> describe(Board.starting(FEVGA), names=("Ann", "Bob")).split(";")[0]
    'Ann: 15 on 24'
    """
    variant = seen.variant
    counts, pinned = seen.points, seen.pinned
    mine, theirs = [], []
    for point in range(24, 0, -1):
        top = counts[point]
        if top > 0:
            mine.append(_on(top, point))
        elif top < 0 and pinned[point]:
            mine.append(_pinned_on(pinned[point], point))
    for own in range(24, 0, -1):
        point = opponent_point(variant, own)
        top = counts[point]
        if top < 0:
            theirs.append(_on(-top, own))
        elif top > 0 and pinned[point]:
            theirs.append(_pinned_on(pinned[point], own))
    mine_off, theirs_off = seen.borne_off()
    pips = seen.pip_count()
    parts = []
    for name, where, bar, waiting, off, pip in (
        (names[0], mine, counts[BAR], seen.waiting[0], mine_off, pips[0]),
        (names[1], theirs, counts[0], seen.waiting[1], theirs_off, pips[1]),
    ):
        said = [", ".join(where) if where else _("no checkers on points")]
        if bar:
            said.append(_("%(count)s on the bar") % {"count": bar})
        if waiting:
            said.append(_("%(count)s waiting to enter") % {"count": waiting})
        if off:
            said.append(_("%(count)s borne off") % {"count": off})
        said.append(
            _("pip count %(pips)s (points in %(name)s's own numbering).")
            % {"pips": pip, "name": name}
        )
        parts.append(f"{name}: " + "; ".join(said))
    return " ".join(parts)


def _on(count: int, point: int) -> str:
    return _("%(count)s on %(point)s") % {"count": count, "point": point}


def _pinned_on(count: int, point: int) -> str:
    return _("%(count)s pinned on %(point)s") % {"count": count, "point": point}
