"""A roll of two dice. The engine never rolls: the service rolls, records and passes them in."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidDiceError


def check_die(value: object) -> int:
    """Return ``value`` as a die face, or raise InvalidDiceError."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidDiceError(f"a die shows 1 to 6, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice as rolled.

    >>> Dice(6, 5).moves()
    (6, 5)
    >>> Dice(3, 3).moves()
    (3, 3, 3, 3)
    >>> str(Dice(1, 4))
    '4-1'
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        check_die(self.first)
        check_die(self.second)

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read a roll written ``6-5``, ``65``, ``6 5`` or ``6,5``.

        >>> Dice.parse("6-5")
        Dice(first=6, second=5)
        """
        digits = [c for c in text if not c.isspace() and c not in "-,/"]
        if len(digits) != 2 or not all(d.isdigit() for d in digits):
            raise InvalidDiceError(f"cannot read {text!r} as a roll of two dice, e.g. 6-5")
        return cls(int(digits[0]), int(digits[1]))

    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)

    def moves(self) -> tuple[int, ...]:
        """The dice to play: four of a kind for a double, otherwise both dice."""
        if self.first == self.second:
            return (self.first,) * 4
        return (self.first, self.second)

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"
