"""Where the server's dice come from: the operating system's secure random source."""

import secrets


def roll_die() -> int:
    """One fair die, 1 to 6."""
    return secrets.randbelow(6) + 1
