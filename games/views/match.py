"""The match page: the board, the actions of the player whose decision it is, and moving.

A play is put together on the server one step at a time: each click is a GET carrying the
steps so far (``steps=24-6,18-5``: source and die), and the page comes back with the board
after those steps, the checkers that may move next and, once one is chosen, where it may go.
Nothing reaches the match's log until Done posts the whole play through the services.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts import guests
from accounts.names import match_names, player_name
from accounts.rewards import wears_crown
from backgammon_site.core.errors import (
    ApplicationError,
    Conflict,
    Forbidden,
    NotFound,
    TooManyAttempts,
)
from games import selectors, services
from games.clocks.words import time_control_words
from games.computer.tutor import tutor_after_play, tutor_hint
from games.dice.seed_vault import seed_commitment
from games.engine import format_play
from games.models import Challenge, Match, Player, Viewer
from games.notifications.attention import record_match_open
from games.selectors import MatchView
from games.views.board import board_svg, draw_board
from games.views.checker_looks import checker_looks
from games.views.cube import Cube
from games.views.downloads import match_download
from games.views.match_words import (
    RESIGN_CHOICES,
    end_reason,
    games_said,
    how_it_ended,
    signed,
)
from games.views.move_list import match_moves
from games.views.play_area_cache import (
    CLOCKS_SLOT,
    CSRF_SLOT,
    filled_clocks,
    filled_csrf,
    kept,
    page_key,
    page_response,
    play_area_key,
)
from games.views.turn_steps import steps_notation, turn_in_progress, turn_url
from games.views.tutor import hinted_board, tutor_panel
from ratings import selectors as rating_selectors

OUT_OF_DATE = gettext_lazy("The page was out of date; here is the match now.")


class ActForm(forms.Form):
    """What every button of the match page posts; the services judge the action itself."""

    seq = forms.IntegerField(
        min_value=0,
        error_messages={
            "required": OUT_OF_DATE,
            "invalid": OUT_OF_DATE,
            "min_value": OUT_OF_DATE,
        },
    )
    action = forms.CharField(
        max_length=40, error_messages={"required": gettext_lazy("Choose an action.")}
    )
    play = forms.CharField(required=False, max_length=200, empty_value=None)
    points = forms.TypedChoiceField(
        choices=RESIGN_CHOICES,
        coerce=int,
        required=False,
        empty_value=None,
        error_messages={
            "invalid_choice": gettext_lazy(
                "Resigning offers 1 (single), 2 (gammon) or 3 (backgammon) points."
            )
        },
    )
    number = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in range(1, 7)],
        coerce=int,
        required=False,
        empty_value=None,
        error_messages={"invalid_choice": gettext_lazy("Name a double by its number, 1 to 6.")},
    )
    message = forms.CharField(required=False, strip=False, empty_value=None)

    def clean_message(self) -> str | None:
        """A message said with the action, checked before the action is taken."""
        text = self.cleaned_data["message"]
        if text is None or not text.strip():
            return None
        try:
            return services.chat_text_clean(text)
        except ApplicationError as error:
            raise forms.ValidationError(error.message) from error

    def problem(self: forms.Form) -> str:
        """The first thing wrong with the request, in words for the player."""
        return next(str(message) for messages in self.errors.values() for message in messages)


@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(request, match_id, chat_of=request.user.pk)
    record_match_open(request.user, match.pk)
    hint = None
    if "hint" in request.GET:
        try:
            hint = tutor_hint(match, seat_of(request, match))
        except ApplicationError as error:
            return refused(request, match, error)
    return _render(request, match, hint=hint)


@require_POST
def match_act(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every button of the match page posts here; the services decide."""
    match = match_or_404(request, match_id)
    actor = _acting_player(request, match)
    if actor is None:
        return redirect_to_login(request.get_full_path())
    form = ActForm(request.POST)
    if not form.is_valid():
        return _render(request, match, error=form.problem(), status=400)
    message = form.cleaned_data["message"]
    try:
        if message is not None:
            services.chat_limit_spend(request, actor)
        match = services.match_act(
            match_id=match.pk,
            actor=actor,
            expected_seq=form.cleaned_data["seq"],
            action=form.cleaned_data["action"],
            play=form.cleaned_data["play"],
            points=form.cleaned_data["points"],
            number=form.cleaned_data["number"],
            message=message,
        )
        tutor_after_play(
            match=match,
            actor=actor,
            expected_seq=form.cleaned_data["seq"],
            action=form.cleaned_data["action"],
            play=form.cleaned_data["play"],
        )
    except Conflict:
        return _moved_on(
            request, match_id, _("The match moved on before your action arrived; here it is now.")
        )
    except ApplicationError as error:
        return refused(request, match, error)
    return redirect("match", match_id=match.pk)


