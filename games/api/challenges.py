"""The API of challenges: make one, list them, and accept, decline or cancel one."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ERRORS, Pagination
from backgammon_site.core.errors import NotFound
from games import selectors, services
from games.api.idempotency import IDEMPOTENCY_KEY, Answer, idempotent
from games.api.matches import state_data
from games.api.serializers import (
    AcceptRequestSerializer,
    ChallengeRequestSerializer,
    ChallengeSerializer,
    MatchStateSerializer,
)
from games.api.signed_in import SignedInRequest

User = get_user_model()


class ChallengeListCreate(APIView):
    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema(
        summary="Open challenges: to you, from you, and open to anyone",
        parameters=[
            OpenApiParameter("direction", str, enum=["incoming", "outgoing", "open"]),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: ChallengeSerializer(many=True), **ERRORS},
    )
    def get(self, request: SignedInRequest) -> Response:
        direction = request.query_params.get("direction") or None
        if direction not in (None, "incoming", "outgoing", "open"):
            raise ValidationError({"direction": ["One of incoming, outgoing, open."]})
        paginator = Pagination()
        page = paginator.paginate_queryset(
            selectors.challenges_for(request.user, direction), request, view=self
        )
        return paginator.get_paginated_response(ChallengeSerializer(page, many=True).data)

    @extend_schema(
        summary="Challenge a player, or post an open challenge (opponent null)",
        parameters=[IDEMPOTENCY_KEY],
        request=ChallengeRequestSerializer,
        responses={201: ChallengeSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest) -> Answer:
        body = ChallengeRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        opponent = None
        if values["opponent"] is not None:
            opponent = User.objects.filter(username=values["opponent"]).first()
            if opponent is None:
                raise NotFound(f"There is no player {values['opponent']!r}.")
        challenge = services.challenge_create(
            challenger=request.user,
            opponent=opponent,
            match_length=values["match_length"],
            variant=values["variant"],
            match_format=values.get("match_format"),
            cube=values.get("cube"),
            rated=values["rated"],
            time_control=values.get("time_control"),
            seed=values.get("seed") or None,
        )
        return Answer(
            lambda: Response(ChallengeSerializer(challenge).data, status=status.HTTP_201_CREATED)
        )


class ChallengeAccept(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Accept a challenge: the match starts",
        request=AcceptRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={201: MatchStateSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, challenge_id: int) -> Answer:
        body = AcceptRequestSerializer(data=request.data or {})
        body.is_valid(raise_exception=True)
        seed = body.validated_data.get("seed") or None
        match = services.challenge_accept(challenge_id=challenge_id, user=request.user, seed=seed)
        return Answer(
            lambda: Response(
                state_data(selectors.match_view(match, request.user)),
                status=status.HTTP_201_CREATED,
            )
        )


class ChallengeDecline(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Decline a challenge to you",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: ChallengeSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, challenge_id: int) -> Answer:
        challenge = services.challenge_decline(challenge_id=challenge_id, user=request.user)
        return Answer(lambda: Response(ChallengeSerializer(challenge).data))


class ChallengeCancel(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Cancel your challenge",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: ChallengeSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, challenge_id: int) -> Answer:
        challenge = services.challenge_cancel(challenge_id=challenge_id, user=request.user)
        return Answer(lambda: Response(ChallengeSerializer(challenge).data))
