"""The board as a picture: where every point, checker, die and the cube go in the SVG.

The board is drawn from one player's side: their home board bottom right, their points
numbered 1 to 24 from there, their checkers moving counter-clockwise toward it. Templates
only place what this module computes; no rule is decided here.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.engine import BAR, OFF, Dice, LastPlay, format_play
from games.engine.board import Board as GameBoard
from games.engine.play import IN
from games.engine.variants import Track
from games.views.board_dice import Die, draw_dice
from games.views.board_geometry import (
    BAR_WIDTH,
    BAR_X,
    BOTTOM,
    HEIGHT,
    LABEL,
    LEFT,
    POINT_HEIGHT,
    POINT_WIDTH,
    RADIUS,
    RIGHT_HALF,
    SLIVER,
    STACK,
    STRIP,
    TOP,
    TRAY_HEIGHT,
    TRAY_WIDTH,
    WIDTH,
)
from games.views.board_words import describe
from games.views.cube import SIZE as CUBE_SIZE
from games.views.cube import Cube, DrawnCube, draw_cube
from games.views.last_play import Journey, journeys, last_play_words


@dataclass(frozen=True)
class CheckerLook:
    """How one player's checkers are drawn: ``colour`` and ``style`` empty for the board's own
    (the colour and style names are board.css classes: ``colour-ruby``, ``style-ringed``)."""

    colour: str = ""
    style: str = ""


PLAIN = (CheckerLook(), CheckerLook())


@dataclass
class Checker:
    x: float
    y: float
    owner: int  # the player, 0 or 1 (colour)
    count: int | None = None  # shown on the top checker of a tall stack
    movable: bool = False
    selected: bool = False
    href: str | None = None
    look: CheckerLook = CheckerLook()
    #: Arrived with the last play: the offset back to where it came from, for its glide.
    glide: tuple[float, float] | None = None
    #: Pinned (plakoto) beneath the checkers on top of it.
    pinned: bool = False

    @property
    def glide_offset(self) -> str:
        assert self.glide is not None
        return f"{self.glide[0]:g},{self.glide[1]:g}"

    @property
    def look_classes(self) -> str:
        """The CSS classes of the owner's chosen colour and style, if any."""
        return " ".join(
            f"{kind}-{name}"
            for kind, name in (("colour", self.look.colour), ("style", self.look.style))
            if name
        )

    @property
    def count_y(self) -> float:
        return self.y + 5


@dataclass
class Point:
    """A point as drawn: ``number`` in the viewer's numbering, ``name`` as the markup says it."""

    number: int
    name: str
    path: str
    shade: int
    label_x: float
    label_y: float
    checkers: list[Checker] = field(default_factory=list)
    destination: bool = False
    href: str | None = None
    #: Where a touch anywhere on the point goes when its top checker may be picked up: the
    #: whole triangle is the target, not only the checker.
    pick_href: str | None = None
    hit_x: float = 0
    hit_y: float = 0
    hit_width: float = 0
    hit_height: float = 0
    #: The last play took a checker from here / brought one here (see last_play_marks).
    last_from: bool = False
    last_to: bool = False
    #: Where the checkers that left with the last play stood, drawn as dashed rings.
    ghosts: list[tuple[float, float]] = field(default_factory=list)
    #: Checkers pinned beneath the top ones (plakoto): drawn first, at the point's base.
    pinned: int = 0


@dataclass
class Board:
    width: int
    height: int
    side: int
    points: list[Point]
    bars: list[Point]
    trays: list[Point]
    dice: list[Die]
    #: None in a match whose rules use no cube.
    cube: DrawnCube | None
    description: str
    #: Names the last play shown (None: no play marked), so a page glides it in only once.
    last_play_key: str | None

    frame: dict[str, float]
    #: The checkers waiting to enter (acey-deucey), in the strips' left halves: (theirs, mine).
    waiting: list[Point] = field(default_factory=list)
    #: The tutor's best play, when the board shows it instead of the last play.
    best_play: str = ""
    #: What the SVG's title and description are named by: one page may hold two boards.
    label_id: str = "board"


Link = Callable[..., str]

#: How much of a pinned checker shows below its pinners (plakoto).
PIN_SHOWING = 1.2 * RADIUS


