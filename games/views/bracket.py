"""Where each pairing of a knock-out's bracket goes in its SVG: rounds as columns, each pairing
a box of two lines (a player each, the winner marked), centred between the two pairings that
feed it, with lines joining them. templates/games/bracket.svg.html draws what this places."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games import selectors
from games.models import BracketMatch, TournamentEntry

BOX_WIDTH = 190
LINE_HEIGHT = 22
BOX_HEIGHT = 2 * LINE_HEIGHT
COLUMN_GAP = 36
ROW_GAP = 14
HEADING = 28


@dataclass(frozen=True)
class Side:
    """One line of a pairing: a player (with seed and games won), a bye, or still to come."""

    name: str
    seed: int | None
    score: int | None
    won: bool
    known: bool


@dataclass(frozen=True)
class PlacedPairing:
    round: int
    slot: int
    x: int
    y: int
    sides: tuple[Side, Side]
    match_id: int | None
    status: str
    label: str
    #: The line to the next round's pairing: from (x, y) of this box's right middle.
    link: tuple[int, int, int, int, int, int] | None


@dataclass(frozen=True)
class BracketDrawing:
    width: int
    height: int
    rounds: list[dict[str, Any]]
    pairings: list[PlacedPairing]
    box_width: int = BOX_WIDTH
    box_height: int = BOX_HEIGHT
    line_height: int = LINE_HEIGHT


def round_name(number: int, count: int, *, winners: bool = False) -> str:
    """``Final``, ``Semi-finals``, ``Quarter-finals``, else ``Round N`` (in a double
    elimination's winners' bracket, ``Winners' final`` and ``Winners' semi-finals``)."""
    from_the_end = count - number
    if winners and from_the_end in (0, 1):
        return (_("Winners' final"), _("Winners' semi-finals"))[from_the_end]
    names = {0: _("Final"), 1: _("Semi-finals"), 2: _("Quarter-finals")}
    return names.get(from_the_end) or _("Round %(number)d") % {"number": number}


def bracket_drawing(
    rounds: list[list[BracketMatch]], *, winners: bool = False
) -> BracketDrawing | None:
    """The bracket placed for drawing (``winners``: a double elimination's winners' bracket);
    None before the draw."""
    if not rounds:
        return None
    first_round = len(rounds[0])
    pitch = BOX_HEIGHT + ROW_GAP
    height = HEADING + first_round * pitch
    width = len(rounds) * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP
    placed = []
    for index, pairings in enumerate(rounds):
        span = pitch * 2**index
        x = index * (BOX_WIDTH + COLUMN_GAP)
        for pairing in pairings:
            top = HEADING + pairing.slot * span + (span - BOX_HEIGHT) // 2
            link = None
            if index + 1 < len(rounds):
                next_span = span * 2
                next_top = HEADING + (pairing.slot // 2) * next_span + (next_span - BOX_HEIGHT) // 2
                middle = top + BOX_HEIGHT // 2
                elbow = x + BOX_WIDTH + COLUMN_GAP // 2
                target = next_top + (
                    LINE_HEIGHT // 2 if pairing.slot % 2 == 0 else LINE_HEIGHT * 3 // 2
                )
                link = (x + BOX_WIDTH, middle, elbow, target, x + BOX_WIDTH + COLUMN_GAP, target)
            name = round_name(index + 1, len(rounds), winners=winners)
            placed.append(_place(pairing, x, top, link, name))
    headings = [
        {
            "x": index * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH // 2,
            "name": round_name(n, len(rounds), winners=winners),
        }
        for index, n in enumerate(range(1, len(rounds) + 1))
    ]
    return BracketDrawing(width=width, height=height, rounds=headings, pairings=placed)


def pairings_listed(
    rounds: list[list[BracketMatch]], round_label: Callable[[int], str]
) -> list[dict[str, Any]]:
    """Each round's pairings in words, for the formats shown as lists (a Swiss's rounds, a
    losers' bracket, a grand final); a losers' bracket's pairing left with nobody is left
    out."""
    listed = []
    for number, pairings in enumerate(rounds, start=1):
        name = round_label(number)
        placed = [
            _place(pairing, 0, 0, None, name)
            for pairing in pairings
            if pairing.first_id or pairing.second_id or not pairing.bye
        ]
        if placed:
            listed.append({"name": name, "pairings": placed})
    return listed


def _place(
    pairing: BracketMatch,
    x: int,
    y: int,
    link: tuple[int, int, int, int, int, int] | None,
    round_label: str,
) -> PlacedPairing:
    score: list[int | None] = [None, None]
    if pairing.match is not None:
        state = selectors.match_state(pairing.match)
        # The higher seed sits first in the match; the box lists the pairing's first first.
        seats = [
            pairing.match.player_index(entry.player) if entry else None
            for entry in (pairing.first, pairing.second)
        ]
        score = [state.score[seat] if seat is not None else None for seat in seats]
    sides = (
        _side(pairing.first, score[0], pairing, bye=False),
        _side(pairing.second, score[1], pairing, bye=pairing.bye),
    )
    if pairing.bye:
        status = "bye"
    elif pairing.winner_id is not None:
        status = "decided"
    elif pairing.match is not None:
        status = "playing"
    else:
        status = "waiting"
    names = _("%(first)s v %(second)s") % {"first": sides[0].name, "second": sides[1].name}
    bye_for = pairing.winner.player.get_username() if pairing.winner else sides[0].name
    winner = pairing.winner.player.get_username() if pairing.winner else ""
    outcome = {
        "bye": _("%(player)s has a bye") % {"player": bye_for},
        "decided": _("won by %(player)s") % {"player": winner},
        "playing": _("being played"),
        "waiting": _("waiting for its players"),
    }[status]
    return PlacedPairing(
        round=pairing.round,
        slot=pairing.slot,
        x=x,
        y=y,
        sides=sides,
        match_id=pairing.match_id,
        status=status,
        label=_("%(round)s, match %(number)d: %(outcome)s")
        % {
            "round": round_label,
            "number": pairing.slot + 1,
            "outcome": outcome if status == "bye" else f"{names}, {outcome}",
        },
        link=link,
    )


def _side(
    entry: TournamentEntry | None, score: int | None, pairing: BracketMatch, *, bye: bool
) -> Side:
    if entry is None:
        return Side(
            name=_("bye") if bye else _("to be decided"),
            seed=None,
            score=None,
            won=False,
            known=False,
        )
    return Side(
        name=entry.player.get_username(),
        seed=entry.seed,
        score=score,
        won=pairing.winner_id == entry.pk,
        known=True,
    )
