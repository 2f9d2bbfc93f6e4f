"""Matches as files to download: a .mat file (backgammon, nackgammon, hypergammon) and a text
record (any variant). Errors stay JSON."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ErrorSerializer
from backgammon_site.core.errors import ApplicationError
from games.api.matches import match_or_not_found
from games.log.exports import has_mat_file, mat_export, text_record_export


class MatRenderer(BaseRenderer):
    """Text as it is: a .mat file or a text record."""

    media_type = "text/plain"
    format = "mat"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: Any = None, context: Any = None) -> bytes:
        return str(data).encode()


class AlwaysFirstRenderer(BaseContentNegotiation):
    """The export is text whatever the client accepts; errors stay JSON (see finalize)."""

    def select_parser(self, request: Request, parsers: Any) -> Any:
        return parsers[0]

    def select_renderer(self, request: Request, renderers: Any, format_suffix: Any = None) -> Any:
        return renderers[0], renderers[0].media_type


class TextDownload(APIView):
    """A match as a file to download, as text whatever the client accepts."""

    permission_classes = [AllowAny]
    renderer_classes = [MatRenderer]
    content_negotiation_class = AlwaysFirstRenderer

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if response.status_code >= 400:
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)


def download(text: str, filename: str) -> Response:
    """``text`` as a file called ``filename`` to save."""
    return Response(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


_NO_MATCH = OpenApiResponse(ErrorSerializer, description="No such match.")


class MatchExportMat(TextDownload):
    @extend_schema(
        summary="The match as a Jellyfish/GNU Backgammon .mat file",
        description="Backgammon, nackgammon and hypergammon matches; a nackgammon or "
        'hypergammon file starts with gnubg\'s `; [Variation "NackGammon"]` (or '
        '`"HyperGammon (3)"`) line, which gnubg\'s import reads. The other variants have a text '
        "record instead (export.txt).",
        responses={
            (200, "text/plain"): OpenApiResponse(str, description="The .mat text."),
            (400, "application/json"): OpenApiResponse(
                ErrorSerializer,
                description="A match of a variant gnubg does not play (code mat_unavailable).",
            ),
            (404, "application/json"): _NO_MATCH,
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_not_found(request, match_id)
        if not has_mat_file(match):
            raise ApplicationError(
                f"A {match.variant_title} match has no .mat file: download its text "
                f"record (/api/matches/{match.pk}/export.txt).",
                "mat_unavailable",
            )
        return download(mat_export(match), f"match-{match.pk}.mat")


class MatchExportText(TextDownload):
    @extend_schema(
        summary="The match as a text record, in any variant",
        description="A header (players, variant, length, start date, dice commitment and, once "
        "the match is over, the revealed server seed), then each game's rolls, plays in the "
        "variant's notation, cube actions and result, one a line.",
        responses={
            (200, "text/plain"): OpenApiResponse(str, description="The text record."),
            (404, "application/json"): _NO_MATCH,
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_not_found(request, match_id)
        return download(text_record_export(match), f"match-{match.pk}.txt")
