"""The caller's devices that take web push notifications, over the API (the settings page's
script uses it with the session, CSRF-checked as every session request is)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.push_devices import device_disable, device_enable
from backgammon_site.core.api_toolkit import ErrorSerializer, StrictCharField
from backgammon_site.core.errors import NotFound


class PushKeysSerializer(serializers.Serializer):
    p256dh = StrictCharField(
        max_length=100, help_text="The browser's P-256 public key, URL-safe base64."
    )
    auth = StrictCharField(max_length=50, help_text="The browser's auth secret, URL-safe base64.")


class PushSubscriptionSerializer(serializers.Serializer):
    """What the browser's ``PushSubscription.toJSON()`` gives (other members are ignored)."""

    endpoint = StrictCharField(max_length=1000, help_text="The push service's https address.")
    keys = PushKeysSerializer()


class PushEndpointSerializer(serializers.Serializer):
    endpoint = StrictCharField(max_length=1000)


class PushDeviceSerializer(serializers.Serializer):
    endpoint = serializers.CharField()
    created_at = serializers.DateTimeField()


class PushSubscriptions(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Enable web push notifications on a device",
        description="Which news is pushed is the caller's choice on the notification settings "
        "page; the VAPID public key to subscribe with is on that page too.",
        request=PushSubscriptionSerializer,
        responses={
            201: PushDeviceSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description="Not an https push endpoint (`invalid_endpoint`), keys that are not "
                "a browser's (`invalid_key`), or too many devices (`too_many_devices`).",
            ),
            401: OpenApiResponse(ErrorSerializer),
            403: OpenApiResponse(ErrorSerializer, description="No CSRF token with the session."),
        },
    )
    def post(self, request: Request) -> Response:
        body = PushSubscriptionSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        device = device_enable(
            user=request.user,
            endpoint=body.validated_data["endpoint"],
            p256dh=body.validated_data["keys"]["p256dh"],
            auth=body.validated_data["keys"]["auth"],
        )
        return Response(PushDeviceSerializer(device).data, status=status.HTTP_201_CREATED)


class PushSubscriptionRemove(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Disable web push notifications on a device",
        request=PushEndpointSerializer,
        responses={
            204: None,
            400: OpenApiResponse(ErrorSerializer),
            401: OpenApiResponse(ErrorSerializer),
            403: OpenApiResponse(ErrorSerializer, description="No CSRF token with the session."),
            404: OpenApiResponse(
                ErrorSerializer, description="No device of yours at that endpoint."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        body = PushEndpointSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if not device_disable(user=request.user, endpoint=body.validated_data["endpoint"]):
            raise NotFound("No device of yours takes notifications at that endpoint.")
        return Response(status=status.HTTP_204_NO_CONTENT)
