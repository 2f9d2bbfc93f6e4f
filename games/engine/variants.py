"""The backgammon family's rule sets, each a value (after python-chess's and scalachess's variants).

A Variant says everything the generic move generator (``variant_moves``), the board
(``board``) and the scoring ask: how many checkers, where they start, which way each side runs,
what landing on a lone opposing checker does, which blocks are forbidden, when bearing off is
allowed, what a game is worth and how a match is structured. docs/variants.md is the rule book.

>>> VARIANTS["plakoto"].landing
<Landing.PIN: 'pin'>
>>> variant_named("long-nardi").first_turn_two_from_head
frozenset({3, 4, 6})
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import EngineError


class Landing(enum.Enum):
    """What a checker landing on a lone opposing checker does."""

    HIT = "hit"
    PIN = "pin"
    FORBIDDEN = "forbidden"


class Track(enum.Enum):
    """How the two sides run: against each other, or the same way from diagonal corners."""

    OPPOSITE = "opposite"
    SAME_WAY = "same-way"


class MatchFormat(enum.Enum):
    """How games add up to a match."""

    POINTS = "points"
    TAVLI_BEST_OF_THREE = "tavli-best-of-three"
    TAVLI_POINTS = "tavli-points"


class UnknownVariantError(EngineError):
    """A variant name the engine does not know."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One rule set of the family; equal names mean equal rules."""

    name: str
    title: str
    checkers: int
    start: tuple[tuple[int, int], ...]
    """The mover's checkers at the start, ``(point, count)`` pairs in the mover's own numbering."""
    track: Track
    landing: Landing
    forbid_full_start_quarter: bool = False
    """Fevga: never hold all six points 19..24 at once."""
    forbid_prime_with_no_one_ahead: bool = False
    """Fevga, long nardi: six points in a row along the opponent's path need an opponent ahead."""
    runner_must_pass_opponent_start: bool = False
    """Fevga: one checker passes the opponent's start (to 11 or lower) before a second leaves."""
    one_from_head: bool = False
    """Long nardi: one checker leaves the head (24) a turn."""
    first_turn_two_from_head: frozenset[int] = frozenset()
    """Long nardi: the doubles on a first turn that may take two checkers from the head."""
    gammon: int = 2
    backgammon: int = 2
    """What a backgammon is worth; 2 where the variant has no triple game."""
    mother_pin_wins: int = 0
    """Plakoto: points for pinning the opponent's last checker on its start; 0: no such rule."""
    cube_by_default: bool = False
    crawford: bool = False
    match_formats: tuple[MatchFormat, ...] = (MatchFormat.POINTS,)

    @property
    def hits(self) -> bool:
        return self.landing is Landing.HIT

    @property
    def pins(self) -> bool:
        return self.landing is Landing.PIN

    @property
    def one_checker_holds_a_point(self) -> bool:
        return self.landing is Landing.FORBIDDEN

    def __str__(self) -> str:
        return self.name


_TAVLI_MATCHES = (MatchFormat.TAVLI_BEST_OF_THREE, MatchFormat.TAVLI_POINTS)

BACKGAMMON = Variant(
    name="backgammon",
    title="Backgammon",
    checkers=15,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
)
NACKGAMMON = Variant(
    name="nackgammon",
    title="Nackgammon",
    checkers=15,
    start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
)
HYPERGAMMON = Variant(
    name="hypergammon",
    title="Hypergammon",
    checkers=3,
    start=((24, 1), (23, 1), (22, 1)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
)
PORTES = Variant(
    name="portes",
    title="Portes",
    checkers=15,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    match_formats=_TAVLI_MATCHES,
)
PLAKOTO = Variant(
    name="plakoto",
    title="Plakoto",
    checkers=15,
    start=((24, 15),),
    track=Track.OPPOSITE,
    landing=Landing.PIN,
    mother_pin_wins=2,
    match_formats=_TAVLI_MATCHES,
)
FEVGA = Variant(
    name="fevga",
    title="Fevga",
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    forbid_full_start_quarter=True,
    forbid_prime_with_no_one_ahead=True,
    runner_must_pass_opponent_start=True,
    match_formats=_TAVLI_MATCHES,
)
LONG_NARDI = Variant(
    name="long-nardi",
    title="Long nardi",
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    forbid_prime_with_no_one_ahead=True,
    one_from_head=True,
    first_turn_two_from_head=frozenset({6, 4, 3}),
)

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (BACKGAMMON, NACKGAMMON, HYPERGAMMON, PORTES, PLAKOTO, FEVGA, LONG_NARDI)
}
TAVLI_ROTATION: tuple[Variant, ...] = (PORTES, PLAKOTO, FEVGA)
"""The games of a Tavli match, in the order they are played and rotate."""


def variant_named(name: str) -> Variant:
    """The variant called ``name``, or UnknownVariantError listing the names there are."""
    try:
        return VARIANTS[name]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"there is no variant {name!r}; choose one of {known}") from None


def opponent_point(variant: Variant, point: int) -> int:
    """The opponent's own number for the mover's ``point`` (1..24), and back: it is symmetric.

    >>> opponent_point(BACKGAMMON, 1), opponent_point(FEVGA, 12), opponent_point(FEVGA, 13)
    (24, 24, 1)
    """
    if variant.track is Track.OPPOSITE:
        return 25 - point
    return point + 12 if point <= 12 else point - 12


TAVLI = "tavli"
"""The name of a Tavli match: portes, plakoto and fevga in rotation."""


