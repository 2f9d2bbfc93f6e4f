"""The site's VAPID keys: the key pair that signs every web push, so that push services know
the pushes come from the server the browsers subscribed to.

In production they come from the environment (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, made by
`manage.py vapid_keys`). On the embedded default (DEBUG) without them, a pair is made once into
the var dir (settings.VAPID_KEYS_FILE) and kept there. With neither, web push is off.
"""

from __future__ import annotations

import base64
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings


@dataclass(frozen=True)
class VapidKeys:
    """A key pair, each in URL-safe base64 without padding: the public key as the browsers'
    ``applicationServerKey`` takes it (an uncompressed P-256 point), the private key as the
    32 bytes of its secret number."""

    public_key: str
    private_key: str


def key_pair_make() -> VapidKeys:
    """A new P-256 key pair."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    secret = private.private_numbers().private_value.to_bytes(32, "big")
    return VapidKeys(public_key=_base64url(public), private_key=_base64url(secret))


def site_vapid_keys() -> VapidKeys | None:
    """The keys pushes are signed with, or None when web push is off."""
    if settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY:
        return VapidKeys(settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY)
    if settings.VAPID_KEYS_FILE:
        return _kept_key_pair(Path(settings.VAPID_KEYS_FILE))
    return None


def _kept_key_pair(path: Path) -> VapidKeys:
    """The pair kept in ``path``, made there the first time. Several processes may ask at once
    (web, worker): the pair is written aside and linked into place, which only the first of
    them can do, so all of them use its pair and none reads a half-written file."""
    if not path.exists():
        keys = key_pair_make()
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, aside = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
        try:
            with os.fdopen(descriptor, "w") as kept:
                json.dump({"public_key": keys.public_key, "private_key": keys.private_key}, kept)
            os.link(aside, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(aside)
    kept = json.loads(path.read_text())
    return VapidKeys(public_key=kept["public_key"], private_key=kept["private_key"])


def _base64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
