"""How each event changes a match: ``apply_event(state, event)``, which ``MatchState.apply``
answers with. Every change returns a new state; an event the rules refuse raises their reason
(``refusals``) before anything is built."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from .board import Board
from .dice import Dice
from .errors import IllegalActionError, IllegalPlayError
from .events import (
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Double,
    DoubleNamed,
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
    opponent,
)
from .legal import legal_plays as _legal_plays
from .match_records import (
    ABORTED,
    ENDED_BY_AGREEMENT,
    NO_POSITION,
    GameEnding,
    GameRecord,
    LastPlay,
)
from .notation import parse_play
from .play import IN, OFF, Play, make_move
from .play_refusals import why_play_breaks_a_rule
from .position import Position
from .refusals import (
    why_cannot_abort,
    why_cannot_accept_end,
    why_cannot_accept_resignation,
    why_cannot_decline_end,
    why_cannot_double,
    why_cannot_drop,
    why_cannot_move,
    why_cannot_name_double,
    why_cannot_offer_end,
    why_cannot_reject_resignation,
    why_cannot_resign,
    why_cannot_resign_points,
    why_cannot_roll,
    why_cannot_take,
    why_no_opening_roll,
    why_over,
)
from .variant_moves import VariantPlay, double_after, find_play, game_end, variant_plays
from .variants import MatchRules

if TYPE_CHECKING:
    from .match import MatchState

_ENDINGS: dict[int, GameEnding] = {1: "single", 2: "gammon", 3: "backgammon"}


def apply_event(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``; raises an ``EngineError`` if the rules do not allow it.

    A tied opening roll leaves the state as it was: the server rolls again.
    """
    if isinstance(event, OpeningRoll):
        _allow(why_no_opening_roll(state))
        return _opening_roll(state, event)
    if isinstance(event, Roll):
        _allow(why_cannot_roll(state, event.player))
        return _rolled(_turn_begun(state, event.player), event.player, event.dice)
    if isinstance(event, PlayMade):
        _allow(why_cannot_move(state, event.player))
        return _play_made(state, event)
    if isinstance(event, DoubleNamed):
        _allow(why_cannot_name_double(state, event.player))
        named = dataclasses.replace(state, dice_named=True)
        return _rolled(named, event.player, Dice(event.number, event.number))
    if isinstance(event, Double):
        _allow(why_cannot_double(state, event.player))
        return dataclasses.replace(state, phase="doubled")
    if isinstance(event, Take):
        _allow(why_cannot_take(state, event.player))
        return dataclasses.replace(
            state, phase="rolling", cube_value=state.cube_value * 2, cube_owner=event.player
        )
    if isinstance(event, Drop):
        _allow(why_cannot_drop(state, event.player))
        return _game_won(state, opponent(event.player), state.cube_value, "drop")
    if isinstance(event, Resign):
        _allow(why_cannot_resign(state, event.player))
        _allow(why_cannot_resign_points(state.game_variant, event.points))
        return dataclasses.replace(
            state,
            phase="resigned",
            resignation=event.points,
            phase_before_resignation=state.phase,
        )
    if isinstance(event, AcceptResignation):
        _allow(why_cannot_accept_resignation(state, event.player))
        assert state.resignation is not None
        return _game_won(state, event.player, state.resignation * state.cube_value, "resign")
    if isinstance(event, RejectResignation):
        _allow(why_cannot_reject_resignation(state, event.player))
        assert state.phase_before_resignation is not None
        return dataclasses.replace(
            state,
            phase=state.phase_before_resignation,
            resignation=None,
            phase_before_resignation=None,
        )
    if isinstance(event, MatchAwarded):
        _allow(why_over(state, "award the match"))
        return _finished(state, winner=event.winner, end_reason=event.reason)
    if isinstance(event, TimedOut):
        _allow(why_over(state, "lose on time"))
        return _finished(state, winner=opponent(event.player), end_reason="timeout")
    if isinstance(event, Abort):
        _allow(why_cannot_abort(state, event.player))
        return _finished(state, winner=None, end_reason=ABORTED, aborted=True)
    if isinstance(event, OfferEnd):
        _allow(why_cannot_offer_end(state, event.player))
        return dataclasses.replace(state, end_offered_by=event.player)
    if isinstance(event, AcceptEnd):
        _allow(why_cannot_accept_end(state, event.player))
        return _finished(state, winner=None, end_reason=ENDED_BY_AGREEMENT, aborted=True)
    if isinstance(event, DeclineEnd):
        _allow(why_cannot_decline_end(state, event.player))
        return dataclasses.replace(state, end_offered_by=None)
    if isinstance(event, MatchAborted):
        _allow(why_over(state, "abort the match"))
        return _finished(state, winner=None, end_reason=event.reason, aborted=True)
    raise IllegalActionError(f"{event!r} is not a match event")


