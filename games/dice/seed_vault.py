"""Server dice seeds at rest: encrypted with DICE_SEED_KEY, readable only by the services."""

from __future__ import annotations

from functools import cache

from cryptography.fernet import Fernet
from django.conf import settings

from games.dice.rolls import commitment


@cache
def _fernet(key: str) -> Fernet:
    return Fernet(key.encode())


def encrypt_seed(seed: bytes) -> bytes:
    return _fernet(settings.DICE_SEED_KEY).encrypt(seed)


def decrypt_seed(ciphertext: bytes | memoryview) -> bytes:
    return _fernet(settings.DICE_SEED_KEY).decrypt(bytes(ciphertext))


def seed_commitment(ciphertext: bytes | memoryview) -> str:
    """The public commitment to the stored seed (its SHA-256, as the match's first event
    gives it), never the seed."""
    return commitment(decrypt_seed(ciphertext))
