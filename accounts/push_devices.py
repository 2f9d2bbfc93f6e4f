"""A player's devices that take web push notifications: enabling one (the browser's push
subscription, checked) and disabling it.

The page's script (accounts/static/accounts/webpush.js) sends what the browser's
``PushSubscription.toJSON()`` gives; programs may too, over the API.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from accounts.models import PushSubscription
from backgammon_site.core.errors import ApplicationError

URL_SAFE_BASE64 = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def device_enable(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """Have the browser subscribed at ``endpoint`` take the player's pushes. Enabling it again
    renews its keys; a browser last enabled by another player is theirs no more.

    Refuses (ApplicationError, nothing written) a push endpoint that is no https address of a
    push service, keys that are not a browser's, or one device more than a player may have.
    """
    endpoint_check(endpoint)
    public_key_check(p256dh)
    auth_secret_check(auth)
    with transaction.atomic():
        others = PushSubscription.objects.select_for_update().filter(user=user)
        if others.exclude(endpoint=endpoint).count() >= settings.WEBPUSH_DEVICES_PER_PLAYER:
            raise ApplicationError(
                f"You have notifications on {settings.WEBPUSH_DEVICES_PER_PLAYER} devices "
                "already: disable one of them first.",
                "too_many_devices",
            )
        device, _ = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return device


def device_disable(*, user: Any, endpoint: str) -> bool:
    """Stop pushing to the player's browser subscribed at ``endpoint``; whether it was theirs."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def endpoint_check(endpoint: str) -> None:
    """A push service's address: https, named (no address a push service never has)."""
    parts = urlsplit(endpoint)
    host = parts.hostname or ""
    if parts.scheme != "https" or not host or host == "localhost" or _is_ip(host):
        raise ApplicationError(
            "The endpoint must be the https address the browser's push service gave.",
            "invalid_endpoint",
        )


def public_key_check(p256dh: str) -> None:
    """The browser's public key: a point of P-256, uncompressed, in URL-safe base64."""
    raw = _decoded(p256dh)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw or b"\x00")
    except ValueError:
        valid = False
    else:
        valid = len(raw) == 65
    if not valid:
        raise ApplicationError(
            "keys.p256dh must be the browser's P-256 public key (65 bytes, URL-safe base64).",
            "invalid_key",
        )


def auth_secret_check(auth: str) -> None:
    """The browser's auth secret: 16 bytes in URL-safe base64."""
    if len(_decoded(auth)) != 16:
        raise ApplicationError(
            "keys.auth must be the browser's auth secret (16 bytes, URL-safe base64).",
            "invalid_key",
        )


def _decoded(text: str) -> bytes:
    """``text`` decoded from URL-safe base64, padded or not; b"" if it is not that."""
    if not URL_SAFE_BASE64.fullmatch(text):
        return b""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return b""


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
