"""The rules of backgammon as a pure package: positions, rolls, plays, matches.

Standard library only; no Django import anywhere below here.
"""

from .dice import Dice
from .errors import (
    AmbiguousPlayError,
    EngineError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
)
from .legal import legal_plays
from .play import BAR, OFF, Move, Play
from .position import CHECKERS, GameResult, Outcome, Position

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "AmbiguousPlayError",
    "Dice",
    "EngineError",
    "GameResult",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Play",
    "Position",
    "legal_plays",
]
