"""The board as a value, seen from the side of the player on roll."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .errors import IllegalPlayError, InvalidPositionError
from .gnubg import counts_of_position_id, position_id_of_counts
from .play import BAR, OFF, Move, Play, point_name

CHECKERS = 15
HOME = range(1, 7)


class GameResult(enum.IntEnum):
    """How a game was won; the value is the multiple of the cube the loser pays."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: ``winner_on_roll`` says whether the side the position is seen from won."""

    winner_on_roll: bool
    result: GameResult


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers on the board, from the side of the player on roll ("the player").

    ``points[1]`` to ``points[24]`` count checkers on each point in the player's numbering:
    positive for the player's checkers, negative for the opponent's. ``points[25]`` counts the
    player's checkers on the bar and ``points[0]`` the opponent's. Checkers not on the board
    have been borne off. This is also bgsage's layout.

    >>> start = Position.starting()
    >>> start.pip_count()
    (167, 167)
    >>> start.flipped() == start
    True
    """

    points: tuple[int, ...]

    def __post_init__(self) -> None:
        points = self.points
        if len(points) != 26 or not all(type(n) is int for n in points):
            raise InvalidPositionError("a position has 26 whole-number slots: bar, 24 points, bar")
        if points[BAR] < 0 or points[0] < 0:
            raise InvalidPositionError("a bar cannot hold fewer than no checkers")
        mine = points[BAR] + sum(n for n in points[1:BAR] if n > 0)
        theirs = points[0] - sum(n for n in points[1:BAR] if n < 0)
        if mine > CHECKERS or theirs > CHECKERS:
            raise InvalidPositionError(f"a player has at most {CHECKERS} checkers")

    @classmethod
    def starting(cls) -> Position:
        """The 2-5-3-5 starting position."""
        return STARTING

    @classmethod
    def from_checkers(cls, mine: dict[int, int], theirs: dict[int, int] | None = None) -> Position:
        """Build a position from ``{point: count}`` maps, each in its owner's own numbering.

        Point 25 is that player's bar.

        >>> Position.from_checkers({6: 2}, {6: 1}).points[19]
        -1
        """
        points = [0] * 26
        for point, count in mine.items():
            _check_point(point)
            points[point] += count
        for point, count in (theirs or {}).items():
            _check_point(point)
            if point == BAR:
                points[0] += count
            elif points[BAR - point] > 0:
                raise InvalidPositionError(f"both players have checkers on the {point} point")
            else:
                points[BAR - point] -= count
        return cls(tuple(points))

    def flipped(self) -> Position:
        """The same board seen from the opponent's side."""
        points = self.points
        return Position((points[BAR], *(-points[BAR - i] for i in range(1, BAR)), points[0]))

    def checkers(self, point: int) -> int:
        """The player's checkers on ``point`` (their numbering; 25 is their bar)."""
        return max(self.points[point], 0)

    def opponent_checkers(self, point: int) -> int:
        """The opponent's checkers on ``point`` in the opponent's own numbering (25: their bar)."""
        return self.points[0] if point == BAR else max(-self.points[BAR - point], 0)

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (the player's, the opponent's)."""
        points = self.points
        mine = sum(n for n in points[1:] if n > 0)
        theirs = points[0] - sum(n for n in points[1:BAR] if n < 0)
        return CHECKERS - mine, CHECKERS - theirs

    def pip_count(self) -> tuple[int, int]:
        """Pips to bear off everything: (the player's, the opponent's)."""
        points = self.points
        mine = sum(points[i] * i for i in range(1, 26) if points[i] > 0)
        theirs = 25 * points[0] - sum(points[i] * (BAR - i) for i in range(1, BAR) if points[i] < 0)
        return mine, theirs

    def can_bear_off(self) -> bool:
        """All the player's checkers still in play are in their home board."""
        return all(n <= 0 for n in self.points[7:])

    def is_race(self) -> bool:
        """Contact is broken: every checker of the player has passed every opponent checker."""
        points = self.points
        if points[BAR] or points[0]:
            return False
        highest_mine = max((i for i in range(1, 25) if points[i] > 0), default=0)
        lowest_theirs = min((i for i in range(1, 25) if points[i] < 0), default=25)
        return highest_mine < lowest_theirs

    def outcome(self) -> Outcome | None:
        """The game's result once a player has borne off all fifteen checkers, else None."""
        mine_off, theirs_off = self.borne_off()
        if mine_off == CHECKERS:
            return Outcome(True, _result_against(self.flipped()))
        if theirs_off == CHECKERS:
            return Outcome(False, _result_against(self))
        return None

    def apply(self, play: Play) -> Position:
        """The position after ``play``, still seen from the player's side.

        Each move must be possible on the board as it stands when it is made (a checker on
        the source, the bar first, an open destination, bearing off only with all checkers
        home); whether the play uses the roll fully is for ``legal_plays`` to judge.
        """
        points = list(self.points)
        for move in play.moves:
            _apply_move(points, move)
        return Position(tuple(points))

    def position_id(self) -> str:
        """GNU Backgammon's Position ID of this board (14 characters).

        >>> Position.starting().position_id()
        '4HPwATDgc/ABMA'
        >>> Position.from_checkers({1: 4, 3: 3, 4: 1}, {2: 1}).position_id()
        'AgAAPBcAAAAAAA'
        """
        points = self.points
        # The opponent's point p is slot BAR - p: their points 1 to 24 are the slots 24 down to 1.
        counts = [max(-points[slot], 0) for slot in range(BAR - 1, 0, -1)]
        counts.append(self.opponent_checkers(BAR))
        counts.extend(max(points[slot], 0) for slot in range(1, BAR))
        counts.append(self.checkers(BAR))
        return position_id_of_counts(counts)

    @classmethod
    def from_position_id(cls, text: str) -> Position:
        """The board a GNU Backgammon Position ID describes, from the side of the player on roll.

        Surrounding whitespace is ignored; text that is not a Position ID raises
        ``InvalidPositionError`` saying what is wrong.

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.starting()
        True
        >>> Position.from_position_id("sOfgEwDg8+AIBg").position_id()
        'sOfgEwDg8+AIBg'
        >>> Position.from_position_id("4HPwATDgc/ABM")
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidPositionError: not a Position ID: '4HPwATDgc/ABM' has 13 \
characters; a Position ID has 14
        """
        theirs, mine = counts_of_position_id(text.strip(), CHECKERS)
        return cls.from_checkers(
            {point: count for point, count in enumerate(mine, 1) if count},
            {point: count for point, count in enumerate(theirs, 1) if count},
        )

    def __str__(self) -> str:
        return self.position_id()


