"""API tokens: sign in with a username and password, get a token to send with each request."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from accounts.logins import password_login
from backgammon_site.core.api_toolkit import ErrorSerializer, StrictCharField
from backgammon_site.core.errors import ApplicationError


class TokenRequestSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(allow_null=True)


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
            429: OpenApiResponse(
                ErrorSerializer,
                description="Too many failed logins to the account or from the address "
                "(`too_many_attempts`, with Retry-After), or too many requests (`throttled`).",
            ),
        },
        auth=[],
    )
    def post(self, request: Request) -> Response:
        body = TokenRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = password_login(
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
