"""The records a match keeps beside its board: its finished games and its latest play, and
the words for how a game or a match ended."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from .dice import Dice
from .play import Play
from .position import Position

Phase: TypeAlias = Literal[
    "opening", "rolling", "moving", "naming", "doubled", "resigned", "finished"
]
GameEnding: TypeAlias = Literal[
    "single", "gammon", "backgammon", "drop", "resign", "mother", "draw"
]
#: Why a match ended without a winner when a player ended it.
ABORTED = "aborted"
ENDED_BY_AGREEMENT = "ended by agreement"
#: The position of a game whose board is a ``Board`` (plakoto, fevga, long nardi).
NO_POSITION = Position((0,) * 26)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: who won it, for how many points, and how.

    A drawn game (plakoto's two pinned mothers) has no winner and scores nothing.
    """

    number: int
    winner: int | None
    points: int
    result: GameEnding
    crawford: bool


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The latest play of the game: ``player`` played ``play`` with ``dice``.

    An empty play means the player rolled ``dice`` and could not move.
    """

    player: int
    dice: Dice
    play: Play
