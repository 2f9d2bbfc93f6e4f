"""Refusals every app raises: a stable ``code`` for programs and a ``message`` for people.

The API renders them through backgammon_site.core.api_errors; the pages show the same message.
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


class TooManyAttempts(ApplicationError):
    """A limit is spent: ``retry_after`` seconds from now the attempt is certain to be allowed."""

    code = "too_many_attempts"

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after
