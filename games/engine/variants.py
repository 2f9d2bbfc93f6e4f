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


def gettext_noop(text: str) -> str:
    """``text`` as it is: marks a name for the site's translation catalogues (makemessages
    reads this function's name); the engine itself speaks English."""
    return text


GNUBG_STANDARD = "Standard"
"""gnubg's name of plain backgammon, which its .mat files leave unwritten."""


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
    courier_must_reach_home: bool = False
    """Jacquet: the first checker to leave the start (the courier) reaches the mover's home
    (1..6) before a second checker leaves the start."""
    prime_needs_last_two_points: bool = False
    """Jacquet: six points in a row along the opponent's path only while the mover holds its
    1 and 2 points (the last two of its path)."""
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
    """The formats of the matches its games are played in: Tavli's for Tavli's games."""
    higher_die_rolls_again: bool = False
    """The opening roll only says who begins, who then rolls both dice (Tavli, Tavla); otherwise
    the higher die plays both numbers of the opening roll (docs/variants.md §9)."""
    winner_leads: bool = False
    """Each game after the first is begun by the previous game's winner, who rolls (Tavli);
    otherwise every game opens with the opening roll."""
    gammon_word: str = "gammon"
    """What a game won by two is called in the variant's own language: a gammon, a mars."""
    also_called: tuple[str, ...] = ()
    """Other names players know the same rules by (backgammon: short nardi, in Russia)."""
    enters_from_off_board: bool = False
    """Acey-deucey: the checkers ``start`` does not place wait off the board and enter as a
    checker on the bar does (a die d onto the mover's point 25 - d); they need not enter before
    other checkers move, a hit checker on the bar must."""
    one_two_names_a_double: bool = False
    """Acey-deucey's 1-2: once the 1 and the 2 are played in full, the mover names a double and
    plays it four times, then rolls again; a 1-2 or a named double not played in full loses the
    rest of the turn (docs/variants.md §4.2)."""
    doubles_climb_from_turn: int = 0
    """Gul Bara: from a player's turn of this number on (1 is their first), a double is played
    and then each higher double up to 6-6, each in full before the next (``climbing_doubles``,
    ``double_after``); 0: a double is four moves of its number, and no more."""
    gnubg_variation: str | None = None
    """The variation's name in GNU Backgammon (its .mat files' ``Variation`` tag): gnubg plays
    it, reads and writes its .mat files, and its Position ID and Match ID describe it; None:
    gnubg does not play it."""

    @property
    def hits(self) -> bool:
        return self.landing is Landing.HIT

    @property
    def pins(self) -> bool:
        return self.landing is Landing.PIN

    @property
    def one_checker_holds_a_point(self) -> bool:
        return self.landing is Landing.FORBIDDEN

    @property
    def holds_position(self) -> bool:
        """Its board is a backgammon ``Position``: it hits and every checker starts on the board
        (a Position cannot hold checkers waiting to enter)."""
        return self.hits and not self.enters_from_off_board

    @property
    def gnubg_plays(self) -> bool:
        """GNU Backgammon plays it: its .mat form, Position ID and Match ID describe it."""
        return self.gnubg_variation is not None

    def __str__(self) -> str:
        return self.name


_TAVLI_MATCHES = (MatchFormat.TAVLI_BEST_OF_THREE, MatchFormat.TAVLI_POINTS)

