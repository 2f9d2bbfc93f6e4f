"""The doubling cube on the board: where it stands and what it shows.

Centred, it stands between the trays showing 64; owned, it stands at its owner's edge of that
gap showing its value. A double on offer is the cube turned to the new value in the middle of
the right half of the board, marked "offered", where the player who must answer sees it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import MatchState

SIZE = 34


@dataclass(frozen=True)
class Cube:
    """The cube as the match has it: ``owner`` and ``offered_by`` are players (0 or 1)."""

    value: int = 1
    owner: int | None = None
    offered_by: int | None = None

    @classmethod
    def of(cls, state: MatchState) -> Cube | None:
        """The cube of a match, or None when its rules use no cube or it can never be turned
        (a 1-point match: a win already brings the match)."""
        if not state.has_cube() or state.match_length == 1:
            return None
        offered = state.turn if state.phase == "doubled" else None
        return cls(state.cube_value, state.cube_owner, offered)


@dataclass(frozen=True)
class DrawnCube:
    x: float
    y: float
    face: int
    #: ``centre`` or the owner's username, as the board markup says.
    owner: str
    offered_by: str | None

    @property
    def left(self) -> float:
        return self.x - SIZE / 2

    @property
    def top(self) -> float:
        return self.y - SIZE / 2

    @property
    def text_y(self) -> float:
        return self.y + 6

    @property
    def label_y(self) -> float:
        return self.y + SIZE / 2 + 16

    @property
    def words(self) -> str:
        if self.offered_by:
            return _("%(player)s offers the cube at %(value)s") % {
                "player": self.offered_by,
                "value": self.face,
            }
        if self.owner == "centre":
            return _("The cube is centred")
        return _("%(player)s owns the cube at %(value)s") % {
            "player": self.owner,
            "value": self.face,
        }


def draw_cube(
    cube: Cube,
    *,
    side: int,
    usernames: tuple[str, str],
    tray_x: float,
    gap: tuple[float, float],
    offer_x: float,
) -> DrawnCube:
    """The cube seen by ``side``: ``gap`` is the space between the trays (its top and bottom),
    ``offer_x`` the middle of the half of the board where an offered cube is shown."""
    top, bottom = gap
    owner = "centre" if cube.owner is None else usernames[cube.owner]
    if cube.offered_by is not None:
        return DrawnCube(
            offer_x, (top + bottom) / 2 - 8, 2 * cube.value, owner, usernames[cube.offered_by]
        )
    if cube.owner is None:
        y = (top + bottom) / 2
    elif cube.owner == side:
        y = bottom - 4 - SIZE / 2
    else:
        y = top + 4 + SIZE / 2
    face = 64 if cube.owner is None and cube.value == 1 else cube.value
    return DrawnCube(tray_x, y, face, owner, None)