def game_variant(match_variant: str, decided_games: int) -> Variant:
    """The rules of a match's next game, after ``decided_games`` games that were won.

    A Tavli match rotates portes, plakoto, fevga (a drawn plakoto game is played again, so
    only won games count); any other match plays its own variant throughout.

    >>> [game_variant("tavli", n).name for n in range(4)]
    ['portes', 'plakoto', 'fevga', 'portes']
    >>> game_variant("long-nardi", 5).name
    'long-nardi'
    """
    if match_variant == TAVLI:
        return TAVLI_ROTATION[decided_games % len(TAVLI_ROTATION)]
    return variant_named(match_variant)


def match_winner(
    match_format: MatchFormat, length: int, scores: tuple[int, int], games_won: tuple[int, int]
) -> int | None:
    """Player 0 or 1 once the match is won, else None.

    Points formats end when a player reaches ``length`` points; the formal Tavli best of three
    when a player has won two games, whatever they scored.

    >>> match_winner(MatchFormat.TAVLI_BEST_OF_THREE, 3, (4, 1), (1, 1)) is None
    True
    >>> match_winner(MatchFormat.TAVLI_POINTS, 5, (5, 3), (3, 2))
    0
    """
    if match_format is MatchFormat.TAVLI_BEST_OF_THREE:
        reached = [won >= 2 for won in games_won]
    else:
        reached = [score >= length for score in scores]
    if reached[0] == reached[1]:
        return None
    return 0 if reached[0] else 1


_TAVLI_GAMES = frozenset(variant.name for variant in TAVLI_ROTATION)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What a match is played by: its variant (a variant's name or ``tavli``), its format and
    whether the doubling cube is used. ``MatchRules()`` is a backgammon match to N points with
    the cube, which is what a match that states nothing is.

    Build one with ``MatchRules.of``, which fills in the variant's defaults, or read it from a
    match's start record with ``from_payload``; ``payload()`` writes it there.

    >>> MatchRules.of("tavli")
    MatchRules(variant='tavli', match_format=<MatchFormat.TAVLI_POINTS: 'tavli-points'>, cube=False)
    >>> MatchRules.of("nackgammon").payload()
    {'variant': 'nackgammon', 'match_format': 'points', 'cube': True}
    >>> MatchRules.from_payload({"match_length": 5}) == MatchRules()
    True
    """

    variant: str = BACKGAMMON.name
    match_format: MatchFormat = MatchFormat.POINTS
    cube: bool = True

    def __post_init__(self) -> None:
        if self.variant != TAVLI:
            variant_named(self.variant)
        formats = _TAVLI_MATCHES if self.variant == TAVLI else (MatchFormat.POINTS,)
        if not isinstance(self.match_format, MatchFormat) or self.match_format not in formats:
            names = " or ".join(f"{f.value!r}" for f in formats)
            raise UnknownVariantError(
                f"a {self.title} match is played as {names}, not {self.match_format!r}"
            )
        if not isinstance(self.cube, bool):
            raise UnknownVariantError(f"the cube is used or not (true or false), not {self.cube!r}")
        if self.cube and self.match_format is MatchFormat.TAVLI_BEST_OF_THREE:
            raise UnknownVariantError("a best-of-three Tavli match counts games: it has no cube")

    @classmethod
    def of(
        cls, variant: str, match_format: MatchFormat | str | None = None, cube: bool | None = None
    ) -> MatchRules:
        """The rules of a ``variant`` match, with the variant's format and cube unless given."""
        if match_format is None:
            match_format = MatchFormat.TAVLI_POINTS if variant == TAVLI else MatchFormat.POINTS
        elif isinstance(match_format, str):
            try:
                match_format = MatchFormat(match_format)
            except ValueError:
                known = ", ".join(f.value for f in MatchFormat)
                raise UnknownVariantError(
                    f"there is no match format {match_format!r}; the formats are {known}"
                ) from None
        if cube is None:
            cube = variant != TAVLI and variant_named(variant).cube_by_default
        return cls(variant, match_format, cube)

    @classmethod
    def from_payload(cls, payload: Mapping[str, object]) -> MatchRules:
        """The rules a match's start record states; a record without them is backgammon's.

        Other fields of the record are left alone.
        """
        variant = payload.get("variant", BACKGAMMON.name)
        match_format = payload.get("match_format")
        cube = payload.get("cube")
        if not isinstance(variant, str):
            raise UnknownVariantError(f"a variant is named by text, not {variant!r}")
        if match_format is not None and not isinstance(match_format, str):
            raise UnknownVariantError(f"a match format is named by text, not {match_format!r}")
        if cube is not None and not isinstance(cube, bool):
            raise UnknownVariantError(f"the cube is used or not (true or false), not {cube!r}")
        return cls.of(variant, match_format, cube)

    def payload(self) -> dict[str, object]:
        """The fields a match's start record carries for these rules (none for backgammon's
        defaults, so that start records from before variants read alike)."""
        if self == MatchRules():
            return {}
        return {"variant": self.variant, "match_format": self.match_format.value, "cube": self.cube}

    @property
    def title(self) -> str:
        """The match's name for people: ``Tavli``, ``Long nardi``, ..."""
        return "Tavli" if self.variant == TAVLI else variant_named(self.variant).title

    @property
    def crawford(self) -> bool:
        """The Crawford rule applies: the backgammon family's matches, played with the cube."""
        return self.cube and self.variant != TAVLI and variant_named(self.variant).crawford

    @property
    def winner_leads(self) -> bool:
        """Tavli's openings: the higher die rolls again to lead, and each later game is led by
        the previous game's winner (docs/variants.md §9); elsewhere every game opens with the
        opening roll, whose higher die plays both numbers."""
        return self.variant == TAVLI or self.variant in _TAVLI_GAMES

    def counts_games(self) -> bool:
        """The match is won by games (best of three), not points."""
        return self.match_format is MatchFormat.TAVLI_BEST_OF_THREE
