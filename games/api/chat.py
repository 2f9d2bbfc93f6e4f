"""The players' chat over the API: read and send a match's messages, report one, mute."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ERRORS, TOO_MANY
from backgammon_site.core.errors import Forbidden
from games import selectors, services
from games.api.matches import match_or_not_found
from games.api.serializers import (
    ChatMessageSerializer,
    ChatReportRequestSerializer,
    ChatReportSerializer,
    ChatSendSerializer,
    ChatSerializer,
    MuteSerializer,
)
from games.api.signed_in import SignedInRequest
from games.models import Match


class MatchChat(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The match's chat as you see it (players only)",
        responses={200: ChatSerializer, **ERRORS},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _players_match(request, match_id)
        return Response(ChatSerializer(selectors.chat_for_player(match, request.user)).data)

    @extend_schema(
        summary="Say something to your opponent",
        request=ChatSendSerializer,
        responses={201: ChatMessageSerializer, **ERRORS, 429: TOO_MANY},
    )
    def post(self, request: SignedInRequest, match_id: int) -> Response:
        body = ChatSendSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        text = services.chat_text_clean(body.validated_data["text"])
        match = _players_match(request, match_id)
        services.chat_limit_spend(request._request, request.user)
        message = services.chat_send(match_id=match.pk, author=request.user, text=text)
        return Response(ChatMessageSerializer(message).data, status=status.HTTP_201_CREATED)


class ChatMessageReport(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Report one of your opponent's messages to the moderators",
        request=ChatReportRequestSerializer,
        responses={201: ChatReportSerializer, **ERRORS},
    )
    def post(self, request: SignedInRequest, message_id: int) -> Response:
        body = ChatReportRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        report = services.chat_report(
            message_id=message_id, reporter=request.user, reason=body.validated_data["reason"]
        )
        return Response(ChatReportSerializer(report).data, status=status.HTTP_201_CREATED)


class MatchMute(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Mute your opponent in this match (they are not told)",
        request=None,
        responses={200: MuteSerializer, **ERRORS},
    )
    def post(self, request: SignedInRequest, match_id: int) -> Response:
        match_or_not_found(request, match_id)
        services.chat_mute(match_id=match_id, player=request.user)
        return Response(MuteSerializer({"muted": True}).data)

    @extend_schema(
        summary="Hear your opponent again",
        request=None,
        responses={200: MuteSerializer, **ERRORS},
    )
    def delete(self, request: SignedInRequest, match_id: int) -> Response:
        match_or_not_found(request, match_id)
        services.chat_unmute(match_id=match_id, player=request.user)
        return Response(MuteSerializer({"muted": False}).data)


def _players_match(request: Request, match_id: int) -> Match:
    match = match_or_not_found(request, match_id)
    if match.player_index(request.user) is None:
        raise Forbidden("Only the two players of a match read and write its chat.")
    return match
