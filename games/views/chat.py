"""The players' chat on the match page: read (the fragment a push fetches), send, report, mute
(games/services/chat.py)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.names import player_name
from backgammon_site.core.errors import ApplicationError, NotFound
from games import selectors, services
from games.models import Match, Player
from games.views.match import match_or_404, refused, seat_of, with_refusal_status


@require_GET
def match_chat_messages(request: HttpRequest, match_id: int) -> HttpResponse:
    """The chat as the match page shows it to this player, for the page to swap in when a push
    says the conversation changed; nothing (204) for anyone else, who has no chat to show."""
    match = match_or_404(request, match_id)
    player = seat_of(request, match)
    if player is None:
        return HttpResponse(status=204)
    return _chat_panel(request, match, player)


@require_POST
def match_chat_send(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player says something to their opponent."""
    match = match_or_404(request, match_id)
    author = _chatter(request, match)
    if author is None:
        return redirect_to_login(reverse("match", kwargs={"match_id": match.pk}))
    text = request.POST.get("text", "")
    # htmx sends the form from the page and swaps in the panel it gets back; without
    # JavaScript the page is loaded again.
    in_place = request.headers.get("HX-Request") and match.player_index(author) is not None
    try:
        services.chat_text_clean(text)
        if match.player_index(author) is not None:
            services.chat_limit_spend(request, author)
        services.chat_send(match_id=match.pk, author=author, text=text)
    except ApplicationError as error:
        if in_place:
            return with_refusal_status(
                _chat_panel(request, match, author, error=error.message, text=text), error
            )
        return refused(request, match, error)
    if in_place:
        return _chat_panel(request, match, author)
    return _back_to_chat(match)


@require_POST
def match_chat_report(request: HttpRequest, match_id: int, message_id: int) -> HttpResponse:
    """A player reports one of their opponent's messages to the moderators."""
    match = match_or_404(request, match_id)
    reporter = _chatter(request, match)
    if reporter is None:
        return redirect_to_login(reverse("match", kwargs={"match_id": match.pk}))
    try:
        if not match.chat_messages.filter(pk=message_id).exists():
            raise NotFound(_("No such message."))
        services.chat_report(
            message_id=message_id, reporter=reporter, reason=request.POST.get("reason", "")
        )
    except ApplicationError as error:
        return refused(request, match, error)
    return _back_to_chat(match, notice="reported")


@require_POST
def match_chat_mute(request: HttpRequest, match_id: int) -> HttpResponse:
    """A player mutes their opponent (``mute=on``) or hears them again (``mute=off``)."""
    match = match_or_404(request, match_id)
    player = _chatter(request, match)
    if player is None:
        return redirect_to_login(reverse("match", kwargs={"match_id": match.pk}))
    choice = request.POST.get("mute")
    try:
        if choice not in ("on", "off"):
            raise ApplicationError(_("Choose to mute (on) or unmute (off)."), "mute")
        change = services.chat_mute if choice == "on" else services.chat_unmute
        change(match_id=match.pk, player=player)
    except ApplicationError as error:
        return refused(request, match, error)
    return _back_to_chat(match)


def _chatter(request: HttpRequest, match: Match) -> Any | None:
    """Who talks from this browser: their seat of the match, else the signed-in visitor
    (whom the services refuse); None for an anonymous visitor."""
    seat = seat_of(request, match)
    if seat is not None:
        return seat
    return request.user if request.user.is_authenticated else None


def _chat_panel(
    request: HttpRequest, match: Match, player: Player, *, error: str | None = None, text: str = ""
) -> HttpResponse:
    """The chat panel alone, as ``player`` sees it; with a refusal, the text they sent is kept
    in the box for them to mend."""
    seat = match.player_index(player)
    assert seat is not None  # only a player of the match has the panel
    context = {
        "match": match,
        "chat": selectors.chat_for_player(match, player),
        "opponent": player_name(match.players[1 - seat]),
        "chat_error": error,
        "chat_text": text,
        "chat_focus": request.method == "POST",
    }
    return render(request, "games/chat.html", context)


def _back_to_chat(match: Match, notice: str | None = None) -> HttpResponse:
    url = reverse("match", kwargs={"match_id": match.pk})
    return redirect(f"{url}?{urlencode({'chat': notice})}#chat" if notice else f"{url}#chat")
