"""Why the rules refuse an action to a player now, in the words the player reads.

The service asks before it acts, so that a refused roll spends none of the match's dice and a
refused action writes nothing. The answer is the rules' own: ``MatchState.legal_actions`` and
``end_answers`` say what a player may do, and a refusal is worded as ``MatchState.apply``
words it.

>>> from games.engine import OpeningRoll
>>> state = MatchState.new(5).apply(OpeningRoll((3, 1)))
>>> why_refused(state, 0, "move") is None
True
>>> why_refused(state, 1, "roll")
"You cannot roll now: it is your opponent's turn to play their 3-1."
"""

from __future__ import annotations

from collections.abc import Callable

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
    OfferEnd,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from .match import Action, MatchState

# The rules refuse an action for who takes it and when, before they read what its event
# carries: any dice, play or points will do to hear why it is refused.
_EVENTS: dict[str, Callable[[int], Event]] = {
    "roll": lambda player: Roll(player, Dice(1, 1)),
    "double": Double,
    "take": Take,
    "drop": Drop,
    "move": lambda player: PlayMade(player, ""),
    "resign": lambda player: Resign(player, 1),
    "accept_resign": AcceptResignation,
    "reject_resign": RejectResignation,
    "abort": Abort,
    "offer_end": OfferEnd,
    "accept_end": AcceptEnd,
    "decline_end": DeclineEnd,
}


def why_refused(state: MatchState, player: int, action: Action) -> str | None:
    """Why ``player`` may not take ``action`` in ``state`` now; None when the rules allow it.

    ``abort`` and ``offer_end`` are the rules' to refuse only once the match is over (or, for
    an offer, while one stands); when a player may end a match is the service's to decide.

    >>> from games.engine import OpeningRoll
    >>> state = MatchState.new(1).apply(OpeningRoll((6, 5)))
    >>> why_refused(state, 1, "double")
    "You cannot double now: it is your opponent's turn to play their 6-5."
    >>> why_refused(state, 1, "accept_end")
    'There is no offer to end the match to accept.'
    >>> why_refused(state, 1, "offer_end") is None
    True
    """
    if action not in _EVENTS:
        raise IllegalActionError(f"There is no action {action!r}.")
    if action in state.legal_actions(player) or action in state.end_answers(player):
        return None
    try:
        state.apply(_EVENTS[action](player))
    except IllegalActionError as refusal:
        return str(refusal)
    return None
