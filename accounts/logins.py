"""Password logins outside allauth's form, the admin's and the API token's, under the form's
limits on failures (accounts/failed_logins.py).

Each one goes through allauth's adapter, as the form does: the limits are asked before the
password is checked, and a wrong one is counted.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from accounts import limits

TOO_MANY_FAILURES = _("Too many failed logins to this account or from your address.")


def password_login(request: HttpRequest, *, username: str, password: str) -> Any | None:
    """The active account with this username (or email) and password, or None; raises
    limits.TooManyAttempts, checking nothing, while a limit on failures for this account name
    or from this address is spent."""
    adapter = get_adapter(request)
    try:
        return adapter.authenticate(request, username=username, password=password)
    except ValidationError as error:
        if error.code != "too_many_login_attempts":
            raise
    raise limits.refused_for(TOO_MANY_FAILURES, adapter.retry_after)


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, counting failures as every other login does."""

    retry_after: int | None = None

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username is not None and password:
            try:
                self.user_cache = password_login(self.request, username=username, password=password)
            except limits.TooManyAttempts as refusal:
                self.retry_after = refusal.retry_after
                raise ValidationError(refusal.message, code=refusal.code) from None
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data


def admin_login(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
    """The admin's login page (with AdminLoginForm as the site's login form); a login refused
    for too many failures answers 429 with Retry-After."""
    response = admin.site.login(request, extra_context)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if isinstance(form, AdminLoginForm) and form.retry_after is not None:
        response.status_code = 429
        response["Retry-After"] = str(form.retry_after)
    return response
