"""A match's replay: its log stepped through event by event, each event said in words.

Step N shows the match after its first N events (step 0: before anything happened). A step
beyond either end is clamped to it, so an old link never fails: the log only grows.

Beside the board (below it on a phone) is the match's move list (games/views/move_list.py),
the entry the board shows highlighted; the arrow keys step through it all (replay.js).

The same replay shows a match played here and one imported from a .mat file: both are a list
of logged events, read by ``render_replay``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.names import match_names
from backgammon_site.core.errors import Conflict, NotFound, TooManyAttempts
from games.clocks.words import time_control_words
from games.computer.analysis import (
    analysis_limit_spend,
    analysis_request,
    engine_named,
    match_subject,
    stored_analysis,
)
from games.engine import Event, MatchState, PlayMade
from games.engine.words import event_words, points
from games.log.records import LoggedEvent, match_log, read_log, rules_of_log
from games.models import Match
from games.selectors import match_ids
from games.views.board import PLAIN, CheckerLook, draw_board
from games.views.checker_looks import checker_looks
from games.views.cube import Cube
from games.views.downloads import match_download
from games.views.match import match_or_404
from games.views.move_list import LogMoves, current_entry

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

SERVER = gettext_lazy("server")
CACHE_SECONDS = 15 * 60


@dataclass(frozen=True)
class LogLine:
    """One event of the log as the replay lists it."""

    step: int
    game_number: int
    who: str | StrPromise  # the server is named in the reader's language
    words: str
    play: str | None  # the notation, for plays


@dataclass(frozen=True)
class ReplayLink:
    """A button in the replay's heading."""

    label: str
    url: str
    download: bool = False


