"""The tutor of an unrated match against the computer: the human player switches it on at the
start, and after each of their plays with a choice the computer's verdict on it (what it lost
against the best play) is kept beside the match, never in its log (the log is the game's
record). The verdict itself is the computer's (games.computer.tutor); these functions only
decide who may have a tutor and keep what it said.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import is_computer
from backgammon_site.core.errors import ApplicationError, Forbidden
from games.engine import VARIANTS, MatchRules
from games.models import Player
from games.selectors import tutored_seat
from games.services.locks import locked_match


def tutor_offered(rules: MatchRules) -> bool:
    """The tutor reads the games of ``rules``: a variant whose board bgsage reads (backgammon,
    nackgammon, hypergammon, portes, tavla), not a rotation nor a game of its own evaluation."""
    variant = VARIANTS.get(rules.variant)
    return variant is not None and variant.holds_position


def tutor_refusal(*, players: tuple[Player, Player], rated: bool, rules: MatchRules) -> str | None:
    """Why a match of ``players`` may not have the tutor, or None when it may: only an unrated
    match between a person and the computer, in a game the tutor reads."""
    if rated:
        return _("The tutor helps only in unrated matches.")
    if [is_computer(player) for player in players].count(True) != 1:
        return _("The tutor helps only in a match between a player and the computer.")
    if not tutor_offered(rules):
        return _("The tutor is not offered for this game.")
    return None


def tutor_check(*, players: tuple[Player, Player], rated: bool, rules: MatchRules) -> None:
    """ApplicationError (code ``tutor``) when the match may not have the tutor."""
    refusal = tutor_refusal(players=players, rated=rated, rules=rules)
    if refusal is not None:
        raise ApplicationError(refusal, "tutor")


def tutor_verdict_keep(
    *, match_id: int, player: Player, seq: int, verdict: Mapping[str, Any]
) -> None:
    """Keep the tutor's ``verdict`` on ``player``'s play recorded at ``seq``; an older verdict
    than the one kept is ignored."""
    with transaction.atomic():
        match = locked_match(match_id)
        seat = match.player_index(player)
        if seat is None or seat != tutored_seat(match):
            raise Forbidden(_("The tutor speaks only to the player it helps."))
        kept = match.tutor_verdict
        if kept is not None and kept["seq"] > seq:
            return
        match.tutor_verdict = {**verdict, "player": seat, "seq": seq}
        match.save(update_fields=["tutor_verdict"])
