"""What a game's outcomes are worth, and the chances of each: equity for every variant's bot.

Django-free. ``Chances`` are seen from the side that has just moved, the other side to roll
(as bgsage's post-move probabilities are); ``Stakes`` say what a single, double and triple
game is worth to each side at the match's score and cube, in units of a single game at the
current cube, so that equities here are on bgsage's scale (a single game won is about +1).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import MatchState, Variant


@dataclass(frozen=True, slots=True)
class Chances:
    """The chances of the side that has just moved: ``win`` any win; ``double_win`` a win
    worth two points (a gammon, a mars, plakoto's pinned mother; backgammons included);
    ``triple_win`` a backgammon; and the same for losses. A draw is neither win nor loss.
    """

    win: float
    double_win: float = 0.0
    triple_win: float = 0.0
    loss: float | None = None
    double_loss: float = 0.0
    triple_loss: float = 0.0

    @property
    def losing(self) -> float:
        return 1.0 - self.win if self.loss is None else self.loss

    def flipped(self) -> Chances:
        """The same chances seen by the other side."""
        return Chances(
            win=self.losing,
            double_win=self.double_loss,
            triple_win=self.triple_loss,
            loss=self.win,
            double_loss=self.double_win,
            triple_loss=self.triple_win,
        )

    @classmethod
    def certain(cls, points: int) -> Chances:
        """A game already decided: ``points`` won (negative: lost; 0: drawn)."""
        if points == 0:
            return cls(win=0.0, loss=0.0)
        size = abs(points)
        won = cls(win=1.0, double_win=float(size >= 2), triple_win=float(size >= 3), loss=0.0)
        return won if points > 0 else won.flipped()


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a game won by one, two or three points is worth to each side, in single games at
    the current cube: ``mine`` for the side that decides, ``theirs`` for the other."""

    mine: tuple[float, float, float] = (1.0, 2.0, 3.0)
    theirs: tuple[float, float, float] = (1.0, 2.0, 3.0)

    @classmethod
    def of(cls, state: MatchState, player: int) -> Stakes:
        """The stakes of the game being played, for ``player``: a win counts no more than
        the points still needed (a gammon is worth a single game to a player one point
        away), a game of a best-of-three Tavli match counts as one whatever its points, and
        a variant without backgammons scores a triple game as a double one."""
        variant = state.game_variant
        if state.rules.counts_games():
            return cls((1.0, 1.0, 1.0), (1.0, 1.0, 1.0))
        cube = state.cube_value
        points = (1, variant.gammon, variant.backgammon)

        def worth(needed: int) -> tuple[float, float, float]:
            capped = [min(p * cube, needed) / cube for p in points]
            return capped[0], capped[1], capped[2]

        return cls(worth(state.points_needed(player)), worth(state.points_needed(1 - player)))

    @classmethod
    def cubeless(cls, variant: Variant) -> Stakes:
        """A game's own points in ``variant``: its chances' worth is the points to expect."""
        points = (1.0, float(variant.gammon), float(variant.backgammon))
        return cls(points, points)

    def flipped(self) -> Stakes:
        return Stakes(self.theirs, self.mine)

    def equity(self, chances: Chances) -> float:
        """The worth of ``chances`` to the side whose stakes are ``mine``."""
        single, double, triple = self.mine
        their_single, their_double, their_triple = self.theirs
        won = (
            single * (chances.win - chances.double_win)
            + double * (chances.double_win - chances.triple_win)
            + triple * chances.triple_win
        )
        lost = (
            their_single * (chances.losing - chances.double_loss)
            + their_double * (chances.double_loss - chances.triple_loss)
            + their_triple * chances.triple_loss
        )
        return won - lost
