"""The match page's play area (the board, the actions, the facts, the move list), rendered once
per state of the match and kept in Django's cache (Redis when CACHE_URL is set).

A player's view of a match stays the same until its seq changes, and every spectator sees the
same one: each request renders only what is its own (the clocks, which run; the CSRF token; the
chat, the navigation around). The play area is rendered with a slot for each of those first
two, kept, then filled for the request. Its key holds everything the rendering reads:

- the match's row (its seq stands for the snapshot; its other columns are all in the key);
- both players' rows and profiles (names, checker looks, crown; all columns but the moment
  they were last seen, which no page shows), and their ratings in the variant;
- the viewer's seat (or spectator), the side shown, the steps and checker chosen so far;
- the language, whether htmx asked (a fragment carries its title), and the site's own
  templates and code (``SOURCES``), so that a new release never serves an old rendering.

A finished match (its end panel depends on the viewer's rematches and next match) and a
refusal (which says why) are rendered for the request alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache as once
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.db import models
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.safestring import SafeString, mark_safe

from accounts.names import match_names, player_name
from games import selectors
from games.clocks.rules import UNTIMED
from games.clocks.words import clock_faces
from games.models import Match

T = TypeVar("T")

#: Where the request's CSRF token goes; no escaped text can hold a raw "<".
CSRF_SLOT = mark_safe("<!--csrf-token-->")
#: Where the clocks as they stand go.
CLOCKS_SLOT = mark_safe("<!--clocks-->")

#: A state kept this long unread is dropped; a match moves on long before, as a rule.
KEEP_SECONDS = 60 * 60

#: Columns no page shows, left out of the key: they change without the page changing.
UNSHOWN = frozenset({"last_seen_at", "last_login", "password"})

#: What renders a play area: a release that changes any of it changes every key.
SOURCES = ("templates", "games/views", "games/selectors", "games/clocks", "games/engine")


@once
def sources_digest() -> str:
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    files = sorted(base.glob("locale/*/LC_MESSAGES/*.mo"))
    for source in SOURCES:
        path = base / source
        files += sorted(path.rglob("*")) if path.is_dir() else [path]
    for file in files:
        if file.is_file() and file.suffix in {".html", ".py", ".svg", ".mo"}:
            digest.update(str(file.relative_to(base)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def _columns(row: models.Model | None) -> tuple[Any, ...]:
    if row is None:
        return ()
    return tuple(
        getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if field.attname not in UNSHOWN and field.name != "state"
    )


def play_area_key(
    request: HttpRequest,
    match: Match,
    you: int | None,
    ratings: tuple[float | None, float | None],
) -> str:
    """The key of ``match``'s play area as this request's viewer sees it."""
    players = [(_columns(user), _columns(getattr(user, "profile", None))) for user in match.players]
    parts = (
        _columns(match),
        players,
        ratings,
        you,
        request.GET.get("side"),
        request.GET.get("steps"),
        request.GET.get("select"),
        bool(request.headers.get("HX-Request")),
        translation.get_language(),
        sources_digest(),
    )
    return f"play-area:{match.pk}:{match.seq}:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def kept(key: str | None, render: Callable[[], T]) -> T:
    """What is kept under ``key``, else rendered by ``render`` (with the slots) and kept; with
    no key, rendered for this request alone."""
    if key is None:
        return render()
    found: T | None = cache.get(key)
    if found is None:
        found = render()
        cache.set(key, found, KEEP_SECONDS)
    return found


def page_key(request: HttpRequest, area_key: str | None, chat: dict[str, Any] | None) -> str | None:
    """The key of the whole page around a kept play area, when nothing else on it is the
    request's own but what the slots take: no chat message to show (a player's chat is read
    with the match), no message of the site waiting to be shown. The rest is the signed-in
    player in the navigation and the address the language switch comes back to."""
    if area_key is None or (chat is not None and chat["messages"]) or len(get_messages(request)):
        return None
    user = request.user
    parts = (
        area_key,
        user.pk,
        user.get_username() if user.is_authenticated else None,
        player_name(user) if user.is_authenticated else None,
        request.get_full_path(),
        None if chat is None else (chat["muted"], chat["player_id"]),
        request.GET.get("chat"),
    )
    return "match-page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def clocks_now(match: Match) -> list[dict[str, Any]]:
    """Each player's time on the match page as it stands now; none for an untimed match or one
    that is not being played."""
    names = match_names(*match.players)
    clocks = selectors.match_clocks(match, names)
    if match.status != Match.Status.ACTIVE or clocks.kind == UNTIMED:
        return []
    seat = match.player_index(match.to_act)
    return clock_faces(
        clocks,
        players=names,
        to_act=None if seat is None else names[seat],
        deadline=match.deadline,
        now=timezone.now(),
    )


def filled_clocks(html: str, match: Match) -> str:
    """``html`` with the clocks as they stand now in their slot."""
    if CLOCKS_SLOT not in html:
        return html
    faces = clocks_now(match)
    clocks = render_to_string("games/_clocks.html", {"clocks": faces}) if faces else ""
    return html.replace(CLOCKS_SLOT, clocks, 1)


def filled_csrf(html: str, request: HttpRequest) -> SafeString:
    """``html`` with the request's CSRF token in every slot (Django sets its cookie)."""
    if CSRF_SLOT not in html:
        return mark_safe(html)
    return mark_safe(html.replace(CSRF_SLOT, get_token(request)))


def page_etag(page: str, request: HttpRequest) -> str:
    """The ETag of ``page`` (rendered with CSRF slots) for this request: the same page and the
    same CSRF secret (a page kept by the browser holds tokens of its secret) give the same."""
    get_token(request)  # the secret this request's tokens are made from, made if new
    digest = hashlib.sha256(page.encode())
    digest.update(request.META.get("CSRF_COOKIE", "").encode())
    return f'"{digest.hexdigest()[:32]}"'


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match names ``etag`` (or any)."""
    asked = request.headers.get("If-None-Match", "")
    return any(
        tag.strip().removeprefix("W/") in (etag, "*") for tag in asked.split(",") if tag.strip()
    )


def page_response(request: HttpRequest, page: str, status: int) -> HttpResponse:
    """``page`` (its CSRF slots still empty) for this request, with its ETag; a 304 when the
    request's If-None-Match names it."""
    etag = page_etag(page, request)
    if status == 200 and etag_matches(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(filled_csrf(page, request), status=status)
    if status == 200:
        response["ETag"] = etag
        patch_cache_control(response, private=True, no_cache=True, must_revalidate=True)
    return response
