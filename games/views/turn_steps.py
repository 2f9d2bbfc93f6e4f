"""A play put together on the match page one checker at a time: each click is a GET carrying
the steps so far (``steps=24-6,18-5``: source and die) and the point chosen (``select=13``);
nothing reaches the match's log until Done posts the whole play."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine import EngineError, MatchState, Play, format_play
from games.engine.turn import PlayInProgress
from games.models import Match


def turn_in_progress(
    request: HttpRequest, state: MatchState, you: int
) -> tuple[PlayInProgress, int | None, str | None]:
    """The play ``you`` have put together so far, the point chosen to move from (if any), and
    a notice when the steps asked for are no longer possible (the play starts again)."""
    turn = state.turn_begun(you)
    notice = None
    try:
        for source, die in _read_steps(request.GET.get("steps", "")):
            move = next((m for m in turn.next_moves() if m.source == source and m.die == die), None)
            if move is None:
                raise ValueError(f"{source}-{die}")
            turn = turn.with_move(move)
    except (EngineError, ValueError):
        turn = state.turn_begun(you)
        notice = _("Those steps are not possible any more; start the play again.")
    selected = None
    choice = _point(request.GET.get("select", ""))
    if choice is not None and choice in turn.movable_points():
        selected = choice
    return turn, selected, notice


def _read_steps(text: str) -> list[tuple[int, int]]:
    """``24-6,18-5`` as (source, die) pairs."""
    steps = []
    for step in filter(None, text.split(",")[:4]):
        source_text, _dash, die_text = step.partition("-")
        source, die = _point(source_text), _point(die_text)
        if source is None or die is None:
            raise ValueError(step)
        steps.append((source, die))
    return steps


def _point(text: str) -> int | None:
    """A point or a die as a link of the page writes it (``13``, ``6``); None for anything
    else."""
    if text.isascii() and text.isdigit() and len(text) <= 2:
        return int(text)
    return None


def turn_url(match: Match, turn: PlayInProgress, select: int | None = None) -> str:
    """The match page with ``turn``'s steps (and ``select`` chosen)."""
    query: dict[str, str] = {}
    if turn.moves:
        query["steps"] = ",".join(f"{move.source}-{move.die}" for move in turn.moves)
    if select is not None:
        query["select"] = str(select)
    url = reverse("match", kwargs={"match_id": match.pk})
    return f"{url}?{urlencode(query)}" if query else url


def steps_notation(turn: PlayInProgress) -> str:
    return format_play(Play(turn.moves)) if turn.moves else ""
