"""The language each request is answered in.

A signed-in player's profile names theirs; without one (or for a visitor) the footer's
switch (Django's language cookie), then the browser's Accept-Language, then English. The API
answers in English whoever asks: its refusals are read by programs as much as by people.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import ngettext_lazy

from accounts.models import profile_of

#: Where the API is served: its answers are in English.
API_PREFIX = "/api/"

#: Django's words for spans of time (its timesince and timeuntil filters, and naturaltime past
#: a day), exactly as django.utils.timesince marks them: Django's own Greek catalogue leaves
#: them untranslated, so they are marked here for locale/el to carry (Russian keeps Django's).
DJANGO_TIME_SPANS = (
    ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
)


def profile_language(user: Any) -> str:
    """The language ``user`` chose on their profile; empty when they chose none (or are not
    signed in), and then the browser decides."""
    if user is None or not user.is_authenticated:
        return ""
    profile = profile_of(user)
    return profile.language if profile is not None else ""


def request_language(request: HttpRequest) -> str:
    """The language to answer ``request`` in (a code of settings.LANGUAGES)."""
    if request.path_info.startswith(API_PREFIX):
        return settings.LANGUAGE_CODE
    return profile_language(getattr(request, "user", None)) or (
        translation.get_language_from_request(request)
    )


def remember_language(response: HttpResponseBase, language: str) -> None:
    """Keep ``language`` in the browser's language cookie (forgotten when empty), so that it
    outlives the session: a player who logs out keeps reading their language."""
    if not language:
        response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class PlayerLocaleMiddleware:
    """Django's LocaleMiddleware with the signed-in player's choice first: it comes after the
    authentication middleware, activates the request's language for the view and says it in
    ``Content-Language`` (answers vary by ``Accept-Language``), then lets it go, so that
    nothing after the request (another request on the thread, a test) inherits it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        translation.activate(request_language(request))
        request.LANGUAGE_CODE = translation.get_language()
        try:
            response = self.get_response(request)
            patch_vary_headers(response, ("Accept-Language",))
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            translation.deactivate()
