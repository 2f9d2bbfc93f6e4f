"""A push service on 127.0.0.1 for the tests, in a thread: it takes each push a browser's
push service would (a POST to the subscription's endpoint), keeps it, and answers with the
status the test sets. Browser subscriptions made here hold their private keys, so a test can
decrypt what was pushed to them, as the browser would."""

from __future__ import annotations

import base64
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from accounts.models import PushSubscription


def base64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unbase64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserKeys:
    """What a browser makes when it subscribes: a P-256 key pair and a 16-byte auth secret."""

    private_key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return base64url(
            self.private_key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    @property
    def auth(self) -> str:
        return base64url(self.auth_secret)

    def decrypt(self, body: bytes) -> bytes:
        return http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth_secret, version="aes128gcm"
        )


@dataclass
class Push:
    """One push as received; header names in lower case."""

    path: str
    headers: dict[str, str]
    body: bytes


class PushService:
    """Pushes received, by endpoint path; ``answer`` is the status every push gets."""

    def __init__(self) -> None:
        self.pushes: list[Push] = []
        self.answer = 201
        self.browsers: dict[int, BrowserKeys] = {}
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.pushes.append(Push(self.path, headers, body))
                self.send_response(service.answer)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscribe(self, user: Any, name: str = "phone") -> PushSubscription:
        """A device of ``user``'s subscribed here, as the page's script would have sent it."""
        keys = BrowserKeys()
        device = PushSubscription.objects.create(
            user=user,
            endpoint=f"{self.origin}/push/{user.pk}/{name}",
            p256dh=keys.p256dh,
            auth=keys.auth,
        )
        self.browsers[device.pk] = keys
        return device

    def pushes_to(self, device: PushSubscription) -> list[Push]:
        path = device.endpoint.removeprefix(self.origin)
        return [push for push in self.pushes if push.path == path]

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def running_push_service() -> Iterator[PushService]:
    service = PushService()
    service.start()
    try:
        yield service
    finally:
        service.stop()
