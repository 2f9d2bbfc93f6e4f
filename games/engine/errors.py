"""The engine's errors: each says, in words a player understands, what is wrong."""


class EngineError(ValueError):
    """Base of every error the engine raises; the message is meant for people."""


class InvalidPositionError(EngineError):
    """A board that cannot occur: too many checkers, both colours on a point, a bad Position ID."""


class InvalidMatchIdError(EngineError):
    """Text that is not a GNU Backgammon Match ID, or match fields no Match ID can hold."""


class InvalidXgidError(EngineError):
    """Text that is not an XGID (eXtreme Gammon), or fields no XGID can hold."""


class InvalidDiceError(EngineError):
    """A die that is not 1 to 6."""


class InvalidNotationError(EngineError):
    """Text that cannot be read as a play; the message names the part that is wrong."""


class IllegalPlayError(EngineError):
    """A play that the rules do not allow with this roll in this position."""


class AmbiguousPlayError(IllegalPlayError):
    """Notation that fits more than one legal play."""


class IllegalActionError(EngineError):
    """A match action that the rules do not allow now (out of turn, wrong phase, ...)."""


class InvalidSnapshotError(EngineError):
    """Stored match-state data that cannot be read back; the message names the bad field."""