@require_GET
def replay(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(request, match_id)
    names = match_names(match.first_player, match.second_player)
    download = match_download(match)
    return render_replay(
        request,
        names=names,
        usernames=(match.first_player.get_username(), match.second_player.get_username()),
        match_length=match.match_length,
        # Replaying a long log re-checks every play (half a second for a 25-point match),
        # while the log up to a seq never changes: keep the replay while someone steps through.
        cache_key=f"replay-of-match:{match.pk}:{match.seq}:{match.head_digest}",
        load_events=lambda: match_log(match),
        url=reverse("match-replay", kwargs={"match_id": match.pk}),
        links=[
            ReplayLink(_("The match page"), reverse("match", args=[match.pk])),
            ReplayLink(download.label, download.url, download=True),
            ReplayLink(_("The dice"), reverse("match-dice", args=[match.pk])),
        ],
        facts=match_facts(match),
        players_have_profiles=True,
        analysis=stored_analysis(match_subject(match.pk), engine_named(request.GET.get("engine"))),
        analyse_url=(
            reverse("match-replay-analyse", args=[match.pk])
            if match.status == Match.Status.FINISHED
            else None
        ),
        looks=checker_looks(match.first_player, match.second_player),
    )


def match_facts(match: Match) -> str:
    """``Plakoto, 5-point match, rated · 1 day a move``: what the replay's heading says."""
    said = {
        "variant": match.variant_title,
        "length": match.match_length,
        "time_control": time_control_words(match.time_control),
    }
    if match.rated:
        return _("%(variant)s, %(length)s-point match, rated · %(time_control)s") % said
    return _("%(variant)s, %(length)s-point match, unrated · %(time_control)s") % said


def render_replay(
    request: HttpRequest,
    *,
    names: tuple[str, str],
    usernames: tuple[str, str] | None = None,
    match_length: int,
    cache_key: str,
    load_events: Callable[[], list[LoggedEvent]],
    url: str,
    links: list[ReplayLink],
    facts: str,
    players_have_profiles: bool,
    analysis: dict[str, Any] | None = None,
    analyse_url: str | None = None,
    looks: tuple[CheckerLook, CheckerLook] = PLAIN,
) -> HttpResponse:
    """The replay page of a log: ``load_events`` gives it when ``cache_key`` is not cached."""
    replayed = cache.get(cache_key)
    if replayed is None:
        log = load_events()
        replayed = (*replay_log(match_length, log, names), LogMoves.of(match_length, log))
        cache.set(cache_key, replayed, CACHE_SECONDS)
    states, lines, moves = replayed
    last = len(lines)
    step = _step(request.GET.get("step"), last)
    side = 1 if request.GET.get("side") == "1" else 0
    state = states[step]
    board = draw_board(
        state.board_for(0),
        side=side,
        names=names,
        usernames=usernames,
        dice=state.dice,
        dice_owner=state.turn,
        cube=Cube.of(state),
        looks=looks,
        last_play=state.last_play,
    )
    ids = match_ids(state)

    reviews = {d["seq"]: d for d in analysis["decisions"]} if analysis else {}
    engine = (analysis["engine"] if analysis else None) or "bgsage"
    engines = [about["engine"] for about in analysis["engines"]] if analysis else []
    lucks = {roll["seq"]: roll for roll in analysis.get("luck", [])} if analysis else {}

    def link(to_step: int, to_side: int = side, to_engine: str = engine) -> str:
        query = {
            "step": to_step,
            **({"side": 1} if to_side else {}),
            **({"engine": to_engine} if to_engine != "bgsage" else {}),
        }
        return f"{url}?{urlencode(query)}"

    move_games = moves.lines(names, link, reviews)
    earlier_game = max(
        (game for game in move_games if game.start_step < step),
        key=lambda game: game.start_step,
        default=None,
    )
    later_game = min(
        (game for game in move_games if game.start_step > step),
        key=lambda game: game.start_step,
        default=None,
    )

    return render(
        request,
        "games/replay.html",
        {
            "names": names,
            "match_length": match_length,
            "links": links,
            "facts": facts,
            "players_have_profiles": players_have_profiles,
            "board": board,
            "state": state,
            "step": step,
            "last": last,
            "line": lines[step - 1] if step else None,
            "lines": [(line, link(line.step), reviews.get(line.step)) for line in lines],
            "analysis": analysis,
            "analyse_url": analyse_url,
            "review": reviews.get(step),
            "engine_choices": [(name, link(step, to_engine=name)) for name in engines],
            "disputed": [
                (decision, link(decision["seq"]), [decision["opinions"][name] for name in engines])
                for decision in (analysis["decisions"] if analysis else [])
                if decision["disputed"]
            ],
            "luck": lucks.get(step),
            "zero_url": link(0),
            "first_url": link(0) if step > 0 else None,
            "previous_url": link(step - 1) if step > 0 else None,
            "next_url": link(step + 1) if step < last else None,
            "last_url": link(last) if step < last else None,
            "flip_url": link(step, 1 - side),
            "earlier_game": earlier_game,
            "later_game": later_game,
            "move_games": move_games,
            "move_step": current_entry(move_games, step),
            "seen_by": names[side],
            "other_side": names[1 - side],
            "pips": state.pip_counts(),
            **ids,
        },
    )


@login_required
@require_POST
def replay_analyse(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the match to be analysed (again), then back to the replay."""
    match_or_404(request, match_id)
    try:
        analysis_limit_spend(request, request.user)
        analysis_request(match_subject(match_id))
    except NotFound:
        raise Http404("No such match.") from None
    except (Conflict, TooManyAttempts) as error:
        messages.error(request, error.message)
    return HttpResponseRedirect(reverse("match-replay", kwargs={"match_id": match_id}))


def _step(text: str | None, last: int) -> int:
    if text is None or text == "":
        return last
    try:
        step = int(text)
    except ValueError:
        raise Http404(_("A step is a whole number.")) from None
    return min(max(step, 0), last)


def replay_log(
    match_length: int, events: list[LoggedEvent], names: tuple[str, str]
) -> tuple[list[MatchState], list[LogLine]]:
    """The state after each of the first N events (``states[N]``, as games.log.integrity.fold_events
    gives for ``events[:N]``) and each event in words."""
    state = MatchState.new(match_length, rules_of_log(events))
    states = [state]
    lines = []
    for row, event in read_log(events):
        before = state
        if event is not None:
            state = state.apply(event)
        states.append(state)
        who, words = _words(row, event, before, state, names)
        play = event.notation if isinstance(event, PlayMade) else None
        lines.append(LogLine(row.step, before.game_number, who, words, play))
    return states, lines


def _words(
    row: LoggedEvent,
    event: Event | None,
    before: MatchState,
    after: MatchState,
    names: tuple[str, str],
) -> tuple[str | StrPromise, str]:
    """Who did what: ``("alice", "rolled 6-5")``; the server, or the moderator who acted, when
    the event is no player's."""
    if event is not None:
        said = event_words(event, before, after, names, server_played=row.server_made)
        who = names[said.player] if said.player is not None else row.by or SERVER
        return who, said.words
    if row.kind == "match_started":
        rated = "rated" if row.payload.get("rated") else "unrated"
        clock = time_control_words(row.payload.get("time_control") or {})
        length = points(after.match_length)
        return SERVER, f"match started: {names[0]} v {names[1]}, to {length}, {rated}, {clock}"
    return row.by or SERVER, "revealed the dice's server seed: every roll can now be verified"
