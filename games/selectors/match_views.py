"""A match as a viewer sees it (``MatchView``): what the match page renders and the API
serializes (MatchStateSerializer), field for field. Players are named by the names its reader
shows (usernames for the API, the names pages show for a page); ``usernames`` and the cube's
``owner`` stay usernames either way, for the board's markup."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.clocks.standing import Clocks
from games.models import Viewer as Viewer


@dataclass(frozen=True, slots=True)
class CubeView:
    value: int
    owner: str | None
    owner_name: str | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """Points 1 to 24 in the first player's numbering (positive counts the first player's
    checkers), what each pins (plakoto), the checkers on each bar and borne off, and those
    waiting to enter (acey-deucey), each pair in seat order."""

    points: tuple[int, ...]
    pinned: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    waiting: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ResignationView:
    by: str
    points: int


@dataclass(frozen=True, slots=True)
class LastPlayView:
    """The last play: ``play`` is empty when the roll could not be played."""

    player: str
    dice: tuple[int, int]
    play: str


@dataclass(frozen=True, slots=True)
class GameView:
    """A finished game: ``winner`` None for a drawn game; ``result`` a GameRecord's."""

    number: int
    winner: str | None
    points: int
    result: str
    crawford: bool


@dataclass(frozen=True, slots=True)
class DiceSeedsView:
    player_seeds: tuple[str, ...]
    revealed: bool


@dataclass(frozen=True, slots=True)
class RatingChangeView:
    player: str
    rating_before: float
    rating_after: float
    difference: float
    provisional: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    """Everything about a match that its page shows, plus what the viewer (seat ``you``, None
    for a spectator) may do now."""

    id: int
    seq: int
    status: str
    phase: str
    players: tuple[str, str]
    usernames: tuple[str, str]
    you: int | None
    variant: str
    variant_title: str
    game_variant: str
    game_variant_title: str
    match_format: str
    cube_in_use: bool
    match_length: int
    rated: bool
    time_control: Mapping[str, Any]
    score: tuple[int, int]
    games_won: tuple[int, int]
    game_number: int
    crawford: bool
    post_crawford: bool
    cube: CubeView
    turn: str | None
    to_act: str | None
    dice: tuple[int, int] | None
    climbing: bool
    board: BoardView
    board_text: str
    board_seen_by: str
    pip_counts: tuple[int, int]
    position_id: str | None
    match_id: str | None
    xgid: str | None
    resignation: ResignationView | None
    last_play: LastPlayView | None
    games: tuple[GameView, ...]
    winner: str | None
    end_reason: str | None
    end_offered_by: str | None
    deadline: datetime | None
    clocks: Clocks
    dice_seeds: DiceSeedsView
    legal_actions: tuple[str, ...]
    ending_actions: tuple[str, ...]
    legal_plays: tuple[str, ...]
    rating_changes: tuple[RatingChangeView, ...]
    tutor: Mapping[str, Any] | None
    created_at: datetime
    updated_at: datetime
