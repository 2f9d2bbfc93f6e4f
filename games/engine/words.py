"""Every event of a match in words, as a log is read out: "rolled 6-5", "doubled to 2".

``event_words(event, before, after, names)`` tells what ``event`` did, given the states it
led from and to and the players' names, so the words can say what it ended too: a game, the
match.

>>> from .match import fold
>>> names = ("alice", "bob")
>>> before = fold(5, [])
>>> after = before.apply(OpeningRoll((3, 1)))
>>> event_words(OpeningRoll((3, 1)), before, after, names)
EventWords(player=None, words='opening roll 3-1 (alice 3, bob 1) — alice starts, playing 3-1')
>>> rolling = fold(5, [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")])
>>> event_words(Double(1), rolling, rolling.apply(Double(1)), names)
EventWords(player=1, words='doubled to 2')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from .events import (
    RESIGNATIONS,
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
from .match import MatchState
from .variants import Variant


@dataclass(frozen=True, slots=True)
class EventWords:
    """An event told: ``words`` say what happened to ``player`` (the one they are about), so
    ``EventWords(1, "doubled to 2")`` reads "bob doubled to 2". ``player`` is None when the
    server or a moderator acted; who that was is the log's to say."""

    player: int | None
    words: str


def event_words(
    event: Event,
    before: MatchState,
    after: MatchState,
    names: tuple[str, str],
    *,
    server_played: bool = False,
) -> EventWords:
    """``event`` in words, with the players' ``names``; ``before`` and ``after`` are the states
    it led from and to. ``server_played`` says the server made this play for its player."""
    match event:
        case OpeningRoll(dice=(first, second)):
            rolled = f"opening roll {first}-{second} ({names[0]} {first}, {names[1]} {second})"
            if first == second:
                return EventWords(None, f"{rolled}: a tie, rolled again")
            starter = names[0] if first > second else names[1]
            if after.dice is None:
                return EventWords(None, f"{rolled} — {starter} starts and rolls")
            return EventWords(None, f"{rolled} — {starter} starts, playing {after.dice}")
        case Roll(player=player, dice=dice):
            if after.phase == "rolling" and after.turn != player:
                return EventWords(player, f"rolled {dice} and cannot move")
            return EventWords(player, f"rolled {dice}")
        case PlayMade(player=player, notation=notation):
            note = " (the only legal play, made by the server)" if server_played else ""
            ended = _game_end(before, after, names) or _turn_goes_on(after, player)
            return EventWords(player, f"played {before.dice}: {notation}{note}{ended}")
        case DoubleNamed(player=player, number=number):
            if after.phase == "rolling" and after.turn != player:
                return EventWords(player, f"named {number}-{number} and cannot move")
            return EventWords(player, f"named {number}-{number}")
        case Double(player=player):
            return EventWords(player, f"doubled to {before.cube_value * 2}")
        case Take(player=player):
            return EventWords(player, f"took; the cube is at {after.cube_value}")
        case Drop(player=player):
            return EventWords(player, "dropped" + _game_end(before, after, names))
        case Resign(player=player, points=offered):
            value = points(offered * after.cube_value)
            offer = resignation_words(before.game_variant, offered)
            return EventWords(player, f"offered to resign {offer} ({value})")
        case AcceptResignation(player=player):
            ended = _game_end(before, after, names)
            return EventWords(player, f"accepted the resignation{ended}")
        case RejectResignation(player=player):
            return EventWords(player, "rejected the resignation")
        case TimedOut(player=player):
            winner = names[opponent(player)]
            return EventWords(player, f"ran out of time: {winner} wins the match, {_score(after)}")
        case Abort(player=player):
            return EventWords(player, f"ended the match without a winner, {_score(before)}")
        case OfferEnd(player=player):
            return EventWords(player, "offered to end the match without a winner")
        case AcceptEnd(player=player):
            return EventWords(player, "agreed to end the match without a winner")
        case DeclineEnd(player=player):
            return EventWords(player, "declined to end the match: play goes on")
        case MatchAwarded(winner=winner, reason=reason):
            return EventWords(None, f"awarded the match to {names[winner]}: {reason}")
        case MatchAborted(reason=reason):
            return EventWords(None, f"ended the match without a winner: {reason}")
        case _:
            assert_never(event)


def points(count: int) -> str:
    """A number of points in words.

    >>> points(1), points(3)
    ('1 point', '3 points')
    """
    return f"{count} point" if count == 1 else f"{count} points"


def resignation_words(variant: Variant, offered: int) -> str:
    """What a resignation of ``offered`` points gives up in ``variant``.

    >>> from .variants import LONG_NARDI
    >>> resignation_words(LONG_NARDI, 2)
    'a mars'
    """
    if offered == 2:
        return f"a {variant.gammon_word}"
    return RESIGNATIONS[offered]


def _score(state: MatchState) -> str:
    return f"{state.score[0]}-{state.score[1]}"


def _turn_goes_on(after: MatchState, player: int) -> str:
    """After acey-deucey's 1-2 the player names a double, after the double rolls again; in
    Gul Bara's climb the player plays the next double."""
    if after.turn != player:
        return ""
    if after.phase == "moving":
        return f"; climbs to {after.dice}"
    return "; names a double" if after.phase == "naming" else "; rolls again"


def _game_end(before: MatchState, after: MatchState, names: tuple[str, str]) -> str:
    """What a play, a drop or an accepted resignation ended: a game, perhaps the match."""
    if len(after.games) == len(before.games):
        return ""
    game = after.games[-1]
    if game.winner is None:
        return (
            f"; game {game.number} is a draw, both mothers pinned: no points, and "
            f"game {after.game_number} is {after.game_variant.title} again"
        )
    how = {
        "gammon": f", a {before.game_variant.gammon_word}",
        "backgammon": ", a backgammon",
        "mother": ", pinning the mother",
    }.get(game.result, "")
    words = f"; {names[game.winner]} wins game {game.number}{how} ({points(game.points)})"
    if after.is_finished() and after.winner is not None:
        if after.rules.counts_games():
            won = after.games_won()
            return words + f" and the match, {won[0]}-{won[1]} in games"
        return words + f" and the match, {_score(after)}"
    if after.crawford:
        return words + f"; game {after.game_number} is the Crawford game"
    if after.rules.match_variant.rotates():
        return words + f"; game {after.game_number} is {after.game_variant.title}"
    return words