class AnswerAheadForm(forms.Form):
    """A take or drop left for the double the opponent may offer next; empty takes it back."""

    seq = forms.IntegerField(
        min_value=0,
        error_messages={"required": OUT_OF_DATE, "invalid": OUT_OF_DATE, "min_value": OUT_OF_DATE},
    )
    answer = forms.ChoiceField(
        choices=[("take", "take"), ("drop", "drop"), ("", "none")],
        required=False,
        error_messages={"invalid_choice": gettext_lazy("An answer left ahead is take or drop.")},
    )

    problem = ActForm.problem


@require_POST
def match_answer_ahead(request: HttpRequest, match_id: int) -> HttpResponse:
    """Leave (or take back) the answer to a double the opponent may offer before rolling."""
    match = match_or_404(request, match_id)
    player = _acting_player(request, match)
    if player is None:
        return redirect_to_login(request.get_full_path())
    form = AnswerAheadForm(request.POST)
    if not form.is_valid():
        return _render(request, match, error=form.problem(), status=400)
    try:
        services.answer_ahead_leave(
            match_id=match.pk,
            player=player,
            expected_seq=form.cleaned_data["seq"],
            answer=form.cleaned_data["answer"] or None,
        )
    except Conflict:
        return _moved_on(
            request, match_id, _("The match moved on before your answer arrived; here it is now.")
        )
    except ApplicationError as error:
        return refused(request, match, error)
    return redirect("match", match_id=match.pk)


def _acting_player(request: HttpRequest, match: Match) -> Any | None:
    """Who a POST to the match acts as: the visitor's seat (the one to act when the session
    plays both), else the signed-in user (whom the services refuse if not a player); None for
    a visitor to send to the sign-in page."""
    player = seat_of(request, match)
    if player is None and request.user.is_authenticated:
        return request.user
    return player


def _moved_on(request: HttpRequest, match_id: int, words: str) -> HttpResponse:
    """The match as it is now, saying that the request came too late for it."""
    return _render(request, match_or_404(request, match_id), error=words, status=409)


def refused(request: HttpRequest, match: Match, error: ApplicationError) -> HttpResponse:
    """The match page again, saying why the request was refused, with its status."""
    return with_refusal_status(_render(request, match, error=error.message), error)


def with_refusal_status(response: HttpResponse, error: ApplicationError) -> HttpResponse:
    """``response``, which shows why the request was refused, with the status that says so."""
    statuses = {TooManyAttempts: 429, NotFound: 404, Forbidden: 403, Conflict: 409}
    response.status_code = next(
        (code for kind, code in statuses.items() if isinstance(error, kind)), 400
    )
    if isinstance(error, TooManyAttempts):
        response["Retry-After"] = str(error.retry_after)
    return response


@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """Rematch: offer the opponent another match, or accept the rematch they offered."""
    match = match_or_404(request, match_id)
    player = _acting_player(request, match)
    if player is None:
        return redirect_to_login(request.get_full_path())
    try:
        challenge, _created = services.rematch_offer(match_id=match.pk, player=player)
    except ApplicationError as error:
        return refused(request, match, error)
    challenge.refresh_from_db(fields=["match"])
    if challenge.match_id is not None:
        return redirect("match", match_id=challenge.match_id)
    return redirect("match", match_id=match.pk)


@require_POST
def match_hand_over(request: HttpRequest, match_id: int) -> HttpResponse:
    """Pass-and-play: the player to act has the device now; show them the board."""
    match = match_or_404(request, match_id)
    if _plays_both_seats(request, match) and match.to_act_id is not None:
        request.session[_HANDED_TO.format(match.pk)] = match.to_act_id
    return redirect("match", match_id=match.pk)


def seat_of(request: HttpRequest, match: Match) -> Any | None:
    """The player of ``match`` this visitor acts as: the one to act when the session plays
    both seats (pass-and-play), else the visitor's own seat; None for a spectator."""
    ids = guests.session_player_ids(request)
    if match.to_act_id in ids:
        return match.to_act
    return next((player for player in match.players if player.pk in ids), None)


_HANDED_TO = "handed_to_{}"


def _plays_both_seats(request: HttpRequest, match: Match) -> bool:
    ids = guests.session_player_ids(request)
    return match.first_player_id in ids and match.second_player_id in ids


def _waiting_to_be_handed_over(request: HttpRequest, match: Match) -> bool:
    """Pass-and-play between turns: the board waits until the next player has the device."""
    return (
        match.status == Match.Status.ACTIVE
        and match.to_act_id is not None
        and _plays_both_seats(request, match)
        and request.session.get(_HANDED_TO.format(match.pk)) != match.to_act_id
    )


