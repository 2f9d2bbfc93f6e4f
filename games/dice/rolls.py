"""Dice anyone can verify: every roll of a match follows from seeds fixed before the first.

At the start the server draws a secret 256-bit seed and publishes its SHA-256 commitment;
each player brings a seed of their own (or is given one). Roll number ``index`` (0 for the
first roll of the match, opening rolls included) is read from HMAC-SHA256 keyed with the
server seed over the message ``json.dumps([first_player_seed, second_player_seed, index,
block])``: its bytes, in order, each below 252 give the die ``byte % 6 + 1`` (252 = 6 x 42, so
every face is exactly equally likely; bytes of 252 and above are skipped, and ``block`` counts
up from 0 should 32 bytes ever not be enough). The first two dice are the roll. When the match
ends the server seed is revealed, and anyone can recompute every roll (docs/dice.md).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

SEED_BYTES = 32
ACCEPTED_BYTE_LIMIT = 252  # the largest multiple of 6 that fits in a byte


def new_server_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def new_player_seed() -> str:
    """A seed for a player who gave none: 128 random bits, written in hex."""
    return secrets.token_hex(16)


def commitment(server_seed: bytes) -> str:
    """SHA-256 of the server seed, in hex: published before the first roll."""
    return hashlib.sha256(server_seed).hexdigest()


def roll(server_seed: bytes, player_seeds: tuple[str, str], index: int) -> tuple[int, int]:
    """Roll number ``index`` of the match: two dice, 1 to 6.

    >>> roll(bytes(32), ("alice", "bob"), 0)
    (3, 2)
    """
    dice: list[int] = []
    block = 0
    while len(dice) < 2:
        message = json.dumps([player_seeds[0], player_seeds[1], index, block]).encode()
        for byte in hmac.new(server_seed, message, hashlib.sha256).digest():
            if byte < ACCEPTED_BYTE_LIMIT:
                dice.append(byte % 6 + 1)
                if len(dice) == 2:
                    break
        block += 1
    return dice[0], dice[1]


def clean_player_seed(seed: object) -> str | None:
    """A player's own seed as given (trimmed), None for none; refuses what is not a seed."""
    if seed is None:
        return None
    if not isinstance(seed, str):
        raise ValueError("A dice seed is a piece of text.")
    seed = seed.strip()
    if len(seed) > 200:
        raise ValueError("A dice seed has at most 200 characters.")
    return seed or None
