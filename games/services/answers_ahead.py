"""Answers left ahead (lichess's conditional premoves, in backgammon's terms): while the
opponent is on roll and may double, a player leaves the take or drop they will give; if the
opponent doubles at once, the answer is played straight after the double, in the same
transaction, as that player's own action in the log. Anything else the match does first
forgets it. Only the player who left it sees it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from backgammon_site.core.errors import ApplicationError, Conflict, Forbidden
from games.engine import Drop, MatchState, Take, state_from_snapshot
from games.models import Match, Player
from games.services.locks import locked_match

ANSWERS = ("take", "drop")


def answer_ahead_leave(
    *, match_id: int, player: Player, expected_seq: int, answer: str | None
) -> Match:
    """Leave ``answer`` (take or drop; None takes a left answer back) to a double the opponent
    may offer before their coming roll, for the position at ``expected_seq`` only."""
    if answer not in (*ANSWERS, None):
        raise ApplicationError(_("An answer left ahead is take or drop."), "answer")
    if isinstance(expected_seq, bool) or not isinstance(expected_seq, int):
        raise ApplicationError("seq must be the whole number of the last event seen.", "seq")
    with transaction.atomic():
        match = locked_match(match_id)
        seat = match.player_index(player)
        if seat is None:
            raise Forbidden(_("Only the two players can act in a match."))
        if match.seq != expected_seq:
            raise Conflict(
                f"The match has moved on: it is at seq {match.seq}, not {expected_seq}.",
                current_seq=match.seq,
            )
        if answer is not None and not may_answer_ahead(state_from_snapshot(match.state), seat):
            raise ApplicationError(
                _("An answer is left ahead only while your opponent may double before rolling."),
                "answer_ahead_not_now",
            )
        match.answer_ahead = (
            None if answer is None else {"player": seat, "seq": match.seq, "answer": answer}
        )
        match.save(update_fields=["answer_ahead"])
    return match


def may_answer_ahead(state: MatchState, seat: int) -> bool:
    """The opponent of ``seat`` is on roll and may double now."""
    other = 1 - seat
    return state.phase == "rolling" and state.turn == other and state.can_double(other)


def answer_left_for(match: Match, seat: int | None) -> str | None:
    """The answer ``seat`` left for the match as it is now, if any: what their page shows."""
    left = match.answer_ahead
    if seat is None or not left or left["player"] != seat or left["seq"] != match.seq:
        return None
    return str(left["answer"])


def answer_due(match: Match, state: MatchState) -> Take | Drop | None:
    """The answer to play now: the double was offered at the seq just after the one the answer
    was left at, to the player who left it."""
    left = match.answer_ahead
    if not left or state.phase != "doubled" or left["seq"] != match.seq - 1:
        return None
    if left["player"] != state.player_to_act():
        return None
    return Take(left["player"]) if left["answer"] == "take" else Drop(left["player"])