BACKGAMMON = Variant(
    name="backgammon",
    title=gettext_noop("Backgammon"),
    checkers=15,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
    also_called=(gettext_noop("Short nardi"),),
    gnubg_variation=GNUBG_STANDARD,
)
NACKGAMMON = Variant(
    name="nackgammon",
    title=gettext_noop("Nackgammon"),
    checkers=15,
    start=((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
    gnubg_variation="NackGammon",
)
HYPERGAMMON = Variant(
    name="hypergammon",
    title=gettext_noop("Hypergammon"),
    checkers=3,
    start=((24, 1), (23, 1), (22, 1)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    cube_by_default=True,
    crawford=True,
    gnubg_variation="HyperGammon (3)",
)
PORTES = Variant(
    name="portes",
    title=gettext_noop("Portes"),
    checkers=15,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    match_formats=_TAVLI_MATCHES,
    higher_die_rolls_again=True,
    winner_leads=True,
)
PLAKOTO = Variant(
    name="plakoto",
    title=gettext_noop("Plakoto"),
    checkers=15,
    start=((24, 15),),
    track=Track.OPPOSITE,
    landing=Landing.PIN,
    mother_pin_wins=2,
    match_formats=_TAVLI_MATCHES,
    higher_die_rolls_again=True,
    winner_leads=True,
)
FEVGA = Variant(
    name="fevga",
    title=gettext_noop("Fevga"),
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    forbid_full_start_quarter=True,
    forbid_prime_with_no_one_ahead=True,
    runner_must_pass_opponent_start=True,
    match_formats=_TAVLI_MATCHES,
    higher_die_rolls_again=True,
    winner_leads=True,
)
LONG_NARDI = Variant(
    name="long-nardi",
    title=gettext_noop("Long nardi"),
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    forbid_prime_with_no_one_ahead=True,
    one_from_head=True,
    first_turn_two_from_head=frozenset({6, 4, 3}),
    gammon_word="mars",
)

TAVLA = Variant(
    name="tavla",
    title=gettext_noop("Tavla"),
    checkers=15,
    start=((24, 2), (13, 5), (8, 3), (6, 5)),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    gammon_word="mars",
    higher_die_rolls_again=True,
)

ACEY_DEUCEY = Variant(
    name="acey-deucey",
    title=gettext_noop("Acey-deucey"),
    checkers=15,
    start=(),
    track=Track.OPPOSITE,
    landing=Landing.HIT,
    backgammon=3,
    enters_from_off_board=True,
    one_two_names_a_double=True,
    higher_die_rolls_again=True,
)

JACQUET = Variant(
    name="jacquet",
    title=gettext_noop("Jacquet"),
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    courier_must_reach_home=True,
    prime_needs_last_two_points=True,
    higher_die_rolls_again=True,
)

GUL_BARA = Variant(
    name="gul-bara",
    title=gettext_noop("Gul Bara"),
    checkers=15,
    start=((24, 15),),
    track=Track.SAME_WAY,
    landing=Landing.FORBIDDEN,
    doubles_climb_from_turn=4,
    higher_die_rolls_again=True,
)

VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        BACKGAMMON,
        NACKGAMMON,
        HYPERGAMMON,
        PORTES,
        PLAKOTO,
        FEVGA,
        LONG_NARDI,
        TAVLA,
        ACEY_DEUCEY,
        GUL_BARA,
        JACQUET,
    )
}
"""Every variant the site offers, by name."""

VARIANTS_IN_PROGRESS: tuple[Variant, ...] = ()
"""Rules the engine plays that the site does not offer yet: ``variant_named`` (and so the
command line) knows them, ``VARIANTS`` and ``MATCH_VARIANTS`` do not. A variant leaves this
tuple for ``VARIANTS`` when the site can play it (docs/variants.md §12)."""

_PLAYABLE: dict[str, Variant] = {**VARIANTS, **{v.name: v for v in VARIANTS_IN_PROGRESS}}


def variant_named(name: str) -> Variant:
    """The variant called ``name``, or UnknownVariantError listing the names there are.

    It knows the variants in progress too.

    >>> variant_named("acey-deucey").enters_from_off_board
    True
    """
    try:
        return _PLAYABLE[name]
    except KeyError:
        known = ", ".join(_PLAYABLE)
        raise UnknownVariantError(f"there is no variant {name!r}; choose one of {known}") from None


@dataclass(frozen=True, slots=True)
class MatchVariant:
    """What a match is played in: one variant's games throughout, or several variants' in
    rotation (Tavli: portes, plakoto, fevga). Every variant is a match variant of its own.

    >>> MATCH_VARIANTS["tavli"].game_after(4).name
    'plakoto'
    >>> MATCH_VARIANTS["long-nardi"].game_after(5).name
    'long-nardi'
    """

    name: str
    title: str
    games: tuple[Variant, ...]
    match_formats: tuple[MatchFormat, ...] = (MatchFormat.POINTS,)
    also_called: tuple[str, ...] = ()

    @classmethod
    def of(cls, variant: Variant) -> MatchVariant:
        """A match of ``variant``'s games alone, to N points."""
        return cls(variant.name, variant.title, (variant,), also_called=variant.also_called)

    def rotates(self) -> bool:
        """Its games change variant in turn (Tavli)."""
        return len(self.games) > 1

    def game_after(self, decided_games: int) -> Variant:
        """The rules of the next game after ``decided_games`` games that were won (a drawn
        plakoto game is played again, so only won games count)."""
        return self.games[decided_games % len(self.games)]

    @property
    def cube_by_default(self) -> bool:
        """A match of it uses the cube unless the players say otherwise."""
        return all(game.cube_by_default for game in self.games)

    @property
    def crawford(self) -> bool:
        """Its matches with the cube have a Crawford game."""
        return all(game.crawford for game in self.games)

    @property
    def higher_die_rolls_again(self) -> bool:
        return any(game.higher_die_rolls_again for game in self.games)

    @property
    def winner_leads(self) -> bool:
        return any(game.winner_leads for game in self.games)

    @property
    def gnubg_variation(self) -> str | None:
        """gnubg's name of it (see ``Variant.gnubg_variation``); None for a rotation."""
        return None if self.rotates() else self.games[0].gnubg_variation

    def __str__(self) -> str:
        return self.name


TAVLI = "tavli"
"""The name of a Tavli match: portes, plakoto and fevga in rotation."""

MATCH_VARIANTS: dict[str, MatchVariant] = {
    **{name: MatchVariant.of(variant) for name, variant in VARIANTS.items()},
    TAVLI: MatchVariant(
        TAVLI,
        gettext_noop("Tavli"),
        (PORTES, PLAKOTO, FEVGA),
        match_formats=(MatchFormat.TAVLI_POINTS, MatchFormat.TAVLI_BEST_OF_THREE),
    ),
}
"""Every match variant by name: each variant, then Tavli. The site offers these."""

_PLAYABLE_MATCHES: dict[str, MatchVariant] = {
    **MATCH_VARIANTS,
    **{v.name: MatchVariant.of(v) for v in VARIANTS_IN_PROGRESS},
}

DEFAULT_MATCH_VARIANT = BACKGAMMON.name
"""What a match, a challenge or a rating that names no variant is played in."""


def match_variant_named(name: str) -> MatchVariant:
    """The match variant called ``name``, or UnknownVariantError listing the names there are.

    Like ``variant_named`` it knows the variants in progress, so that the engine plays their
    matches before the site offers them."""
    try:
        return _PLAYABLE_MATCHES[name]
    except KeyError:
        known = ", ".join(_PLAYABLE_MATCHES)
        raise UnknownVariantError(f"there is no variant {name!r}; choose one of {known}") from None


def opponent_point(variant: Variant, point: int) -> int:
    """The opponent's own number for the mover's ``point`` (1..24), and back: it is symmetric.

    >>> opponent_point(BACKGAMMON, 1), opponent_point(FEVGA, 12), opponent_point(FEVGA, 13)
    (24, 24, 1)
    """
    if variant.track is Track.OPPOSITE:
        return 25 - point
    return point + 12 if point <= 12 else point - 12


def game_variant(match_variant: str, decided_games: int) -> Variant:
    """The rules of a match's next game, after ``decided_games`` games that were won.

    >>> [game_variant("tavli", n).name for n in range(4)]
    ['portes', 'plakoto', 'fevga', 'portes']
    """
    return match_variant_named(match_variant).game_after(decided_games)


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

    variant: str = DEFAULT_MATCH_VARIANT
    match_format: MatchFormat = MatchFormat.POINTS
    cube: bool = True

    def __post_init__(self) -> None:
        formats = self.match_variant.match_formats
        if not isinstance(self.match_format, MatchFormat) or self.match_format not in formats:
            names = " or ".join(sorted(f"{f.value!r}" for f in formats))
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
            match_format = match_variant_named(variant).match_formats[0]
        elif isinstance(match_format, str):
            try:
                match_format = MatchFormat(match_format)
            except ValueError:
                known = ", ".join(f.value for f in MatchFormat)
                raise UnknownVariantError(
                    f"there is no match format {match_format!r}; the formats are {known}"
                ) from None
        if cube is None:
            cube = match_variant_named(variant).cube_by_default
        return cls(variant, match_format, cube)

    @classmethod
    def from_payload(cls, payload: Mapping[str, object]) -> MatchRules:
        """The rules a match's start record states; a record without them is backgammon's.

        Other fields of the record are left alone.
        """
        variant = payload.get("variant", DEFAULT_MATCH_VARIANT)
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
    def match_variant(self) -> MatchVariant:
        """What the match is played in: a variant's games, or Tavli's rotation."""
        return match_variant_named(self.variant)

    @property
    def title(self) -> str:
        """The match's name for people: ``Tavli``, ``Long nardi``, ..."""
        return self.match_variant.title

    @property
    def crawford(self) -> bool:
        """The Crawford rule applies: the backgammon family's matches, played with the cube."""
        return self.cube and self.match_variant.crawford

    @property
    def higher_die_rolls_again(self) -> bool:
        """The opening roll says who begins, who then rolls (``Variant.higher_die_rolls_again``)."""
        return self.match_variant.higher_die_rolls_again

    @property
    def winner_leads(self) -> bool:
        """Each later game is begun by the previous game's winner (``Variant.winner_leads``)."""
        return self.match_variant.winner_leads

    def counts_games(self) -> bool:
        """The match is won by games (best of three), not points."""
        return self.match_format is MatchFormat.TAVLI_BEST_OF_THREE
