"""bgsage, the neural-network engine that ranks plays; the site reaches it only through here.

(A minimal module: the fuller one, with bots and match analysis, keeps ``rank_plays`` as is.)
"""

from __future__ import annotations

import functools
import math
from typing import Any

from games.engine import Dice, Position, format_play, legal_plays


@functools.cache
def _analyzer() -> Any:
    import bgsage  # type: ignore[import-untyped, unused-ignore]

    return bgsage.BgBotAnalyzer()


def rank_plays(position: Position, dice: Dice) -> list[tuple[str, float]]:
    """Every legal play of ``dice`` for the player on roll in ``position``, in notation, with
    bgsage's equity for it at money play (cube centred, no Jacoby rule, no beavers), best
    first. No legal play: an empty list."""
    plays = legal_plays(position, dice)
    if not plays:
        return []
    notation_after = {position.apply(play).points: format_play(play) for play in plays}
    result = _analyzer().checker_play(
        list(position.points), dice.first, dice.second, jacoby=False, beaver=False
    )
    ranked = []
    for move in result.moves:
        notation = notation_after.pop(tuple(move.board), None)
        if notation is not None:
            ranked.append((notation, float(move.equity)))
    # Should bgsage ever leave a legal play out, it is still listed, unranked, last.
    ranked += [(notation, math.nan) for notation in notation_after.values()]
    return ranked