def draw_board(
    board: GameBoard,
    *,
    side: int,
    names: tuple[str, str],
    dice: Dice | None = None,
    dice_owner: int | None = None,
    used_dice: tuple[int, ...] = (),
    cube: Cube | None = None,
    usernames: tuple[str, str] | None = None,
    movable: frozenset[int] = frozenset(),
    selected: int | None = None,
    destinations: frozenset[int] = frozenset(),
    link: Link | None = None,
    looks: tuple[CheckerLook, CheckerLook] = PLAIN,
    last_play: LastPlay | None = None,
    best_play: LastPlay | None = None,
) -> Board:
    """The board seen by ``side``; ``board`` (any variant's) is seen from player 0's side, as
    stored.

    ``movable``, ``selected`` and ``destinations`` are points in the viewer's numbering (25:
    their bar, 0: off); ``link(select=N)`` and ``link(to=N)`` give the address a click on a
    checker or a destination goes to. ``cube`` is None where the rules use no cube;
    ``usernames`` (default ``names``) name the cube's owner in the markup. ``looks`` are the
    players' chosen checkers, by player.
    ``last_play``, the play that led to ``board``, is marked where it took checkers from
    and brought them to, and said in the description. ``best_play`` (the tutor's, instead of
    a last play: ``board`` is the position after it) is marked the same way, said as the best
    play, and named on the board (``data-best-play``).
    """
    seen = board if side == 0 else board.flipped()
    variant = board.variant
    counts = seen.points
    pinned = seen.pinned
    me, them = side, 1 - side
    points: list[Point] = []
    for number in range(1, 25):
        x, top_row = _point_place(number)
        tip = TOP + POINT_HEIGHT if top_row else BOTTOM - POINT_HEIGHT
        centre, base, downward = _stack_origin(number)
        point = Point(
            number=number,
            name=str(number),
            path=f"M{x},{base} L{x + POINT_WIDTH},{base} L{x + POINT_WIDTH / 2},{tip} Z",
            shade=number % 2,
            label_x=x + POINT_WIDTH / 2,
            label_y=TOP - 8 if top_row else BOTTOM + LABEL - 2,
            hit_x=x,
            hit_y=TOP if top_row else BOTTOM - POINT_HEIGHT - 20,
            hit_width=POINT_WIDTH,
            hit_height=POINT_HEIGHT + 20,
        )
        count = counts[number]
        owner = me if count > 0 else them
        point.pinned = pinned[number]
        if point.pinned:
            # The pinned checker lies at the base; its pinners stand further in, leaving more
            # than half of it in sight.
            point.checkers = [
                Checker(centre, _stack_y(base, 0, downward=downward), 1 - owner, pinned=True)
            ]
            base += PIN_SHOWING if downward else -PIN_SHOWING
        point.checkers += _stack(abs(count), owner, centre, base, downward=downward)
        _mark(point, number, movable, selected, destinations, link)
        points.append(point)

    my_bar = Point(number=BAR, name="bar", path="", shade=0, label_x=0, label_y=0)
    my_bar.checkers = _stack(counts[BAR], me, *_stack_origin(BAR)[:2], downward=True)
    _mark(my_bar, BAR, movable, selected, destinations, link)
    their_bar = Point(number=-BAR, name="bar", path="", shade=0, label_x=0, label_y=0)
    their_bar.checkers = _stack(counts[0], them, *_stack_origin(-BAR)[:2], downward=False)

    mine_off, theirs_off = seen.borne_off()
    my_tray = _tray(OFF, mine_off, me, bottom=True, x=RIGHT_HALF)
    _mark(my_tray, OFF, movable, selected, destinations, link)
    # Running the same way, the opponent bears off from the viewer's 13..18, top left.
    same_way = variant.track is Track.SAME_WAY
    their_tray = _tray(-1, theirs_off, them, bottom=False, x=LEFT if same_way else RIGHT_HALF)

    waiting: list[Point] = []
    if variant.enters_from_off_board:
        their_waiting = _waiting(-IN, seen.waiting[1], them)
        my_waiting = _waiting(IN, seen.waiting[0], me)
        _mark(my_waiting, IN, movable, selected, destinations, link)
        waiting = [their_waiting, my_waiting]
    places = [*points, my_bar, their_bar, my_tray, their_tray, *waiting]
    for place in places:
        for checker in place.checkers:
            checker.look = looks[checker.owner]
    description = describe(seen, names=(names[me], names[them]))
    last_play_key = None
    marked = best_play or last_play
    if best_play is not None:
        description += " " + _("Best play: %(play)s.") % {"play": format_play(best_play.play)}
    elif last_play is not None:
        description += " " + last_play_words(last_play, names)
    if marked is not None and marked.play.moves:
        mark_last_play({place.number: place for place in places}, journeys(marked, side, variant))
        # The same from either side, so that turning the board around does not glide again.
        last_play_key = hashlib.blake2b(repr((board, marked)).encode(), digest_size=6).hexdigest()

    return Board(
        width=WIDTH,
        height=HEIGHT,
        side=side,
        points=points,
        bars=[their_bar, my_bar],
        trays=[their_tray, my_tray],
        dice=draw_dice(dice, dice_owner, side, used_dice),
        cube=None
        if cube is None
        else draw_cube(
            cube,
            side=side,
            usernames=usernames or names,
            tray_x=BAR_X + BAR_WIDTH / 2,
            # Centred on the bar; owned, in the owner's strip at the bar's end.
            gap=(STRIP / 2 - 4 - CUBE_SIZE / 2, HEIGHT - STRIP / 2 + 4 + CUBE_SIZE / 2),
            offer_x=RIGHT_HALF + 3 * POINT_WIDTH,
        ),
        description=description,
        last_play_key=last_play_key,
        best_play=format_play(best_play.play) if best_play is not None else "",
        waiting=waiting,
        frame={
            "left": LEFT,
            "top": TOP,
            "inner_width": 12 * POINT_WIDTH + BAR_WIDTH,
            "inner_height": BOTTOM - TOP,
            "bar_x": BAR_X,
            "bar_width": BAR_WIDTH,
            "right_half": RIGHT_HALF,
            "radius": RADIUS,
            "arrived_radius": RADIUS + 4,
            "ghost_radius": RADIUS - 2,
            "sliver_width": SLIVER - 2,
            "sliver_height": TRAY_HEIGHT - 12,
        },
    )


