"""What the match page says of a match in sentences, in the reader's language: how a game and
the match ended, and what a resignation offers. The log and the notation stay as the engine
writes them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.engine.match import ABORTED, ENDED_BY_AGREEMENT
from games.selectors.match_views import GameView, MatchView

#: What a player may offer to lose when resigning: points, in words.
RESIGN_CHOICES = (
    (1, gettext_lazy("a single game")),
    (2, gettext_lazy("a gammon")),
    (3, gettext_lazy("a backgammon")),
)


def points_words(points: int) -> str:
    """``1 point``, ``5 points``: a match's length or a game's worth."""
    return ngettext("%(points)s point", "%(points)s points", points) % {"points": points}


def game_ending(result: str) -> str:
    """How one game ended (a GameRecord's ``result``), as the list of games says it."""
    return {
        "single": pgettext("game result", "single"),
        "gammon": pgettext("game result", "gammon"),
        "backgammon": pgettext("game result", "backgammon"),
        "drop": pgettext("game result", "drop"),
        "resign": pgettext("game result", "resign"),
        "mother": pgettext("game result", "mother"),
        "draw": pgettext("game result", "draw"),
    }.get(result, result)


def games_said(games: Iterable[GameView]) -> list[GameView]:
    """The match view's finished games, each ending in words."""
    return [replace(game, result=game_ending(game.result)) for game in games]


def end_reason(reason: str | None) -> str | None:
    """Why a match ended, as the status line says it: the engine's reasons in words, a
    moderator's reason as they typed it."""
    if reason is None:
        return None
    return {
        "timeout": _("out of time"),
        ABORTED: _("aborted"),
        ENDED_BY_AGREEMENT: _("ended by agreement"),
    }.get(reason, reason)


def how_it_ended(view: MatchView) -> str:
    """How the match ended, in a player's words."""
    winner, reason = view.winner, view.end_reason
    loser = next((name for name in view.players if name != winner), None)
    if winner is None:
        if reason == ABORTED:
            return _("The match was aborted")
        if reason == ENDED_BY_AGREEMENT:
            return _("The players agreed to end it without a winner")
        if reason:
            return _("Ended without a winner: %(reason)s") % {"reason": reason}
        return _("Ended without a winner")
    if reason == "timeout":
        return _("%(loser)s ran out of time") % {"loser": loser}
    if reason:
        return _("Awarded to %(winner)s: %(reason)s") % {"winner": winner, "reason": reason}
    last = view.games[-1] if view.games else None
    if last is None:
        return _("%(winner)s won") % {"winner": winner}
    if last.result == "resign":
        return _("%(loser)s resigned the last game") % {"loser": loser}
    if last.result == "drop":
        return _("%(loser)s dropped the cube in the last game") % {"loser": loser}
    worth = {
        "single": _("%(winner)s won the last game with a single game"),
        "gammon": _("%(winner)s won the last game with a gammon"),
        "backgammon": _("%(winner)s won the last game with a backgammon"),
        "mother": _("%(winner)s won the last game by pinning the mother"),
    }
    default = _("%(winner)s won the last game with %(result)s")
    return worth.get(last.result, default) % {"winner": winner, "result": last.result}


def signed(difference: float) -> str:
    """A rating change as the end panel shows it: +12.3, −12.3 (a minus sign), +0.0."""
    return f"{'−' if difference < 0 else '+'}{abs(difference):.1f}"
