"""The tutor on the match page: its verdict on the player's last play, with the best play
drawn on the position it was played from, and the hint (the best play of the roll to play,
drawn on the board) that the Hint button asks for. Only the player the tutor helps sees it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games import selectors
from games.engine import VARIANTS, Board, Dice, LastPlay, MatchState, Position, parse_play
from games.models import Match
from games.views.board import Board as DrawnBoard
from games.views.board import CheckerLook, board_svg, draw_board


def verdict_words(verdict: dict[str, Any]) -> str:
    """The verdict as the tutor says it: what the play lost, how bad that is, and the best."""
    said = {
        "played": verdict["played"],
        "best": verdict["best"],
        "lost": f"{verdict['equity_lost']:.3f}",
    }
    if verdict["played"] == verdict["best"]:
        return _("Your play %(played)s was the best play.") % said
    if verdict["mark"] == "blunder":
        return _("Your play %(played)s lost %(lost)s (a blunder); best was %(best)s.") % said
    if verdict["mark"] == "error":
        return _("Your play %(played)s lost %(lost)s (an error); best was %(best)s.") % said
    return _("Your play %(played)s lost %(lost)s (not an error); best was %(best)s.") % said


def tutor_panel(
    *,
    match: Match,
    state: MatchState,
    you: int | None,
    names: tuple[str, str],
    looks: tuple[CheckerLook, CheckerLook],
    hint: str | None,
) -> dict[str, Any] | None:
    """What the tutor shows the viewer: None unless they are the player it helps."""
    if you is None or selectors.tutored_seat(match) != you:
        return None
    panel: dict[str, Any] = {
        "hint": hint,
        "may_hint": hint is None and state.phase == "moving" and state.turn == you,
        "hint_url": reverse("match", kwargs={"match_id": match.pk}) + "?hint=1",
    }
    verdict = selectors.tutor_verdict_for(match, you)
    if verdict is not None:
        panel["verdict"] = verdict
        panel["verdict_text"] = verdict_words(verdict)
        panel["board_svg"] = board_svg(_best_play_board(verdict, names, you, looks))
    return panel


def _best_play_board(
    verdict: dict[str, Any],
    names: tuple[str, str],
    you: int,
    looks: tuple[CheckerLook, CheckerLook],
) -> DrawnBoard:
    """The position the play was made from, seen by the player, after the best play."""
    position = Position.from_position_id(verdict["position_id"])
    dice = Dice(*verdict["dice"])
    best = parse_play(verdict["best"], position, dice)
    drawn = draw_board(
        Board.from_position(VARIANTS[verdict["variant"]], position.apply(best)),
        side=0,
        names=(names[you], names[1 - you]),
        dice=dice,
        dice_owner=0,
        looks=(looks[you], looks[1 - you]),
        best_play=LastPlay(0, dice, best),
    )
    drawn.label_id = "tutor-board"
    return drawn


def hinted_board(state: MatchState, you: int, hint: str) -> tuple[Board, LastPlay]:
    """The board (from player 0's side, as stored) after the hinted play, and the play."""
    assert state.dice is not None
    position = state.position_for(you)
    play = parse_play(hint, position, state.dice)
    after = Board.from_position(state.game_variant, position.apply(play))
    return (after if you == 0 else after.flipped()), LastPlay(you, state.dice, play)