def _tray(number: int, off: int, owner: int, *, bottom: bool, x: float) -> Point:
    """A borne-off tray in the strip below (``bottom``) or above the board, its left edge at
    ``x``: a sliver for each checker off, side by side from the left, and their count."""
    top = _strip_top(bottom) + 2
    tray = Point(
        number=number,
        name="off",
        path="",
        shade=0,
        label_x=x + TRAY_WIDTH - 44,
        label_y=top + TRAY_HEIGHT / 2 + 5,
        hit_x=x,
        hit_y=top,
        hit_width=TRAY_WIDTH,
        hit_height=TRAY_HEIGHT,
    )
    tray.checkers = [Checker(x + 6 + i * SLIVER, top + 6, owner) for i in range(off)]
    if off:
        tray.checkers[-1].count = off
    return tray


def _strip_top(bottom: bool) -> float:
    return HEIGHT - STRIP if bottom else 0


def _waiting(number: int, count: int, owner: int) -> Point:
    """The checkers waiting to enter, in the left half of a strip: the viewer's (``IN``) below
    the board, the opponent's (``-IN``) above; five drawn in a row, the rest counted."""
    top = _strip_top(number == IN) + 2
    place = Point(
        number=number,
        name="in",
        path="",
        shade=0,
        label_x=LEFT,
        label_y=0,
        hit_x=LEFT,
        hit_y=top,
        hit_width=TRAY_WIDTH,
        hit_height=TRAY_HEIGHT,
    )
    place.checkers = [Checker(*_place_of(number, i), owner) for i in range(min(count, STACK))]
    if count > STACK:
        place.checkers[-1].count = count
    return place


def _point_place(number: int) -> tuple[float, bool]:
    """The left edge of a point's triangle and whether it is on the top row."""
    if number <= 6:
        return RIGHT_HALF + (6 - number) * POINT_WIDTH, False
    if number <= 12:
        return LEFT + (12 - number) * POINT_WIDTH, False
    if number <= 18:
        return LEFT + (number - 13) * POINT_WIDTH, True
    return RIGHT_HALF + (number - 19) * POINT_WIDTH, True