@require_GET
def match_poll(request: HttpRequest, match_id: int) -> HttpResponse:
    """For htmx polling: nothing (204) while the match is at ``seq``, else reload the page."""
    match = selectors.match_outline(match_id, readers=guests.session_player_ids(request))
    if match is None:
        raise Http404("No such match.")
    record_match_open(request.user, match_id)
    if str(match.seq) == request.GET.get("seq"):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Redirect"] = reverse("match", kwargs={"match_id": match_id})
    return response


def match_or_404(request: HttpRequest, match_id: int, *, chat_of: int | None = None) -> Match:
    """The match as the visitor may see it; 404 when there is none, or when it is a casual
    match the visitor does not play in (the same answer: its id is not confirmed)."""
    readers = guests.session_player_ids(request)
    match = selectors.match_with_players(match_id, readers=readers, chat_of=chat_of)
    if match is None:
        raise Http404("No such match.")
    return match


def _render(
    request: HttpRequest,
    match: Match,
    *,
    error: str | None = None,
    status: int = 200,
    hint: str | None = None,
) -> HttpResponse:
    if _waiting_to_be_handed_over(request, match):
        template = "games/_pass_device.html" if request.headers.get("HX-Request") else None
        context = {"match": match, "next_player": player_name(match.to_act)}
        return render(request, template or "games/pass_device.html", context, status=status)
    viewer = seat_of(request, match)
    you = match.player_index(viewer)
    ratings = _ratings_now(match)
    keep = error is None and hint is None and match.status != Match.Status.FINISHED
    key = play_area_key(request, match, you, ratings) if keep else None

    def title_and_area() -> tuple[str, str]:
        return kept(key, lambda: _play_area(request, match, viewer, ratings, error, hint))

    if request.headers.get("HX-Request"):
        area = filled_clocks(title_and_area()[1], match)
        return HttpResponse(filled_csrf(area, request), status=status)
    chat = selectors.chat_for_player(match, viewer) if viewer is not None else None

    def whole_page() -> str:
        title, area = title_and_area()
        context = {
            "match": match,
            "title": mark_safe(title),
            "play_area": mark_safe(area),
            "chat": chat,
            "chat_reported": request.GET.get("chat") == "reported",
            "opponent": None if you is None else match_names(*match.players)[1 - you],
            "csrf_token": CSRF_SLOT,
        }
        return render_to_string("games/match.html", context, request)

    page = filled_clocks(kept(page_key(request, key, chat), whole_page), match)
    return page_response(request, page, status)


def _play_area(
    request: HttpRequest,
    match: Match,
    viewer: Viewer,
    ratings: tuple[float | None, float | None],
    error: str | None,
    hint: str | None = None,
) -> tuple[str, str]:
    """The page's title and play area as ``viewer`` sees them, with the slots for the
    request's own parts; with ``hint``, the tutor's best play drawn on the board instead of
    the turn being put together."""
    view = selectors.match_view(match, viewer, for_page=True)
    state = selectors.match_state(match)
    you = view.you
    side = you if you is not None else (1 if request.GET.get("side") == "1" else 0)
    names = (view.players[0], view.players[1])
    notice = None
    turn = None
    selected = None
    if hint is None and "move" in view.legal_actions and you is not None and state.dice is not None:
        turn, selected, notice = turn_in_progress(request, state, you)

    def link(**target: int) -> str:
        assert turn is not None
        if "select" in target:
            point = target["select"]
            if point == selected:
                return turn_url(match, turn.with_move(turn.quick_move(point)))
            return turn_url(match, turn, select=point)
        assert selected is not None
        return turn_url(match, turn.with_move(turn.move_to(selected, target["to"])))

    looks = checker_looks(match.first_player, match.second_player)
    shown = state.board_for(0)
    if turn is not None:
        shown = turn.board if you == 0 else turn.board.flipped()
    hinted = None
    if hint is not None and you is not None:
        shown, hinted = hinted_board(state, you, hint)
    board = draw_board(
        shown,
        side=side,
        names=names,
        usernames=(view.usernames[0], view.usernames[1]),
        dice=state.dice,
        dice_owner=state.turn,
        used_dice=tuple(move.die for move in turn.moves) if turn is not None else (),
        cube=Cube.of(state),
        movable=turn.movable_points() if turn is not None else frozenset(),
        selected=selected,
        destinations=frozenset(turn.destinations(selected)) if turn and selected else frozenset(),
        link=link if turn is not None else None,
        looks=looks,
        # Once the viewer has moved a checker, their own steps are what the board shows.
        last_play=None if turn is not None and turn.moves else state.last_play,
        best_play=hinted,
    )
    context: dict[str, Any] = {
        "match": match,
        "act_url": reverse("match-act", kwargs={"match_id": match.pk}),
        "view": view,
        "games": games_said(view.games),
        "end_reason": end_reason(view.end_reason),
        "state": state,
        "double_numbers": range(1, 7),
        "board": board,
        # As the board shows it: with the checkers the player has moved so far this turn.
        "pip_counts": (state.board_for(0) if hinted else shown).pip_count(),
        "move_games": match_moves(match, names),
        "looks": looks,
        "crowned": (wears_crown(match.first_player), wears_crown(match.second_player)),
        "ratings": ratings,
        "board_svg": board_svg(board),
        "side": side,
        "flip_side": 1 - side,
        "you": you,
        "opponent": None if you is None else names[1 - you],
        "turn": turn,
        "steps_text": format_play(turn.play())
        if turn and turn.is_complete()
        else (steps_notation(turn) if turn else ""),
        "undo_url": turn_url(match, turn.undo()) if turn and turn.moves else None,
        "error": error,
        "notice": notice,
        "resign_choices": RESIGN_CHOICES,
        "time_control": time_control_words(match.time_control),
        "clocks_html": CLOCKS_SLOT,
        "ended_by": _ended_by(match),
        # Ending a casual match (or one against the computer) is ending the game, not aborting.
        "against_computer": "abort" in view.ending_actions
        and (selectors.against_computer(match) or selectors.is_casual(match)),
        "after": _after_the_match(request, match, view, viewer),
        "download": match_download(match),
        "dice_commitment": seed_commitment(match.server_seed_ciphertext),
        "answer_ahead": _answer_ahead(match, state, you, request),
        "tutor": tutor_panel(
            match=match, state=state, you=you, names=names, looks=looks, hint=hint
        ),
        "csrf_token": CSRF_SLOT,
    }
    return (
        render_to_string("games/_match_title.html", context, request),
        render_to_string("games/_play_area.html", context, request),
    )


