"""Server dice seeds at rest: encrypted with DICE_SEED_KEY, readable only by the services."""

from __future__ import annotations

from functools import cache

from cryptography.fernet import Fernet
from django.conf import settings


@cache
def _fernet(key: str) -> Fernet:
    return Fernet(key.encode())


def encrypt_seed(seed: bytes) -> bytes:
    return _fernet(settings.DICE_SEED_KEY).encrypt(seed)


def decrypt_seed(ciphertext: bytes | memoryview) -> bytes:
    return _fernet(settings.DICE_SEED_KEY).decrypt(bytes(ciphertext))