def _opening_roll(state: MatchState, event: OpeningRoll) -> MatchState:
    first, second = event.dice
    if first == second:
        return state
    starter = 0 if first > second else 1
    if state.rules.higher_die_rolls_again:
        return dataclasses.replace(state, phase="rolling", turn=starter)
    return _rolled(_turn_begun(state, starter), starter, Dice(max(event.dice), min(event.dice)))


def _turn_begun(state: MatchState, player: int) -> MatchState:
    """The state with ``player``'s turn counted, where the game's doubles climb."""
    if not state.game_variant.doubles_climb_from_turn:
        return state
    taken = list(state.turns_taken)
    taken[player] += 1
    return dataclasses.replace(state, turns_taken=(taken[0], taken[1]))


def _can_move(state: MatchState, player: int, dice: Dice) -> bool:
    if state.board is None:
        return bool(_legal_plays(state.position_for(player), dice))
    return bool(variant_plays(state.board_for(player), dice))


def _rolled(state: MatchState, player: int, dice: Dice) -> MatchState:
    if not _can_move(state, player, dice):
        return dataclasses.replace(
            state,
            phase="rolling",
            turn=opponent(player),
            dice=None,
            last_play=LastPlay(player, dice, Play()),
            dice_named=False,
        )
    return dataclasses.replace(state, phase="moving", turn=player, dice=dice)


def _play_made(state: MatchState, event: PlayMade) -> MatchState:
    """A play in any variant: its board, its end, its points."""
    player = event.player
    dice = state.dice
    assert dice is not None
    variant = state.game_variant
    resolved = event.resolved
    if resolved is not None and resolved.dice != dice:
        resolved = None
    if state.board is None:
        before = state.position_for(player)
        if resolved is not None and resolved.before == before:
            assert isinstance(resolved.play, Play)
            play = resolved.play
        else:
            play = parse_play(event.notation, before, dice)
        after = before.apply(play)
        moved = dataclasses.replace(state, position=after if player == 0 else after.flipped())
        # A hitting game ends only when the mover has no checker left in play.
        in_play = any(count > 0 for count in after.points[1:])
        board_after: Board | None = None if in_play else Board(variant, after.points)
        climbed = None
    else:
        board = state.board_for(player)
        if resolved is not None and resolved.before == board:
            assert isinstance(resolved.play, VariantPlay)
            found = resolved.play
        else:
            found = _found_play(board, dice, event.notation)
        play = as_play(board, found)
        board_after = found.after
        climbed = (
            double_after(board, dice, found, state.turns_taken[player])
            if variant.doubles_climb_from_turn
            else None
        )
        moved = dataclasses.replace(
            state, board=board_after if player == 0 else board_after.flipped()
        )
    moved = dataclasses.replace(
        moved,
        phase="rolling",
        turn=opponent(player),
        dice=None,
        last_play=LastPlay(player, dice, play),
        dice_named=False,
    )
    if climbed is not None:
        return _climbed(moved, player, climbed)
    end = None if board_after is None else game_end(board_after)
    if end is None:
        return _after_one_two(state, moved, player, dice, play)
    if end.winner == 0:
        return _game_drawn(moved)
    winner = player if end.winner > 0 else opponent(player)
    result: GameEnding = "mother" if end.how == "mother pinned" else _ENDINGS[end.points]
    return _game_won(moved, winner, end.points * state.cube_value, result)


def _found_play(board: Board, dice: Dice, notation: str) -> VariantPlay:
    """The variant's play ``notation`` names; the rule it breaks, if it names none."""
    try:
        return find_play(board, dice, notation)
    except IllegalPlayError as error:
        reason = why_play_breaks_a_rule(board, dice, notation)
        if reason is None:
            raise
        raise IllegalPlayError(f"{reason} {error}") from error


def _climbed(moved: MatchState, player: int, dice: Dice) -> MatchState:
    """Gul Bara's climb: a double played in full is followed in the same turn by the next
    higher one (``double_after``); one of which nothing can be played ends the turn."""
    if not _can_move(moved, player, dice):
        return moved
    return dataclasses.replace(moved, phase="moving", turn=player, dice=dice)


