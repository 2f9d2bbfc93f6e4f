"""The rules of backgammon and its family as a pure package: positions, rolls, plays, matches.

Standard library only; no Django import anywhere below here.
"""

from .board import Board
from .dice import Dice
from .errors import (
    AmbiguousPlayError,
    EngineError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidMatchIdError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidSnapshotError,
    InvalidXgidError,
)
from .events import (
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Double,
    Drop,
    Event,
    MatchAborted,
    MatchAwarded,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimedOut,
    event_from_payload,
)
from .legal import legal_plays
from .match import GameRecord, LastPlay, MatchState, fold
from .notation import parse_play
from .play import BAR, OFF, Move, Play, format_play
from .position import CHECKERS, GameResult, Outcome, Position
from .refusals import ACTIONS, why_refused
from .snapshots import snapshot, state_from_snapshot
from .variant_moves import GameEnd, VariantPlay, find_play, game_end, variant_plays
from .variants import (
    TAVLI,
    VARIANTS,
    MatchFormat,
    UnknownVariantError,
    Variant,
    game_variant,
    match_winner,
    variant_named,
)

__all__ = [
    "ACTIONS",
    "BAR",
    "CHECKERS",
    "OFF",
    "Abort",
    "AcceptEnd",
    "AcceptResignation",
    "AmbiguousPlayError",
    "DeclineEnd",
    "Dice",
    "Double",
    "Drop",
    "EngineError",
    "Event",
    "GameRecord",
    "GameResult",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidMatchIdError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidSnapshotError",
    "InvalidXgidError",
    "LastPlay",
    "MatchAborted",
    "MatchAwarded",
    "TimedOut",
    "MatchState",
    "Move",
    "OfferEnd",
    "OpeningRoll",
    "Outcome",
    "Play",
    "PlayMade",
    "Position",
    "RejectResignation",
    "Resign",
    "Roll",
    "Take",
    "event_from_payload",
    "fold",
    "format_play",
    "legal_plays",
    "parse_play",
    "snapshot",
    "state_from_snapshot",
    "ACTIONS",
    "why_refused",
    "Board",
    "GameEnd",
    "MatchFormat",
    "TAVLI",
    "UnknownVariantError",
    "VARIANTS",
    "Variant",
    "VariantPlay",
    "find_play",
    "game_end",
    "game_variant",
    "match_winner",
    "variant_named",
    "variant_plays",
]
