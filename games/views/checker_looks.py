"""How each player's checkers are drawn: as they chose among the rewards they unlocked."""

from __future__ import annotations

from typing import Any

from accounts.models import profile_of
from accounts.rewards import COLOURS, STYLES
from games.models import Viewer
from games.views.board import CheckerLook


def checker_looks(first_player: Any, second_player: Any) -> tuple[CheckerLook, CheckerLook]:
    """Both players' checkers as they chose them; when both chose the same colour, the second
    player's checkers keep the board's own so the two sides stay apart."""
    looks = [_look(first_player), _look(second_player)]
    if looks[0].colour and looks[0].colour == looks[1].colour:
        looks[1] = CheckerLook(style=looks[1].style)
    return looks[0], looks[1]


def _look(user: Viewer) -> CheckerLook:
    profile = profile_of(user) if user is not None else None
    if profile is None:
        return CheckerLook()
    colour = profile.checker_colour if profile.checker_colour in COLOURS else ""
    style = profile.checker_style if profile.checker_style in STYLES else ""
    return CheckerLook(colour, style)