def _result_against(loser_view: Position) -> GameResult:
    """How badly the player seen in ``loser_view`` (who has lost) lost."""
    if loser_view.borne_off()[0] > 0:
        return GameResult.SINGLE
    points = loser_view.points
    # The winner's home board is the loser's 19 to 24 points.
    if points[BAR] > 0 or any(points[i] > 0 for i in range(19, 25)):
        return GameResult.BACKGAMMON
    return GameResult.GAMMON


def _check_point(point: int) -> None:
    if not 1 <= point <= BAR:
        raise InvalidPositionError(f"there is no point {point}")


def _apply_move(points: list[int], move: Move) -> None:
    source, destination, die = move.source, move.destination, move.die
    where = f"{point_name(source)}/{point_name(destination)}"
    if points[source] <= 0:
        raise IllegalPlayError(f"{where}: you have no checker on the {point_name(source)}")
    if source != BAR and points[BAR] > 0:
        raise IllegalPlayError(f"{where}: a checker on the bar must enter first")
    if destination != max(source - die, OFF):
        raise IllegalPlayError(f"{where} does not move {die}")
    if destination == OFF:
        if any(n > 0 for n in points[7:]):
            raise IllegalPlayError(f"{where}: bear off only once all your checkers are home")
        if source < die and any(points[i] > 0 for i in range(source + 1, 7)):
            raise IllegalPlayError(
                f"{where}: a {die} bears off from the {source} point only when no checker "
                "stands higher"
            )
    elif points[destination] < -1:
        raise IllegalPlayError(f"{where}: the {destination} point is closed")
    hit = destination != OFF and points[destination] == -1
    if hit != move.hit:
        raise IllegalPlayError(
            f"{where}: {'this hits' if hit else 'there is no blot to hit'} on the {destination}"
        )
    points[source] -= 1
    if hit:
        points[destination] = 1
        points[0] += 1
    elif destination != OFF:
        points[destination] += 1


STARTING = Position.from_checkers({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
assert STARTING.pip_count() == (167, 167) and STARTING.borne_off() == (0, 0)