def _ratings_now(match: Match) -> tuple[float | None, float | None]:
    """The two players' ratings in the match's variant as they stand, in seat order; None for
    a player not yet rated in it."""
    found = rating_selectors.ratings_in(
        (match.first_player_id, match.second_player_id), match.variant
    )
    first, second = found.get(match.first_player_id), found.get(match.second_player_id)
    return (
        None if first is None else first.rating,
        None if second is None else second.rating,
    )


def _after_the_match(
    request: HttpRequest, match: Match, view: MatchView, viewer: Viewer
) -> dict[str, Any] | None:
    """The end panel of a finished match: the final score, how it ended, the rating changes,
    and what the viewer may do next (rematch, next match, or sign up to keep the match)."""
    if match.status != Match.Status.FINISHED:
        return None
    names = view.players
    players_guests = [guests.is_guest(player) for player in match.players]
    rematch = None
    if view.you is not None and isinstance(viewer, Player) and not any(players_guests):
        rematch = _rematch_state(match, viewer)
    signed_in = request.user.is_authenticated
    session_guest = None if signed_in else guests.session_guest(request)
    return {
        "score": [
            {"player": names[seat], "points": view.score[seat], "won": view.winner == name}
            for seat, name in enumerate(names)
        ],
        "how": how_it_ended(view),
        "ratings": [
            {**asdict(change), "difference_text": signed(change.difference)}
            for change in view.rating_changes
        ],
        "rematch": rematch,
        "next_match": request.user.is_authenticated
        and selectors.next_match_waiting(request.user) is not None,
        "sign_up": session_guest is not None and match.player_index(session_guest) is not None,
    }


def _answer_ahead(
    match: Match, state: Any, you: int | None, request: HttpRequest
) -> dict[str, Any] | None:
    """The answer to a coming double the viewer may leave now, and the one they left; None
    when they may leave none (or play both seats on this device)."""
    if you is None or _plays_both_seats(request, match):
        return None
    if not services.may_answer_ahead(state, you):
        return None
    return {"left": services.answer_left_for(match, you)}


def _rematch_state(match: Match, player: Player) -> dict[str, Any]:
    """``offer`` (no rematch yet), ``offered`` (yours waits; a computer accepts it in a
    moment, from the worker), ``theirs`` (the opponent's waits: the button accepts it) or
    ``accepted`` (with the new match)."""
    for challenge in selectors.rematches(match):
        if challenge.status == Challenge.Status.ACCEPTED:
            return {"state": "accepted", "match_id": challenge.match_id}
        if challenge.challenger_id == player.pk:
            return {"state": "offered", "computer": selectors.against_computer(match)}
        return {"state": "theirs"}
    return {"state": "offer"}


def _ended_by(match: Match) -> str | None:
    """The moderator who awarded or aborted the match, if one did."""
    if match.status != Match.Status.FINISHED:
        return None
    event = (
        match.events.filter(kind__in=("match_awarded", "match_aborted"))
        .select_related("actor")
        .first()
    )
    if event is None or event.actor is None:
        return None
    return player_name(event.actor)