def _after_one_two(
    before: MatchState, moved: MatchState, player: int, dice: Dice, play: Play
) -> MatchState:
    """Acey-deucey's 1-2 (``Variant.one_two_names_a_double``): a 1-2 played in full is
    followed by a double the player names, a named double played in full by another roll;
    otherwise (some dice could not be played, and the play is the longest legal one) the
    turn passes as after any roll."""
    if not before.game_variant.one_two_names_a_double or len(play) < len(dice.moves()):
        return moved
    if before.dice_named:
        return dataclasses.replace(moved, turn=player)
    if sorted(dice.moves()) == [1, 2]:
        return dataclasses.replace(moved, phase="naming", turn=player)
    return moved


def _game_drawn(state: MatchState) -> MatchState:
    """A drawn game scores nothing; the same variant's game is played again."""
    record = GameRecord(state.game_number, None, 0, "draw", state.crawford)
    drawn = dataclasses.replace(
        state,
        game_number=state.game_number + 1,
        cube_value=1,
        cube_owner=None,
        phase="opening",
        turn=None,
        dice=None,
        resignation=None,
        phase_before_resignation=None,
        games=(*state.games, record),
        last_play=None,
    )
    return new_game_board(drawn)


def new_game_board(state: MatchState) -> MatchState:
    """The state with the starting board of the next game's variant: Tavli's rotation
    counts the games won (a drawn game is played again)."""
    decided = sum(1 for game in state.games if game.winner is not None)
    variant = state.rules.match_variant.game_after(decided)
    start = Board.starting(variant)
    if variant.holds_position:
        return dataclasses.replace(
            state, position=Position(start.points), board=None, turns_taken=(0, 0)
        )
    return dataclasses.replace(state, position=NO_POSITION, board=start, turns_taken=(0, 0))


def _game_won(state: MatchState, winner: int, points: int, result: GameEnding) -> MatchState:
    score = list(state.score)
    score[winner] += points
    games = (*state.games, GameRecord(state.game_number, winner, points, result, state.crawford))
    crawford_played = state.crawford_played or state.crawford
    if _match_won(state, score, games):
        return dataclasses.replace(
            _finished(state, winner=winner, end_reason=None),
            score=(score[0], score[1]),
            games=games,
            crawford_played=crawford_played,
        )
    next_game = dataclasses.replace(
        state,
        score=(score[0], score[1]),
        game_number=state.game_number + 1,
        # The game after a player first comes within one point of the match is the
        # Crawford game; there is one at most, so none once it has been played.
        crawford=state.rules.crawford
        and not crawford_played
        and score[winner] == state.match_length - 1,
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
    if state.rules == MatchRules():
        return next_game
    if state.rules.winner_leads:
        next_game = dataclasses.replace(next_game, phase="rolling", turn=winner)
    return new_game_board(next_game)


def _match_won(state: MatchState, score: list[int], games: tuple[GameRecord, ...]) -> bool:
    if not state.rules.counts_games():
        return max(score) >= state.match_length
    won = [sum(1 for game in games if game.winner == player) for player in (0, 1)]
    return max(won) >= 2


def _finished(
    state: MatchState, *, winner: int | None, end_reason: str | None, aborted: bool = False
) -> MatchState:
    return dataclasses.replace(
        state,
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


def as_play(board: Board, found: VariantPlay) -> Play:
    """A variant's play on ``board`` as a ``Play`` of moves by their dice; a pin is marked as
    a hit is."""
    top, pinned = list(board.points), list(board.pinned)
    moves = []
    for (source, destination), die in zip(found.moves, found.dice, strict=True):
        marked = destination != OFF and top[destination] == -1
        moves.append(make_move(source, die, marked))
        if source != IN:
            top[source] -= 1
            if top[source] == 0 and pinned[source]:
                top[source], pinned[source] = -pinned[source], 0
        if destination == OFF:
            continue
        if marked and board.variant.pins:
            top[destination], pinned[destination] = 1, 1
        elif marked:
            top[destination], top[0] = 1, top[0] + 1
        else:
            top[destination] += 1
    return Play(tuple(moves))


def _allow(refusal: str | None) -> None:
    """Go on unless the rules refuse: then raise their reason."""
    if refusal is not None:
        raise IllegalActionError(refusal)
