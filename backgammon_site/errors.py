"""Refusals every app raises: a stable ``code`` for programs and a ``message`` for people.

The API renders them through backgammon_site.api_errors; the pages show the same message.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    """A refused request: ``code`` is stable for programs, ``message`` is for people."""

    code = "invalid"

    def __init__(self, message: str, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details


class NotFound(ApplicationError):
    code = "not_found"


class Forbidden(ApplicationError):
    code = "forbidden"


class Conflict(ApplicationError):
    """The caller acted on a seq that is no longer current."""

    code = "stale"


class IllegalAction(ApplicationError):
    """The rules do not allow the action now."""

    code = "illegal"
