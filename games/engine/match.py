"""The rules of a match, as a state machine over events.

A match is its log of events (defined in ``events``): ``fold(match_length, events)`` replays
them from the start, and ``state.apply(event)`` gives the state after one more. Both are pure;
an event the rules do not allow raises an ``EngineError`` (``IllegalActionError`` for actions
out of turn or in the wrong phase, worded by the checks in ``refusals``; ``IllegalPlayError``
and friends for plays), and no state is ever half-changed.

Players are 0 and 1. ``MatchState.position`` is always seen from player 0's side;
``position_for(player)`` turns it to either player.

Rules played: the opening roll (ties rolled again; the higher die plays both numbers),
the doubling cube with takes and drops, resignations of a single, gammon or backgammon
(times the cube) that the opponent accepts or rejects, gammons and backgammons with the cube,
match score, the Crawford game once per match, and post-Crawford doubling. Not played:
beavers, raccoons, automatic doubles, the Jacoby rule, settlements.

>>> state = fold(3, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")])
>>> state.phase, state.turn, state.pip_counts()
('rolling', 1, (163, 167))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .dice import Dice
from .errors import IllegalActionError
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
    check_player,
    opponent,
)
from .legal import legal_plays as _legal_plays
from .notation import parse_play
from .play import Play
from .position import Position
from .refusals import (
    END_ANSWERS,
    TURN_ACTIONS,
    Action,
    why_cannot_abort,
    why_cannot_accept_end,
    why_cannot_accept_resignation,
    why_cannot_decline_end,
    why_cannot_double,
    why_cannot_drop,
    why_cannot_move,
    why_cannot_offer_end,
    why_cannot_reject_resignation,
    why_cannot_resign,
    why_cannot_roll,
    why_cannot_take,
    why_no_opening_roll,
    why_over,
    why_refused,
)

MAX_MATCH_LENGTH = 64

Phase: TypeAlias = Literal["opening", "rolling", "moving", "doubled", "resigned", "finished"]
GameEnding: TypeAlias = Literal["single", "gammon", "backgammon", "drop", "resign"]
#: Why a match ended without a winner when a player ended it.
ABORTED = "aborted"
ENDED_BY_AGREEMENT = "ended by agreement"
_ENDINGS: dict[int, GameEnding] = {1: "single", 2: "gammon", 3: "backgammon"}


# --- The state ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: who won it, for how many points, and how."""

    number: int
    winner: int
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


