"""One error shape for the whole API: JSON with a stable code and a message for people."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from backgammon_site.core.errors import (
    ApplicationError,
    Conflict,
    Forbidden,
    NotFound,
    TooManyAttempts,
)

_STATUS = {NotFound: 404, Forbidden: 403, Conflict: 409, TooManyAttempts: 429}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Render service errors and DRF's own as ``{"code", "message", ...}``."""
    if isinstance(exc, ApplicationError):
        code = next((s for kind, s in _STATUS.items() if isinstance(exc, kind)), 400)
        headers = (
            {"Retry-After": str(exc.retry_after)} if isinstance(exc, TooManyAttempts) else None
        )
        return Response(
            {"code": exc.code, "message": exc.message, **exc.details}, status=code, headers=headers
        )
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        fields = _field_problems(exc.detail)
        first = next(iter(fields.items()), ("", ["Invalid request."]))
        message = f"{first[0]}: {first[1][0]}" if first[0] else first[1][0]
        response.data = {"code": "invalid", "message": message, "fields": fields}
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {
            "code": codes if isinstance(codes, str) else exc.default_code,
            "message": str(exc.detail),
        }
    return response


def _field_problems(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    if isinstance(detail, dict):
        problems: dict[str, list[str]] = {}
        for name, inner in detail.items():
            field = "" if name == "non_field_errors" else str(name)
            problems.update(_field_problems(inner, f"{prefix}.{field}" if prefix else field))
        return problems
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {prefix: [str(item) for item in detail]}
        problems = {}
        for index, inner in enumerate(detail):
            problems.update(_field_problems(inner, f"{prefix}[{index}]"))
        return problems
    return {prefix: [str(detail)]}


def _json_for_api(
    request: HttpRequest, code: str, message: str, status_code: int
) -> JsonResponse | None:
    if request.path.startswith("/api/"):
        return JsonResponse({"code": code, "message": message}, status=status_code)
    return None


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _json_for_api(
        request, "bad_request", "The request could not be read.", status.HTTP_400_BAD_REQUEST
    ) or defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _json_for_api(
        request, "forbidden", "You may not do this.", status.HTTP_403_FORBIDDEN
    ) or defaults.permission_denied(request, exception)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _json_for_api(
        request, "not_found", f"There is nothing at {request.path}.", status.HTTP_404_NOT_FOUND
    ) or defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    return _json_for_api(
        request,
        "server_error",
        "Something went wrong on our side; nothing you sent was lost or half-done.",
        status.HTTP_500_INTERNAL_SERVER_ERROR,
    ) or defaults.server_error(request)
