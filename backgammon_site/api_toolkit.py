"""What every app's API is built with: the error body and its documented responses,
pagination, and fields that take JSON as it is sent.

Errors are rendered by backgammon_site.api_errors; ErrorSerializer is their schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: no strings of digits, no 2.0, no true."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictCharField(serializers.CharField):
    """A JSON string: numbers are not turned into text."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class ErrorSerializer(serializers.Serializer):
    """Every error the API returns."""

    code = serializers.CharField(help_text="Stable, for programs: e.g. stale, illegal, not_found.")
    message = serializers.CharField(help_text="For people: what is wrong.")
    current_seq = serializers.IntegerField(
        required=False, help_text="With code 'stale': the match's seq now."
    )
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="With code 'invalid': the problems of each field of the request.",
    )
    line = serializers.IntegerField(
        required=False, help_text="With code 'invalid_mat': the line of the file at fault."
    )


ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid or illegal request."),
    401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed."),
    404: OpenApiResponse(ErrorSerializer, description="No such thing."),
}
#: 409 from an analysis asked for or read while its match is being played.
NOT_FINISHED = OpenApiResponse(
    ErrorSerializer, description="The match is still being played: no analysis until it ends."
)
#: 429 with Retry-After, from a limit spent (backgammon_site.errors.TooManyAttempts).
TOO_MANY = OpenApiResponse(
    ErrorSerializer, description="Too many attempts; Retry-After says when to try again."
)


class Pagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
