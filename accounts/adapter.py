"""allauth's adapter for the site: guests kept on signing up (accounts/guests.py), failed
logins counted and limited (accounts/failed_logins.py)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts import failed_logins
from accounts.guests import GuestKeepingAccountAdapter


class AccountAdapter(GuestKeepingAccountAdapter):
    #: Seconds until the refused login may be tried again (set when one is refused).
    retry_after: int | None = None

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        login = credentials.get("email", credentials.get("username", "")) or ""
        self.guess = failed_logins.guess_of(request, login)
        self.retry_after = failed_logins.refusal(self.guess)
        if self.retry_after is not None:
            raise self.validation_error("too_many_login_attempts")

    def authenticate(self, request: HttpRequest, **credentials: Any) -> Any:
        user = super().authenticate(request, **credentials)
        if user is not None:
            failed_logins.failures_forgiven(self.guess)
        return user

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        failed_logins.failure_record(self.guess)
