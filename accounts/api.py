"""The caller's account over the API: tokens (sign in with a username and password, get a
token to send with each request) and vacation."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts.models import Profile
from backgammon_site.errors import ApplicationError
from games import selectors, services
from games.api.serializers import ErrorSerializer, TokenRequestSerializer, TokenSerializer
from games.clocks.rules import VacationAllowance


class TokenCreate(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[type] = []
    throttle_classes = [AnonRateThrottle]

    @extend_schema(
        summary="Get an API token for a username and password",
        request=TokenRequestSerializer,
        responses={
            201: TokenSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Wrong username or password."),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = TokenRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = authenticate(
            request._request,
            username=body.validated_data["username"],
            password=body.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise ApplicationError("Wrong username or password.", "invalid_credentials")
        instance, token = AuthToken.objects.create(user)
        data = {"token": token, "expiry": instance.expiry}
        return Response(TokenSerializer(data).data, status=status.HTTP_201_CREATED)


class TokenRevoke(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Revoke the token this request was signed with",
        request=None,
        responses={204: None, 401: OpenApiResponse(ErrorSerializer)},
    )
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


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
    def get(self, request: Request) -> Response:
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
    def post(self, request: Request) -> Response:
        body = VacationSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if body.validated_data["on"]:
            services.vacation_start(user=request.user)
        else:
            services.vacation_end(user=request.user)
        return Response(_vacation(request.user))


def _vacation(user: Any) -> dict[str, Any]:
    profile, _ = Profile.objects.get_or_create(user=user)
    allowance = VacationAllowance(profile.vacation_days, profile.vacation_counted_until)
    return VacationSerializer(
        {
            "on": profile.vacation_started_at is not None,
            "days": allowance.at(timezone.now()).days,
            "started_at": profile.vacation_started_at,
            "ends_at": selectors.vacation_ends_at(profile),
        }
    ).data
