"""Standard play notation: ``24/18 13/8``, ``bar/22``, ``6/off``, ``13/7*/1``, ``8/5(2)``;
in acey-deucey ``in/22`` enters a checker that waited off the board.

Parsing accepts the common spellings and resolves the text against the legal plays of the
roll; ``format_play`` (in ``play``, beside the Play it writes) gives the canonical spelling back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .dice import Dice
from .errors import AmbiguousPlayError, IllegalPlayError, InvalidNotationError
from .legal import checker_flow, flow_between, legal_plays
from .play import BAR, IN, OFF, Play, format_play, point_name
from .position import Position

_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d+)\))?$")
_POINT = re.compile(r"^(?P<point>bar|b|off|o|in|\d{1,2})(?P<hit>\*?)$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Path:
    source: int
    stops: tuple[tuple[int, bool], ...]


def parse_paths(text: str) -> tuple[_Path, ...]:
    """Read notation into checker paths, without looking at any position.

    >>> [(p.source, p.stops) for p in parse_paths("b/22*, 6/off")]
    [(25, ((22, True),)), (6, ((0, False),))]
    >>> [(p.source, p.stops) for p in parse_paths("in/20/14")]
    [(26, ((20, False), (14, False)))]
    """
    paths: list[_Path] = []
    for token in text.replace(",", " ").split():
        match = _TOKEN.match(token)
        if match is None:
            raise InvalidNotationError(f"cannot read {token!r}: write moves like 24/18 or 8/5(2)")
        count = int(match["count"] or 1)
        if not 1 <= count <= 4:
            raise InvalidNotationError(f"cannot read {token!r}: a move repeats 1 to 4 times")
        parts = match["path"].split("/")
        if len(parts) < 2:
            raise InvalidNotationError(
                f"cannot read {token!r}: a move needs a start and an end, e.g. 24/18"
            )
        points = [_read_point(part, token, first=i == 0) for i, part in enumerate(parts)]
        for (higher, _), (lower, _) in zip(points, points[1:], strict=False):
            if lower >= higher:
                raise InvalidNotationError(
                    f"cannot read {token!r}: checkers move from higher points to lower ones"
                )
        if points[0][1]:
            raise InvalidNotationError(f"cannot read {token!r}: a hit is marked where it lands")
        paths.extend([_Path(points[0][0], tuple(points[1:]))] * count)
    return tuple(paths)


def _read_point(part: str, token: str, *, first: bool) -> tuple[int, bool]:
    match = _POINT.match(part.strip())
    if match is None:
        raise InvalidNotationError(f"cannot read {token!r}: {part!r} is not a point")
    name = match["point"].lower()
    if name in ("bar", "b"):
        point = BAR
    elif name == "in":
        point = IN
    elif name in ("off", "o"):
        point = OFF
    else:
        point = int(name)
    if point > BAR and name != "in":
        raise InvalidNotationError(f"cannot read {token!r}: there is no point {point}")
    if first and point == OFF:
        raise InvalidNotationError(f"cannot read {token!r}: a move cannot start from off")
    if not first and point == BAR:
        raise InvalidNotationError(f"cannot read {token!r}: a move cannot end on the bar")
    if not first and point == IN:
        raise InvalidNotationError(f"cannot read {token!r}: a checker that entered stays in")
    hit = bool(match["hit"])
    if hit and point in (OFF, BAR, IN):
        raise InvalidNotationError(f"cannot read {token!r}: nothing is hit {point_name(point)}")
    return point, hit


def parse_play(text: str, position: Position, dice: Dice) -> Play:
    """The legal play that ``text`` describes, for ``dice`` in ``position``.

    Stops along a path may be left out (``24/13`` for 24/18/13) unless that leaves the play
    in doubt; hits may be left unmarked.

    >>> start = Position.starting()
    >>> format_play(parse_play("13/8, 24/18", start, Dice(6, 5)))
    '24/18 13/8'
    >>> format_play(parse_play("24/18/13", start, Dice(6, 5)))
    '24/13'
    """
    paths = parse_paths(text)
    plays = legal_plays(position, dice)
    if not paths:
        if not plays:
            return Play()
        raise IllegalPlayError(f"the {dice} can be played; choose a play{_choices(plays)}")
    if not plays:
        raise IllegalPlayError(f"no move is possible with {dice}: the play is empty")
    flow = sum(flow_between(path.source, path.stops[-1][0]) for path in paths)
    written_stops: set[int] = set()
    written_ends: set[int] = set()
    marked_hits: set[int] = set()
    for path in paths:
        written_stops.update(point for point, _ in path.stops[:-1])
        written_ends.add(path.stops[-1][0])
        marked_hits.update(point for point, hit in path.stops if hit)
    candidates = []
    for play in plays:
        if checker_flow(play) != flow:
            continue
        landings = {move.destination for move in play.moves}
        hits = {move.destination for move in play.moves if move.hit}
        if written_stops <= landings and marked_hits <= hits:
            candidates.append((play, hits))
    if len(candidates) > 1:
        # "8/4 4/2" lands on the 4 (and hits there if it can), as "8/4/2" does.
        landing = [c for c in candidates if written_ends <= _landings(c[0])]
        candidates = landing or candidates
    if len(candidates) > 1:
        exact = [c for c in candidates if c[1] == marked_hits]
        candidates = exact or candidates
    if len(candidates) == 1:
        return candidates[0][0]
    if candidates:
        options = " or ".join(format_play(play) for play, _ in candidates)
        raise AmbiguousPlayError(f"{text.strip()} can be played as {options}: say which")
    raise IllegalPlayError(_why_illegal(text.strip(), paths, position, dice, plays))


def _landings(play: Play) -> set[int]:
    return {move.destination for move in play.moves}


def _why_illegal(
    text: str, paths: tuple[_Path, ...], position: Position, dice: Dice, plays: tuple[Play, ...]
) -> str:
    reason = f"{text} is not a legal play of {dice}"
    if position.points[BAR] > 0 and all(path.source != BAR for path in paths):
        reason += ": a checker on the bar must enter first"
    elif any(path.source == IN for path in paths):
        reason += ": no checker waits off the board in backgammon"
    elif any(position.points[path.source] <= 0 for path in paths):
        missing = next(path.source for path in paths if position.points[path.source] <= 0)
        reason += f": you have no checker on the {point_name(missing)}"
    elif sum(len(play.moves) for play in plays[:1]) > _dice_used(paths, dice):
        reason += ": play as much of the roll as the rules allow"
    return reason + _choices(plays)


def _dice_used(paths: tuple[_Path, ...], dice: Dice) -> int:
    pips = sum(path.source - path.stops[-1][0] for path in paths)
    per_die = dice.first if dice.is_double() else (dice.first + dice.second) / 2
    return round(pips / per_die)


def _choices(plays: tuple[Play, ...], limit: int = 12) -> str:
    shown = ", ".join(format_play(play) for play in plays[:limit])
    more = f" and {len(plays) - limit} more" if len(plays) > limit else ""
    return f". Legal plays: {shown}{more}"
