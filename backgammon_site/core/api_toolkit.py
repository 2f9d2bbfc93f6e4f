"""What every app's API is built with: the JSON parser, the error body and its documented
responses, pagination, and fields that take JSON as it is sent.

Errors are rendered by backgammon_site.core.api_errors; ErrorSerializer is their schema.
"""

from __future__ import annotations

import io
import re
from itertools import accumulate
from typing import IO, Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework import parsers, serializers
from rest_framework.exceptions import ParseError
from rest_framework.pagination import PageNumberPagination

#: No request body of the API nests deeper than a few levels.
MAX_JSON_DEPTH = 32
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_JSON_BRACKET = re.compile(rb"[\[\]{}]")


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested deeper than MAX_JSON_DEPTH with a 400 before
    Python's parser would run out of stack on it."""

    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: dict[str, Any] | None = None,
    ) -> Any:
        body = stream.read()
        if _depth(body) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels.")
        return super().parse(io.BytesIO(body), media_type, parser_context)


def _depth(body: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings aside)."""
    brackets = _JSON_BRACKET.findall(_JSON_STRING.sub(b"", body))
    return max(accumulate(1 if bracket in b"[{" else -1 for bracket in brackets), default=0)


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
#: 429 with Retry-After, from a limit spent (backgammon_site.core.errors.TooManyAttempts).
TOO_MANY = OpenApiResponse(
    ErrorSerializer, description="Too many attempts; Retry-After says when to try again."
)


class Pagination(PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
