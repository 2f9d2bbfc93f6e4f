"""The API of imported matches: upload a .mat file, read the match back and its analysis,
export it again."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import (
    ERRORS,
    TOO_MANY,
    ErrorSerializer,
    JSONParser,
    StrictCharField,
)
from backgammon_site.core.errors import ApplicationError, NotFound
from games.api.analysis_serializers import AnalysisQuerySerializer, ImportAnalysisSerializer
from games.api.downloads import TextDownload, download
from games.api.signed_in import SignedInRequest
from games.computer.analysis import (
    analysis_limit_spend,
    analysis_request,
    import_subject,
    stored_analysis,
)
from games.engine.match_ids import gnubg_ids, xgid_of
from games.models import ImportedMatch
from games.services import imports as match_imports


class ImportRequestSerializer(serializers.Serializer):
    text = StrictCharField(
        required=False,
        trim_whitespace=False,
        help_text="The .mat file's text, in a JSON body (at most 64 kB in all). Larger files: "
        "send the file itself as multipart 'file'.",
    )
    file = serializers.FileField(
        required=False, help_text="The .mat file (multipart/form-data), up to 1 million characters."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("text" in attrs) == ("file" in attrs):
            raise serializers.ValidationError("Send the .mat file as 'text' or as 'file'.")
        return attrs


class ImportedEventSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="As in a match's log: opening_roll, roll, move, ...")
    payload = serializers.DictField(help_text="As in a match's log.")


class ImportedMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    uploaded_by = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), min_length=2, max_length=2)
    match_length = serializers.IntegerField()
    score = serializers.ListField(
        child=serializers.IntegerField(), help_text="Where the file ends: [first, second]."
    )
    finished = serializers.BooleanField(help_text="The file plays the match to its end.")
    winner = serializers.CharField(allow_null=True)
    games = serializers.ListField(child=serializers.DictField())
    position_id = serializers.CharField()
    match_id = serializers.CharField()
    xgid = serializers.CharField()
    events = ImportedEventSerializer(many=True)
    created_at = serializers.DateTimeField()


def imported_match_view(imported: ImportedMatch) -> dict[str, Any]:
    state = match_imports.imported_state(imported)
    names = imported.names
    position_id, match_id = gnubg_ids(state)
    return {
        "id": imported.pk,
        "uploaded_by": imported.uploaded_by.get_username(),
        "players": list(names),
        "match_length": imported.match_length,
        "score": list(state.score),
        "finished": state.is_finished(),
        "winner": None if state.winner is None else names[state.winner],
        "games": [
            {
                "number": game.number,
                # .mat files are backgammon's, whose games are never drawn.
                "winner": names[game.winner],  # type: ignore[index]
                "points": game.points,
                "result": game.result,
                "crawford": game.crawford,
            }
            for game in state.games
        ],
        "position_id": position_id,
        "match_id": match_id,
        "xgid": xgid_of(state),
        "events": imported.events,
        "created_at": imported.created_at,
    }


class ImportCreate(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        summary="Import a match played elsewhere from a Jellyfish/GNU Backgammon .mat file",
        request={
            "application/json": ImportRequestSerializer,
            "multipart/form-data": ImportRequestSerializer,
        },
        responses={
            201: ImportedMatchSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="Not a .mat file, or its match breaks the rules "
                "(code invalid_mat, with the line at fault).",
            ),
            401: ERRORS[401],
            415: OpenApiResponse(
                ErrorSerializer, description="A body that is neither JSON nor a multipart form."
            ),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        body = ImportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        if "file" in values:
            upload = values["file"]
            if upload.size > match_imports.MAX_MAT_CHARACTERS * 4:
                raise ApplicationError("This file is too large for a .mat file.", "mat_too_long")
            text = match_imports.mat_text_from_bytes(upload.read())
        else:
            text = values["text"]
        imported = match_imports.imported_match_create(uploaded_by=request.user, text=text)
        return Response(
            ImportedMatchSerializer(imported_match_view(imported)).data,
            status=status.HTTP_201_CREATED,
        )


class ImportDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="An imported match: its players, score and events",
        responses={200: ImportedMatchSerializer, 404: ERRORS[404]},
    )
    def get(self, request: Request, import_id: int) -> Response:
        return Response(ImportedMatchSerializer(imported_match_view(_imported(import_id))).data)


class ImportAnalysisView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The imported match's analysis: the equity each decision lost against the best "
        "choice of bgsage and, as a second opinion, of GNU Backgammon",
        parameters=[AnalysisQuerySerializer],
        responses={200: ImportAnalysisSerializer, 400: ERRORS[400], 404: ERRORS[404]},
    )
    def get(self, request: Request, import_id: int) -> Response:
        engine = AnalysisQuerySerializer.engine_of(request.query_params)
        imported = _imported(import_id)
        analysis = stored_analysis(import_subject(imported.pk), engine)
        if analysis is None:
            raise NotFound(
                f"Imported match {import_id} has not been analysed; POST here to ask for it."
            )
        return Response(ImportAnalysisSerializer(analysis).data)

    @extend_schema(
        summary="Ask for the imported match to be analysed (again), in the background",
        parameters=[AnalysisQuerySerializer],
        request=None,
        responses={
            202: ImportAnalysisSerializer,
            400: ERRORS[400],
            401: ERRORS[401],
            404: ERRORS[404],
            429: TOO_MANY,
        },
    )
    def post(self, request: Request, import_id: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        engine = AnalysisQuerySerializer.engine_of(request.query_params)
        subject = import_subject(_imported(import_id).pk)
        analysis_limit_spend(request._request, request.user)
        analysis_request(subject)
        return Response(
            ImportAnalysisSerializer(stored_analysis(subject, engine)).data,
            status=status.HTTP_202_ACCEPTED,
        )


class ImportExportMat(TextDownload):
    @extend_schema(
        summary="An imported match written out again as a .mat file",
        responses={
            (200, "text/plain"): OpenApiResponse(str, description="The .mat text."),
            (404, "application/json"): OpenApiResponse(
                ErrorSerializer, description="No such import."
            ),
        },
    )
    def get(self, request: Request, import_id: int) -> Response:
        imported = _imported(import_id)
        return download(match_imports.imported_mat(imported), f"imported-{imported.pk}.mat")


def _imported(import_id: int) -> ImportedMatch:
    imported = ImportedMatch.objects.select_related("uploaded_by").filter(pk=import_id).first()
    if imported is None:
        raise NotFound(f"There is no imported match {import_id}.")
    return imported
