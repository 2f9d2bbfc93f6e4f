"""A turn's events: a player's action made into its event, and what the server does for the
players until one must decide (the dice it rolls, the forced plays it makes)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, IllegalAction
from games.dice import rolls
from games.dice.seed_vault import decrypt_seed
from games.engine import (
    Abort,
    AcceptEnd,
    AcceptResignation,
    DeclineEnd,
    Dice,
    Double,
    DoubleNamed,
    Drop,
    EngineError,
    OfferEnd,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
    why_refused,
)
from games.engine.events import Event
from games.engine.refusals import Action
from games.models import Match
from games.selectors import legal_play_notations, why_ending_refused
from games.services.answers_ahead import answer_due
from games.services.locks import preferences
from games.services.writer import MatchWriter

_PLAYER_EVENTS: dict[str, Callable[[int], Event]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "accept_resign": AcceptResignation,
    "reject_resign": RejectResignation,
    "abort": Abort,
    "offer_end": OfferEnd,
    "accept_end": AcceptEnd,
    "decline_end": DeclineEnd,
}


def next_roll(match: Match) -> tuple[int, int]:
    """The match's next roll, derived from its seeds and the number of rolls so far.

    Every die the server rolls comes from here (tests script the dice by replacing it).
    """
    server_seed = decrypt_seed(match.server_seed_ciphertext)
    return rolls.roll(server_seed, tuple(match.player_seeds), match.rolls_made)


def player_event(
    writer: MatchWriter,
    *,
    player: int,
    action: Action,
    play: str | None,
    points: int | None,
    number: int | None = None,
) -> Event:
    """The event of ``player``'s ``action``; ApplicationError for a request that is not one,
    IllegalAction (with the reason) for an action the match does not allow now.

    A refused roll spends none of the match's dice.
    """
    state = writer.state
    if action in ("abort", "offer_end"):
        reason = why_ending_refused(writer.match, state, action)
        if reason is not None:
            raise IllegalAction(reason)
    _check_request(action, play, points, number)
    try:
        # The points offered are checked before whether the player may resign now.
        resignation = Resign(player, points) if action == "resign" and points is not None else None
        reason = why_refused(state, player, action)
        if reason is not None:
            raise IllegalAction(reason)
        if action == "roll":
            return Roll(player, Dice(*next_roll(writer.match)))
        if action == "move":
            assert isinstance(play, str)
            return state.resolve_play(player, play)
        if action == "name_double":
            assert isinstance(number, int)
            return DoubleNamed(player, number)
        if resignation is not None:
            return resignation
        return _PLAYER_EVENTS[action](player)
    except EngineError as error:
        raise IllegalAction(str(error)) from None


def _check_request(action: str, play: str | None, points: int | None, number: int | None) -> None:
    """Refuse a request that is not one: a move without a play in notation, a resignation
    without its points, a double named without its number."""
    if action == "move":
        if not isinstance(play, str):
            raise ApplicationError(_("A move needs its play in notation, e.g. 24/18 13/8."), "play")
        if len(play) > 200:
            raise ApplicationError(_("That play is too long to be a backgammon play."), "play")
    if action == "resign" and (isinstance(points, bool) or not isinstance(points, int)):
        raise ApplicationError(
            _("Resigning offers 1 (single), 2 (gammon) or 3 (backgammon) points."), "points"
        )
    if action == "name_double" and (
        isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= 6
    ):
        raise ApplicationError(_("Name a double by its number, 1 to 6."), "number")


def play_on(writer: MatchWriter) -> None:
    """What the server does until a player must decide: opening rolls (again on a tie),
    the roll of a player who cannot double and lets us roll for them, a forced play
    the player lets us make, and the answer a doubled player left ahead."""
    while True:
        state = writer.state
        if (answer := answer_due(writer.match, state)) is not None:
            writer.append(answer, writer.match.players[answer.player])
        elif state.phase == "opening":
            writer.append(OpeningRoll(next_roll(writer.match)))
        elif state.phase == "rolling" and state.turn is not None:
            if state.can_double(state.turn):
                return
            if not preferences(writer.match.players[state.turn]).auto_roll:
                return
            writer.append(Roll(state.turn, Dice(*next_roll(writer.match))))
        elif state.phase == "moving" and state.turn is not None:
            plays = legal_play_notations(state)
            if (
                len(plays) != 1
                or not preferences(writer.match.players[state.turn]).auto_play_forced
            ):
                return
            writer.append(PlayMade(state.turn, plays[0]))
        else:
            return