def _stack_origin(place: int) -> tuple[float, float, bool]:
    """Where a point's or a bar's stack starts: its centre line, its edge, and whether it grows
    downward (``place`` as in last_play.Journey: 25 the viewer's bar, -25 the opponent's)."""
    if abs(place) == BAR:
        middle = (TOP + BOTTOM) / 2
        mine = place == BAR
        return BAR_X + BAR_WIDTH / 2, middle + (2 * RADIUS + 4) * (1 if mine else -1), mine
    x, top_row = _point_place(place)
    return x + POINT_WIDTH / 2, TOP if top_row else BOTTOM, top_row


def _place_of(place: int, index: int) -> tuple[float, float]:
    """Where the ``index``-th checker of a place stands (``place`` as in last_play.Journey, 26
    the viewer's checkers waiting to enter, -26 the opponent's: a row in a strip)."""
    if abs(place) == IN:
        y = _strip_top(place == IN) + STRIP / 2
        return LEFT + 4 + RADIUS + index * (2 * RADIUS + 1), y
    x, base, downward = _stack_origin(place)
    return x, _stack_y(base, index, downward=downward)


def _stack_y(base: float, index: int, *, downward: bool) -> float:
    return base + (1 if downward else -1) * (RADIUS + 2 + index * (2 * RADIUS + 1))


def _stack(count: int, owner: int, x: float, base: float, *, downward: bool) -> list[Checker]:
    checkers = [
        Checker(x, _stack_y(base, i, downward=downward), owner) for i in range(min(count, STACK))
    ]
    if count > STACK:
        checkers[-1].count = count
    return checkers


def mark_last_play(places: dict[int, Point], moved: list[Journey]) -> None:
    """Mark the places ``moved`` took checkers from and brought them to: a dashed ring where
    each checker stood, and on each checker that arrived the offset back to its start."""
    left = Counter[int]()
    arrivals: dict[int, list[tuple[float, float]]] = {}
    for journey in moved:
        source = places[journey.source]
        source.last_from = True
        places[journey.destination].last_to = True
        if journey.hit:
            index = 0  # it stood alone, where the checker that hit it stands now
        else:
            index = _standing(source) + left[journey.source]
            left[journey.source] += 1
        start = _place_of(journey.source, min(index, STACK))  # past a full stack
        source.ghosts.append(start)
        arrivals.setdefault(journey.destination, []).append(start)
    for number, starts in arrivals.items():
        arrived = places[number].checkers[-len(starts) :]
        for checker, (x, y) in zip(arrived, starts[-len(arrived) :], strict=True):
            if number in (OFF, -1):
                x, y = x - SLIVER / 2, y - TRAY_HEIGHT / 2 + 6  # a sliver is placed by its corner
            checker.glide = (round(x - checker.x, 1), round(y - checker.y, 1))


def _standing(place: Point) -> int:
    """How many checkers stand on a point or bar (a tall stack shows its count on top)."""
    if not place.checkers:
        return 0
    return place.checkers[-1].count or len(place.checkers) - place.pinned


def _mark(
    point: Point,
    number: int,
    movable: frozenset[int],
    selected: int | None,
    destinations: frozenset[int],
    link: Link | None,
) -> None:
    if point.checkers and number in movable and link is not None:
        top = point.checkers[-1]
        top.movable = True
        top.selected = number == selected
        # While a checker is chosen, a click on a destination point moves it there.
        if number == selected or number not in destinations:
            top.href = link(select=number)
            point.pick_href = top.href
    if number in destinations and link is not None:
        point.destination = True
        point.href = link(to=number)


#: How many drawn boards each process keeps, by value (see board_svg).
DRAWN_BOARDS_KEPT = 256
_drawn: OrderedDict[bytes, SafeString] = OrderedDict()
_drawn_lock = threading.Lock()


def board_svg(board: Board) -> SafeString:
    """The board's SVG (games/board.svg.html). It depends on the Board value alone, and everyone
    looking at a match sees the same one until its next move, while rendering it costs more than
    the rest of the page: the boards drawn last are kept."""
    key = hashlib.blake2b(repr(board).encode(), digest_size=16).digest()
    with _drawn_lock:
        svg = _drawn.get(key)
        if svg is not None:
            _drawn.move_to_end(key)
            return svg
    svg = render_to_string("games/board.svg.html", {"board": board})
    with _drawn_lock:
        _drawn[key] = svg
        while len(_drawn) > DRAWN_BOARDS_KEPT:
            _drawn.popitem(last=False)
    return svg
