"""Why the rules refuse an action to a player now, in the words the player reads.

One check per action says whether ``player`` may take it now: None, or the reason it is
refused. ``MatchState.apply`` raises that reason as an ``IllegalActionError``,
``MatchState.legal_actions`` lists the actions no check refuses, and ``why_refused`` lets the
service ask before it acts, so that a refused roll spends none of the match's dice and a
refused action writes nothing. What an action carries (the dice, the play, the points offered)
is checked when its event is applied.

>>> from games.engine import MatchState, OpeningRoll
>>> state = MatchState.new(5).apply(OpeningRoll((3, 1)))
>>> why_refused(state, 0, "move") is None
True
>>> why_refused(state, 1, "roll")
"You cannot roll now: it is your opponent's turn to play their 3-1."
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Protocol, TypeAlias, get_args

from .dice import Dice
from .errors import IllegalActionError
from .events import RESIGNATIONS, check_player, opponent
from .variants import MatchRules, Variant

Action: TypeAlias = Literal[
    "roll",
    "double",
    "take",
    "drop",
    "move",
    "name_double",
    "resign",
    "accept_resign",
    "reject_resign",
    "abort",
    "offer_end",
    "accept_end",
    "decline_end",
]
#: Every action, in the order the API lists them.
ACTIONS: tuple[Action, ...] = get_args(Action)
#: The actions of a game's turns, in the order ``MatchState.legal_actions`` names them.
TURN_ACTIONS: tuple[Action, ...] = (
    "roll",
    "double",
    "move",
    "name_double",
    "resign",
    "take",
    "drop",
    "accept_resign",
    "reject_resign",
)
#: The answers to an offer to end the match without a winner.
END_ANSWERS: tuple[Action, ...] = ("accept_end", "decline_end")


class Situation(Protocol):
    """What the checks read of a match: a ``MatchState`` is one.

    (A protocol rather than ``MatchState`` itself, so that the match's rules use these checks
    without an import cycle.)
    """

    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def dice(self) -> Dice | None: ...
    @property
    def game_number(self) -> int: ...
    @property
    def crawford(self) -> bool: ...
    @property
    def cube_value(self) -> int: ...
    @property
    def cube_owner(self) -> int | None: ...
    @property
    def resignation(self) -> int | None: ...
    @property
    def end_offered_by(self) -> int | None: ...
    @property
    def rules(self) -> MatchRules: ...
    @property
    def game_variant(self) -> Variant: ...
    def points_needed(self, player: int) -> int: ...


def why_refused(state: Situation, player: int, action: Action) -> str | None:
    """Why ``player`` may not take ``action`` in ``state`` now; None when the rules allow it.

    ``abort`` and ``offer_end`` are the rules' to refuse only once the match is over (or, for
    an offer, while one stands); when a player may end a match is the service's to decide.

    >>> from games.engine import MatchState, OpeningRoll
    >>> state = MatchState.new(1).apply(OpeningRoll((6, 5)))
    >>> why_refused(state, 1, "double")
    "You cannot double now: it is your opponent's turn to play their 6-5."
    >>> why_refused(state, 1, "accept_end")
    'There is no offer to end the match to accept.'
    >>> why_refused(state, 1, "offer_end") is None
    True
    """
    check = _CHECKS.get(action)
    if check is None:
        raise IllegalActionError(f"There is no action {action!r}.")
    return check(state, check_player(player))


# --- A game's turns ----------------------------------------------------------------------


def why_cannot_roll(state: Situation, player: int) -> str | None:
    """Only the player on roll rolls, and only before rolling."""
    return _not_their_decision(state, player, "roll", ("rolling",))


def why_cannot_double(state: Situation, player: int) -> str | None:
    """Only the player on roll doubles, before rolling, outside the Crawford game, with the
    cube centred or their own, and only while the cube is below the points they still need;
    never in a match played without the cube."""
    if not state.rules.cube:
        return f"You cannot double: there is no cube in {_match_name(state.rules)}."
    if state.phase == "moving" and player == state.turn:
        return f"You cannot double now: you have rolled {state.dice}; a double comes first."
    if state.phase != "rolling" or player != state.turn:
        return f"You cannot double now: {_situation(state, player)}."
    if state.crawford:
        return "You cannot double in the Crawford game."
    if state.cube_owner is not None and state.cube_owner != player:
        return "You cannot double: your opponent owns the cube."
    needed = state.points_needed(player)
    if state.cube_value >= needed:
        return (
            f"You cannot double: you need {_points(needed)} to win the match and a win "
            f"with the cube at {state.cube_value} already brings them; the cube is dead."
        )
    return None


def why_cannot_resign_points(variant: Variant, points: int) -> str | None:
    """A resignation offers at most what a game of ``variant`` can be worth: 2 points where
    there is no backgammon (every variant but backgammon's set-up family)."""
    if variant.backgammon > variant.gammon or points <= variant.gammon:
        return None
    return (
        f"You cannot resign {points} points: {variant.title} has no backgammon, so a game is "
        f"worth at most {variant.gammon} points; resign 1 (a single game) or 2 "
        f"(a {variant.gammon_word})."
    )


def why_cannot_move(state: Situation, player: int) -> str | None:
    """Only the player on roll moves, once they have rolled."""
    return _not_their_decision(state, player, "move", ("moving",))


def why_cannot_name_double(state: Situation, player: int) -> str | None:
    """Only the player who has just played a 1-2 in full names a double (acey-deucey)."""
    if not state.game_variant.one_two_names_a_double:
        return f"You cannot name a double: {state.game_variant.title} has no such rule."
    if state.phase == "naming" and player == state.turn:
        return None
    return f"You cannot name a double now: {_situation(state, player)}."


def why_cannot_resign(state: Situation, player: int) -> str | None:
    """Only the player on roll resigns, before or after rolling (or naming a double)."""
    return _not_their_decision(state, player, "resign", ("rolling", "moving", "naming"))


def why_cannot_take(state: Situation, player: int) -> str | None:
    """Only the doubled player takes."""
    return _not_their_decision(state, player, "take the cube", ("doubled",), answering=True)


def why_cannot_drop(state: Situation, player: int) -> str | None:
    """Only the doubled player drops."""
    return _not_their_decision(state, player, "drop the cube", ("doubled",), answering=True)


def why_cannot_accept_resignation(state: Situation, player: int) -> str | None:
    """Only the resigner's opponent accepts a resignation."""
    return _not_their_decision(state, player, "accept a resignation", ("resigned",), answering=True)


def why_cannot_reject_resignation(state: Situation, player: int) -> str | None:
    """Only the resigner's opponent rejects a resignation."""
    return _not_their_decision(state, player, "reject a resignation", ("resigned",), answering=True)


# --- The match as a whole ----------------------------------------------------------------


def why_over(state: Situation, what: str) -> str | None:
    """Nothing more happens once the match is over: not ``what`` either."""
    if state.phase == "finished":
        return f"Cannot {what}: the match is over."
    return None


def why_no_opening_roll(state: Situation) -> str | None:
    """The server rolls the opening roll only before a game starts."""
    if state.phase == "opening":
        return None
    return why_over(state, "make an opening roll") or (
        f"There is no opening roll now: game {state.game_number} is under way."
    )


def why_cannot_abort(state: Situation, player: int) -> str | None:
    """A match that is not over may be aborted, as far as the rules go."""
    return why_over(state, "abort the match")


def why_cannot_offer_end(state: Situation, player: int) -> str | None:
    """One offer to end the match without a winner stands at a time."""
    if refusal := why_over(state, "offer to end the match"):
        return refusal
    if state.end_offered_by == player:
        return "You have already offered to end the match; your opponent has yet to answer."
    if state.end_offered_by is not None:
        return "Your opponent has offered to end the match: accept or decline their offer."
    return None


def why_cannot_accept_end(state: Situation, player: int) -> str | None:
    """Only the opponent of the player who offered to end the match accepts the offer."""
    return _not_theirs_to_answer(state, player, "accept")


def why_cannot_decline_end(state: Situation, player: int) -> str | None:
    """Only the opponent of the player who offered to end the match declines the offer."""
    return _not_theirs_to_answer(state, player, "decline")


_CHECKS: dict[str, Callable[[Situation, int], str | None]] = {
    "roll": why_cannot_roll,
    "double": why_cannot_double,
    "take": why_cannot_take,
    "drop": why_cannot_drop,
    "move": why_cannot_move,
    "name_double": why_cannot_name_double,
    "resign": why_cannot_resign,
    "accept_resign": why_cannot_accept_resignation,
    "reject_resign": why_cannot_reject_resignation,
    "abort": why_cannot_abort,
    "offer_end": why_cannot_offer_end,
    "accept_end": why_cannot_accept_end,
    "decline_end": why_cannot_decline_end,
}


def _not_their_decision(
    state: Situation, player: int, verb: str, phases: tuple[str, ...], *, answering: bool = False
) -> str | None:
    """Refuse unless the match is in one of ``phases`` and it is ``player``'s decision:
    the player on roll's, or with ``answering`` their opponent's."""
    if state.phase in phases and state.turn is not None:
        expected = opponent(state.turn) if answering else state.turn
        if player == expected:
            return None
    return f"You cannot {verb} now: {_situation(state, player)}."


def _not_theirs_to_answer(state: Situation, player: int, verb: str) -> str | None:
    if refusal := why_over(state, f"{verb} an offer to end the match"):
        return refusal
    if state.end_offered_by is None:
        return f"There is no offer to end the match to {verb}."
    if state.end_offered_by == player:
        return f"You cannot {verb} your own offer to end the match: your opponent answers it."
    return None


def _situation(state: Situation, player: int) -> str:
    """What the match waits for, said to ``player``."""
    mine = player == state.turn
    if state.phase == "finished":
        return "the match is over"
    if state.phase == "opening":
        return f"game {state.game_number} starts with the opening roll"
    if state.phase == "rolling":
        return "you are on roll" if mine else "it is your opponent's turn to roll"
    if state.phase == "moving":
        if mine:
            return f"you are to play your {state.dice}"
        return f"it is your opponent's turn to play their {state.dice}"
    if state.phase == "naming":
        if mine:
            return "you have played your 1-2: name a double"
        return "your opponent has played their 1-2 and is to name a double"
    if state.phase == "doubled":
        if mine:
            return "your opponent has yet to take or drop your double"
        return "you have been doubled: take or drop"
    assert state.resignation is not None
    offer = f"{RESIGNATIONS[state.resignation]} ({_points(state.resignation * state.cube_value)})"
    if mine:
        return f"your opponent has yet to accept or reject your resignation of {offer}"
    return f"your opponent offers to resign {offer}: accept or reject"


def _match_name(rules: MatchRules) -> str:
    """A match's variant as a sentence names it: ``plakoto``, ``this Tavli match``."""
    if rules.match_variant.rotates():
        return rules.title
    variant_default = MatchRules.of(rules.variant).cube
    title = rules.title.lower()
    return f"this {title} match" if variant_default else title


def _points(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"
