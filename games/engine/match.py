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

Every variant of the family is played the same way, by the match's ``MatchRules`` (backgammon's
unless stated): the variant of each game (Tavli rotates portes, plakoto, fevga), its start, its
plays, its end and points (plakoto's pinned mother, a draw that scores nothing and is played
again), whether there is a cube and a Crawford game, who leads each game, and when the match is
won (points, or Tavli's best of three). Backgammon, nackgammon, hypergammon and portes keep
their board as a ``Position``; plakoto, fevga and long nardi, which it cannot describe, as a
``Board`` (docs/variants.md). The state's questions hide the difference: ``board_for`` gives
every variant's board as a ``Board``, and ``legal_play_notations``, ``canonical_play`` and
``turn_begun`` answer for the play on roll in any variant.

>>> from games.engine.events import OpeningRoll, PlayMade
>>> state = fold(3, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")])
>>> state.phase, state.turn, state.pip_counts()
('rolling', 1, (163, 167))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .board import Board
from .dice import Dice
from .errors import EngineError, IllegalActionError
from .events import Event, PlayMade, ResolvedPlay, check_player, opponent
from .legal import legal_plays as _legal_plays
from .match_records import (
    ABORTED,
    ENDED_BY_AGREEMENT,
    NO_POSITION,
    GameEnding,
    GameRecord,
    LastPlay,
    Phase,
)
from .notation import parse_play
from .play import Play, format_play
from .position import Position
from .refusals import (
    END_ANSWERS,
    TURN_ACTIONS,
    Action,
    why_cannot_double,
    why_cannot_move,
    why_refused,
)
from .transitions import apply_event, as_play, new_game_board
from .turn import PartialPlay, PartialVariantPlay, PlayInProgress
from .variant_moves import VariantPlay, find_play, variant_plays
from .variants import MatchRules, Variant
from .variants import game_variant as _game_variant

__all__ = [
    "ABORTED",
    "ENDED_BY_AGREEMENT",
    "MAX_MATCH_LENGTH",
    "NO_POSITION",
    "GameEnding",
    "GameRecord",
    "LastPlay",
    "MatchState",
    "Phase",
    "fold",
]

MAX_MATCH_LENGTH = 64


# --- The state ----------------------------------------------------------------------------


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

    ``rules`` say the match's variant, format and cube. ``board`` is the board, from player
    0's side, of a game whose variant's board is no ``Position`` (plakoto, fevga, long nardi,
    acey-deucey: ``Variant.holds_position``), and ``position`` is then ``NO_POSITION``;
    otherwise ``board`` is None and ``position`` is the board. ``board_for(player)`` gives
    every variant's board as a ``Board``. In Gul Bara a double from a player's fourth turn on
    leaves the same player ``moving`` with the next higher double as ``dice`` (the climb,
    docs/variants.md §6.1) until one is not played in full or 6-6 has been played.
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
    rules: MatchRules = MatchRules()
    board: Board | None = None
    dice_named: bool = False
    turns_taken: tuple[int, int] = (0, 0)
    """Each player's turns in this game so far, counted where the game's doubles climb (Gul
    Bara, ``Variant.doubles_climb_from_turn``): a roll begins a turn, and the doubles its climb
    calls for belong to it."""

    @classmethod
    def new(cls, match_length: int, rules: MatchRules | None = None) -> MatchState:
        """A match to ``match_length`` points (1 to 64), waiting for its opening roll.

        A best-of-three Tavli match is written with the length 3.

        >>> MatchState.new(5).phase
        'opening'
        >>> MatchState.new(5, MatchRules.of("plakoto")).board_for(0).text()
        '-15 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0'
        """
        rules = MatchRules() if rules is None else rules
        if (
            isinstance(match_length, bool)
            or not isinstance(match_length, int)
            or not 1 <= match_length <= MAX_MATCH_LENGTH
        ):
            raise IllegalActionError(
                f"a match is played to 1 to {MAX_MATCH_LENGTH} points, not {match_length!r}"
            )
        if rules.counts_games() and match_length != 3:
            raise IllegalActionError(
                f"a best-of-three Tavli match has the length 3, not {match_length!r}"
            )
        state = cls(
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
            rules=rules,
        )
        return new_game_board(state) if rules != MatchRules() else state

    # --- Questions ---

    @property
    def game_variant(self) -> Variant:
        """The rules of the game being played (in Tavli, the rotation's game).

        >>> state = MatchState.new(3, MatchRules.of("tavli", "tavli-best-of-three"))
        >>> state.game_variant.name
        'portes'
        """
        if self.board is not None:
            return self.board.variant
        return _game_variant(self.rules.variant, 0)

    def position_for(self, player: int) -> Position:
        """The board seen from ``player``'s side, where it is a Position (``NO_POSITION`` in
        plakoto, fevga and long nardi: ask ``board_for``)."""
        return self.position if check_player(player) == 0 else self.position.flipped()

    def board_for(self, player: int) -> Board:
        """The board of any variant seen from ``player``'s side.

        >>> MatchState.new(1).board_for(1).text()
        '-2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 | 0 0 0 0'
        """
        if self.board is None:
            return Board(self.game_variant, self.position_for(player).points)
        return self.board if check_player(player) == 0 else self.board.flipped()

    def position_id(self, player: int) -> str | None:
        """GNU Backgammon's Position ID of the board from ``player``'s side, in the variants that
        have one (those that hit: backgammon, nackgammon, hypergammon, portes); else None."""
        if self.board is not None:
            return None
        return self.position_for(player).position_id()

    def has_gnubg_ids(self) -> bool:
        """gnubg's Match ID and XG's XGID describe this match: a match to N points of a variant
        gnubg plays (backgammon, nackgammon, hypergammon: backgammon's board and cube)."""
        return self.rules.match_variant.gnubg_variation is not None

    def has_cube(self) -> bool:
        """The match is played with the doubling cube."""
        return self.rules.cube

    def resignation_offers(self) -> tuple[int, ...]:
        """The points (times the cube) a resignation may offer in this game's variant: 1 and 2,
        and 3 where the variant has a backgammon.

        >>> MatchState.new(3, MatchRules.of("long-nardi")).resignation_offers()
        (1, 2)
        """
        variant = self.game_variant
        return (1, 2, 3) if variant.backgammon > variant.gammon else (1, 2)

    def games_won(self) -> tuple[int, int]:
        """Games each player has won (draws count for neither)."""
        won = [0, 0]
        for game in self.games:
            if game.winner is not None:
                won[game.winner] += 1
        return won[0], won[1]

    def is_finished(self) -> bool:
        """The match is over: won, awarded or aborted."""
        return self.phase == "finished"

    def has_begun(self) -> bool:
        """A player has moved (or rolled and could not): the match is no longer abortable as
        untouched.

        >>> from games.engine.events import OpeningRoll, PlayMade
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
        """Pips each player needs to bear off: (player 0's, player 1's), each counted in its
        owner's numbering (docs/variants.md §9.1)."""
        if self.board is None:
            return self.position.pip_count()
        return self.board.pip_count()

    def is_climbing(self) -> bool:
        """The dice to play are the next double of a climb (Gul Bara), not a roll: the player
        on roll made the last play too, in a game whose doubles climb."""
        return (
            self.phase == "moving"
            and self.game_variant.doubles_climb_from_turn > 0
            and self.last_play is not None
            and self.last_play.player == self.turn
        )

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
        if self.board is None:
            return _legal_plays(self.position_for(self.turn), self.dice)
        board = self.board_for(self.turn)
        return tuple(as_play(board, play) for play in variant_plays(board, self.dice))

    def variant_plays(self) -> tuple[VariantPlay, ...]:
        """Every legal play of the player on roll while moving, in any variant, each with its
        canonical notation and the board after it (from the mover's side); else ()."""
        if self.phase != "moving" or self.turn is None or self.dice is None:
            return ()
        return variant_plays(self.board_for(self.turn), self.dice)

    def legal_play_notations(self) -> tuple[str, ...]:
        """Every legal play of the player on roll while moving, in notation, in any variant;
        else ().

        >>> from games.engine.events import OpeningRoll
        >>> MatchState.new(1).apply(OpeningRoll((2, 1))).legal_play_notations()[:2]
        ('24/23 24/22', '24/21')
        """
        if self.board is None:
            return tuple(format_play(play) for play in self.legal_plays())
        return tuple(play.notation for play in self.variant_plays())

    def canonical_play(self, player: int, text: str) -> str:
        """The canonical notation of the play ``text`` names (in any common spelling), for
        ``player`` to make now; an ``EngineError`` says why it cannot be.

        >>> from games.engine.events import OpeningRoll
        >>> MatchState.new(1).apply(OpeningRoll((3, 1))).canonical_play(0, "8/5, 6/5")
        '8/5 6/5'
        """
        return self.resolve_play(player, text).notation

    def resolve_play(self, player: int, text: str) -> PlayMade:
        """The event of ``player`` making the play ``text`` names now, in canonical notation
        and carrying the play found, so that applying it to this state reads the notation no
        more; an ``EngineError`` says why it cannot be.

        >>> from games.engine.events import OpeningRoll
        >>> opened = MatchState.new(1).apply(OpeningRoll((3, 1)))
        >>> event = opened.resolve_play(0, "6/5 8/5")
        >>> event == PlayMade(0, "8/5 6/5")
        True
        >>> opened.apply(event) == opened.apply(PlayMade(0, "8/5 6/5"))
        True
        """
        dice = self._dice_to_play(player)
        if self.board is None:
            position = self.position_for(player)
            play = parse_play(text, position, dice)
            return PlayMade(player, format_play(play), ResolvedPlay(position, dice, play))
        board = self.board_for(player)
        try:
            found = find_play(board, dice, text)
        except EngineError:
            # The rules' own refusal says why (a pinned checker, a checker that is not there).
            self.apply(PlayMade(player, text))
            raise
        return PlayMade(player, found.notation, ResolvedPlay(board, dice, found))

    def turn_begun(self, player: int) -> PlayInProgress:
        """The play ``player`` puts together checker by checker, before the first checker.

        >>> from games.engine.events import OpeningRoll
        >>> sorted(MatchState.new(1).apply(OpeningRoll((6, 5))).turn_begun(0).movable_points())
        [8, 13, 24]
        """
        dice = self._dice_to_play(player)
        if self.board is None:
            return PartialPlay(self.position_for(player), dice, variant=self.game_variant)
        return PartialVariantPlay(self.board_for(player), dice)

    def _dice_to_play(self, player: int) -> Dice:
        reason = why_cannot_move(self, check_player(player))
        if reason is not None:
            raise IllegalActionError(reason)
        assert self.dice is not None
        return self.dice

    def legal_actions(self, player: int) -> tuple[Action, ...]:
        """The actions ``player`` may take now, by name.

        >>> from games.engine.events import OpeningRoll
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
        return apply_event(self, event)


def fold(match_length: int, events: Iterable[Event], rules: MatchRules | None = None) -> MatchState:
    """The state of a match to ``match_length`` points by ``rules`` (backgammon's unless
    given) after ``events``, from the start.

    >>> from games.engine.events import OpeningRoll
    >>> fold(1, [OpeningRoll((2, 2))]).phase
    'opening'
    """
    state = MatchState.new(match_length, rules)
    for event in events:
        state = state.apply(event)
    return state