@dataclass(frozen=True, slots=True)
class MatchState:
    """Where a match stands; build it with ``MatchState.new`` or ``fold``.

    ``phase`` is what the match waits for: ``opening`` (the server's opening roll),
    ``rolling`` (``turn`` rolls or doubles), ``moving`` (``turn`` plays ``dice``),
    ``doubled`` (``turn`` has doubled; the opponent takes or drops), ``resigned`` (``turn``
    offered to resign ``resignation`` points x cube; the opponent accepts or rejects, and a
    rejection returns to ``phase_before_resignation``), ``finished`` (``winner`` won, or the
    match was ``aborted``; ``end_reason`` says why when it ended by award or abort).
    ``position`` is always seen from player 0's side. ``score`` keeps every point won, so
    the winner's may pass ``match_length``. ``crawford`` says this game is the Crawford
    game; ``crawford_played`` that the Crawford game has been played out. ``end_offered_by``
    is the player whose offer to end the match without a winner waits for an answer.
    """

    match_length: int
    score: tuple[int, int]
    game_number: int
    crawford: bool
    crawford_played: bool
    cube_value: int
    cube_owner: int | None
    phase: Phase
    turn: int | None
    dice: Dice | None
    position: Position
    resignation: int | None
    phase_before_resignation: Phase | None
    games: tuple[GameRecord, ...]
    winner: int | None
    aborted: bool
    end_reason: str | None
    last_play: LastPlay | None
    end_offered_by: int | None = None

    @classmethod
    def new(cls, match_length: int) -> MatchState:
        """A match to ``match_length`` points (1 to 64), waiting for its opening roll.

        >>> MatchState.new(5).phase
        'opening'
        """
        if (
            isinstance(match_length, bool)
            or not isinstance(match_length, int)
            or not 1 <= match_length <= MAX_MATCH_LENGTH
        ):
            raise IllegalActionError(
                f"a match is played to 1 to {MAX_MATCH_LENGTH} points, not {match_length!r}"
            )
        return cls(
            match_length=match_length,
            score=(0, 0),
            game_number=1,
            crawford=False,
            crawford_played=False,
            cube_value=1,
            cube_owner=None,
            phase="opening",
            turn=None,
            dice=None,
            position=Position.starting(),
            resignation=None,
            phase_before_resignation=None,
            games=(),
            winner=None,
            aborted=False,
            end_reason=None,
            last_play=None,
            end_offered_by=None,
        )

    # --- Questions ---

    def position_for(self, player: int) -> Position:
        """The board seen from ``player``'s side."""
        return self.position if check_player(player) == 0 else self.position.flipped()

    def is_finished(self) -> bool:
        """The match is over: won, awarded or aborted."""
        return self.phase == "finished"

    def has_begun(self) -> bool:
        """A player has moved (or rolled and could not): the match is no longer abortable as
        untouched.

        >>> state = MatchState.new(3).apply(OpeningRoll((3, 1)))
        >>> state.has_begun(), state.apply(PlayMade(0, "8/5 6/5")).has_begun()
        (False, True)
        """
        return bool(self.games) or self.last_play is not None

    def is_post_crawford(self) -> bool:
        """The Crawford game has been played: doubling is allowed again."""
        return self.crawford_played

    def points_needed(self, player: int) -> int:
        """Points ``player`` still needs to win the match."""
        return max(self.match_length - self.score[check_player(player)], 0)

    def pip_counts(self) -> tuple[int, int]:
        """Pips each player needs to bear off: (player 0's, player 1's)."""
        return self.position.pip_count()

    def player_to_act(self) -> int | None:
        """Who must decide now: the player on roll, the doubled player, or the resigner's
        opponent; None while waiting for the opening roll and once the match is over."""
        if self.turn is None or self.phase in ("opening", "finished"):
            return None
        if self.phase in ("doubled", "resigned"):
            return opponent(self.turn)
        return self.turn

    def can_double(self, player: int) -> bool:
        """``player`` may double now.

        Only the player on roll, before rolling, outside the Crawford game, with the cube
        centred or their own, and only while the cube is alive for them: its value must be
        less than the points they still need. (A double that cannot gain anything is refused,
        as bgsage's ``can_double_match`` refuses it; the service then rolls at once.)
        """
        return why_cannot_double(self, check_player(player)) is None

    def legal_plays(self) -> tuple[Play, ...]:
        """Every legal play of the player on roll while moving, else ()."""
        if self.phase != "moving" or self.turn is None or self.dice is None:
            return ()
        return _legal_plays(self.position_for(self.turn), self.dice)

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """The actions ``player`` may take now, by name.

        >>> MatchState.new(5).apply(OpeningRoll((1, 3))).legal_actions(1)
        ('move', 'resign')
        """
        check_player(player)
        return tuple(action for action in TURN_ACTIONS if why_refused(self, player, action) is None)

    def end_answers(self, player: int) -> tuple[Action, ...]:
        """``accept_end`` and ``decline_end`` while the opponent's offer to end the match
        stands: answered whoever is to act, so apart from ``legal_actions``."""
        if self.is_finished():
            return ()
        return tuple(action for action in END_ANSWERS if why_refused(self, player, action) is None)

    # --- Events ---

    def apply(self, event: Event) -> MatchState:
        """The state after ``event``; raises an ``EngineError`` if the rules do not allow it.

        A tied opening roll leaves the state as it was: the server rolls again.
        """
        if isinstance(event, OpeningRoll):
            _allow(why_no_opening_roll(self))
            return self._opening_roll(event)
        if isinstance(event, Roll):
            _allow(why_cannot_roll(self, event.player))
            return self._rolled(event.player, event.dice)
        if isinstance(event, PlayMade):
            _allow(why_cannot_move(self, event.player))
            return self._play_made(event)
        if isinstance(event, Double):
            _allow(why_cannot_double(self, event.player))
            return dataclasses.replace(self, phase="doubled")
        if isinstance(event, Take):
            _allow(why_cannot_take(self, event.player))
            return dataclasses.replace(
                self, phase="rolling", cube_value=self.cube_value * 2, cube_owner=event.player
            )
        if isinstance(event, Drop):
            _allow(why_cannot_drop(self, event.player))
            return self._game_won(opponent(event.player), self.cube_value, "drop")
        if isinstance(event, Resign):
            _allow(why_cannot_resign(self, event.player))
            return dataclasses.replace(
                self,
                phase="resigned",
                resignation=event.points,
                phase_before_resignation=self.phase,
            )
        if isinstance(event, AcceptResignation):
            _allow(why_cannot_accept_resignation(self, event.player))
            assert self.resignation is not None
            return self._game_won(event.player, self.resignation * self.cube_value, "resign")
        if isinstance(event, RejectResignation):
            _allow(why_cannot_reject_resignation(self, event.player))
            assert self.phase_before_resignation is not None
            return dataclasses.replace(
                self,
                phase=self.phase_before_resignation,
                resignation=None,
                phase_before_resignation=None,
            )
        if isinstance(event, MatchAwarded):
            _allow(why_over(self, "award the match"))
            return self._finished(winner=event.winner, end_reason=event.reason)
        if isinstance(event, TimedOut):
            _allow(why_over(self, "lose on time"))
            return self._finished(winner=opponent(event.player), end_reason="timeout")
        if isinstance(event, Abort):
            _allow(why_cannot_abort(self, event.player))
            return self._finished(winner=None, end_reason=ABORTED, aborted=True)
        if isinstance(event, OfferEnd):
            _allow(why_cannot_offer_end(self, event.player))
            return dataclasses.replace(self, end_offered_by=event.player)
        if isinstance(event, AcceptEnd):
            _allow(why_cannot_accept_end(self, event.player))
            return self._finished(winner=None, end_reason=ENDED_BY_AGREEMENT, aborted=True)
        if isinstance(event, DeclineEnd):
            _allow(why_cannot_decline_end(self, event.player))
            return dataclasses.replace(self, end_offered_by=None)
        if isinstance(event, MatchAborted):
            _allow(why_over(self, "abort the match"))
            return self._finished(winner=None, end_reason=event.reason, aborted=True)
        raise IllegalActionError(f"{event!r} is not a match event")

    def _opening_roll(self, event: OpeningRoll) -> MatchState:
        first, second = event.dice
        if first == second:
            return self
        return self._rolled(0 if first > second else 1, Dice(max(event.dice), min(event.dice)))

    def _rolled(self, player: int, dice: Dice) -> MatchState:
        if not _legal_plays(self.position_for(player), dice):
            return dataclasses.replace(
                self,
                phase="rolling",
                turn=opponent(player),
                dice=None,
                last_play=LastPlay(player, dice, Play()),
            )
        return dataclasses.replace(self, phase="moving", turn=player, dice=dice)

    def _play_made(self, event: PlayMade) -> MatchState:
        player = event.player
        assert self.dice is not None
        before = self.position_for(player)
        play = parse_play(event.notation, before, self.dice)
        after = before.apply(play)
        moved = dataclasses.replace(
            self,
            phase="rolling",
            turn=opponent(player),
            dice=None,
            position=after if player == 0 else after.flipped(),
            last_play=LastPlay(player, self.dice, play),
        )
        outcome = after.outcome()
        if outcome is None:
            return moved
        assert outcome.winner_on_roll
        return moved._game_won(
            player, int(outcome.result) * self.cube_value, _ENDINGS[int(outcome.result)]
        )

    def _game_won(self, winner: int, points: int, result: GameEnding) -> MatchState:
        score = list(self.score)
        score[winner] += points
        games = (*self.games, GameRecord(self.game_number, winner, points, result, self.crawford))
        crawford_played = self.crawford_played or self.crawford
        if score[winner] >= self.match_length:
            return dataclasses.replace(
                self._finished(winner=winner, end_reason=None),
                score=(score[0], score[1]),
                games=games,
                crawford_played=crawford_played,
            )
        return dataclasses.replace(
            self,
            score=(score[0], score[1]),
            game_number=self.game_number + 1,
            # The game after a player first comes within one point of the match is the
            # Crawford game; there is one at most, so none once it has been played.
            crawford=not crawford_played and score[winner] == self.match_length - 1,
            crawford_played=crawford_played,
            cube_value=1,
            cube_owner=None,
            phase="opening",
            turn=None,
            dice=None,
            position=Position.starting(),
            resignation=None,
            phase_before_resignation=None,
            games=games,
            last_play=None,
        )

    def _finished(
        self, *, winner: int | None, end_reason: str | None, aborted: bool = False
    ) -> MatchState:
        return dataclasses.replace(
            self,
            phase="finished",
            turn=None,
            dice=None,
            resignation=None,
            phase_before_resignation=None,
            winner=winner,
            aborted=aborted,
            end_reason=end_reason,
            end_offered_by=None,
        )


def _allow(refusal: str | None) -> None:
    """Go on unless the rules refuse: then raise their reason."""
    if refusal is not None:
        raise IllegalActionError(refusal)


def fold(match_length: int, events: Iterable[Event]) -> MatchState:
    """The state of a match to ``match_length`` points after ``events``, from the start.

    >>> fold(1, [OpeningRoll((2, 2))]).phase
    'opening'
    """
    state = MatchState.new(match_length)
    for event in events:
        state = state.apply(event)
    return state
