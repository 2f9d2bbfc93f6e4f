"""Caching headers for answers that depend on who asks.

Nearly every answer does: pages show the signed-in player, and the API answers for its
caller (their legal actions, their matches). Such an answer tells every cache on the way that
it is the browser's alone (``Cache-Control: private``) and what tells viewers apart (``Vary``):
the session cookie, and for the API also the ``Authorization`` header that carries a token.
A view whose answer is the same for everyone (the OpenAPI schema) says so with
``viewer_independent`` and is left alone, as are static files, served before this middleware.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers
from rest_framework.response import Response

View = Callable[..., HttpResponseBase]


def viewer_independent(view: View) -> View:
    """Mark ``view``'s answers as the same whoever asks: no private caching headers."""

    @wraps(view)
    def answer_for_everyone(*args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(*args, **kwargs)
        response.viewer_independent = True  # type: ignore[attr-defined]
        return response

    return answer_for_everyone


class PerViewerCachingMiddleware:
    """``Cache-Control: private`` and ``Vary`` on every answer not marked viewer-independent."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if getattr(response, "viewer_independent", False):
            return response
        if isinstance(response, Response):  # the API also knows callers by their token
            patch_vary_headers(response, ("Authorization", "Cookie"))
        else:
            patch_vary_headers(response, ("Cookie",))
        patch_cache_control(response, private=True)
        return response
