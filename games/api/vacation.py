"""The caller's vacation over the API: while on, their correspondence deadlines are paused."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import Profile
from accounts.vacation import days_available, vacation_ends_at
from backgammon_site.core.api_toolkit import ErrorSerializer
from games import services
from games.api.signed_in import SignedInRequest
from games.models import Player


class VacationSerializer(serializers.Serializer):
    on = serializers.BooleanField(help_text="Whether the vacation is on.")
    days = serializers.IntegerField(
        read_only=True, help_text="Vacation days available now (2 earned every 30 days, up to 30)."
    )
    started_at = serializers.DateTimeField(read_only=True, allow_null=True)
    ends_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text="When the vacation now on runs out of days."
    )


class Vacation(APIView):
    """The caller's vacation: while on, their correspondence deadlines are paused."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your vacation",
        responses={200: VacationSerializer, 401: OpenApiResponse(ErrorSerializer)},
    )
    def get(self, request: SignedInRequest) -> Response:
        return Response(_vacation(request.user))

    @extend_schema(
        summary="Switch your vacation on or off",
        request=VacationSerializer,
        responses={
            200: VacationSerializer,
            400: OpenApiResponse(
                ErrorSerializer, description="Already on vacation, or no vacation days left."
            ),
            401: OpenApiResponse(ErrorSerializer),
        },
    )
    def post(self, request: SignedInRequest) -> Response:
        body = VacationSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if body.validated_data["on"]:
            services.vacation_start(user=request.user)
        else:
            services.vacation_end(user=request.user)
        return Response(_vacation(request.user))


def _vacation(user: Player) -> dict[str, Any]:
    profile, _ = Profile.objects.get_or_create(user=user)
    return VacationSerializer(
        {
            "on": profile.vacation_started_at is not None,
            "days": days_available(profile, timezone.now()),
            "started_at": profile.vacation_started_at,
            "ends_at": vacation_ends_at(profile),
        }
    ).data
