"""The last play as the board shows it: which checkers it moved, from where to where in the
viewer's numbering, and the play in words (games/views/board.py draws the marks)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine import BAR, OFF, LastPlay, format_play
from games.engine.play import IN
from games.engine.variants import BACKGAMMON, Variant, opponent_point


@dataclass(frozen=True)
class Journey:
    """One checker moved by a play, in the viewer's numbering: points 1 to 24, the bars 25 (the
    viewer's) and -25 (the opponent's), the trays 0 (the viewer's) and -1 (the opponent's), the
    checkers waiting to enter (acey-deucey) 26 (the viewer's) and -26 (the opponent's)."""

    source: int
    destination: int
    hit: bool = False  # the checker hit, sent from its point to its bar


def journeys(last_play: LastPlay, side: int, variant: Variant = BACKGAMMON) -> list[Journey]:
    """Each checker that ``last_play`` (a play of ``variant``) moved, seen by ``side``: a
    checker moved on by several dice makes one journey, and each checker hit makes one from its
    point to its bar (a pinned checker stays where it is)."""
    ours = last_play.player == side

    def place(number: int) -> int:
        if ours:
            return number
        return {BAR: -BAR, OFF: -1, IN: -IN}.get(number) or opponent_point(variant, number)

    moved: list[list[int]] = []
    hits: list[Journey] = []
    for move in last_play.play.moves:
        source, destination = place(move.source), place(move.destination)
        carried_on = next((ends for ends in reversed(moved) if ends[1] == source), None)
        if carried_on is None:
            moved.append([source, destination])
        else:
            carried_on[1] = destination
        if move.hit and variant.hits:
            hits.append(Journey(destination, -BAR if ours else BAR, hit=True))
    return [Journey(source, destination) for source, destination in moved] + hits


def last_play_words(last_play: LastPlay, names: tuple[str, str]) -> str:
    """The last play for screen readers, in the mover's own numbering as players say it."""
    said = {
        "name": names[last_play.player],
        "first": last_play.dice.first,
        "second": last_play.dice.second,
    }
    if not last_play.play.moves:
        return _("Last play: %(name)s rolled %(first)s-%(second)s and could not move.") % said
    return _(
        "Last play: %(name)s rolled %(first)s-%(second)s and played %(play)s "
        "(in %(name)s's own numbering)."
    ) % {**said, "play": format_play(last_play.play)}
