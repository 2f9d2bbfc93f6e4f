"""bgsage, the neural-network engine, seen in our terms: the one seam to it.

Everything here is Django-free: it takes the rules engine's values (Position, Dice, MatchState)
and gives back plays in our notation and equities from the point of view of the player who
decides. Equities are bgsage's cubeful match equities, normalised so that winning a single game
at the current cube is about +1 (its ``equity_dp`` at the match score); bgsage converts them
with its match equity table, so every answer is aware of the score, the cube and Crawford.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from games.computer.stakes import Chances
from games.engine import Dice, MatchState, Play, Position, format_play, legal_plays

CubeOwner = Literal["centered", "player", "opponent"]


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match around a decision, from the side of the player who decides.

    ``away`` and ``opponent_away`` are the points each still needs; both 0 means a money game.
    """

    cube_value: int = 1
    cube_owner: CubeOwner = "centered"
    away: int = 0
    opponent_away: int = 0
    crawford: bool = False

    @classmethod
    def of(cls, state: MatchState, player: int) -> MatchContext:
        """The context of ``player``'s decision in ``state``."""
        owner: CubeOwner
        if state.cube_owner is None:
            owner = "centered"
        else:
            owner = "player" if state.cube_owner == player else "opponent"
        return cls(
            cube_value=state.cube_value,
            cube_owner=owner,
            away=state.points_needed(player),
            opponent_away=state.points_needed(1 - player),
            crawford=state.crawford,
        )

    def _keywords(self) -> dict[str, Any]:
        return {"away1": self.away, "away2": self.opponent_away, "is_crawford": self.crawford}


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play with its cubeful equity after it; ``loss`` is how far it is below the best."""

    play: Play
    notation: str
    equity: float
    loss: float


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The cube seen by the player on roll, before rolling: the equity of each outcome.

    ``no_double``: keep rolling; ``double_take`` and ``double_pass``: double and be taken or
    passed. The doubled player's equities are the negatives.
    """

    no_double: float
    double_take: float
    double_pass: float

    @property
    def double(self) -> float:
        """The equity of doubling, when the opponent answers it correctly."""
        return min(self.double_take, self.double_pass)

    @property
    def best(self) -> float:
        return max(self.no_double, self.double)

    def should_double(self) -> bool:
        return self.double > self.no_double

    def should_take(self) -> bool:
        return self.double_take <= self.double_pass

    def take_loss(self, took: bool) -> float:
        """The equity the doubled player gives up by taking (or passing) against the best."""
        take, drop = -self.double_take, -self.double_pass
        return max(take, drop) - (take if took else drop)

    def double_loss(self, doubled: bool) -> float:
        """The equity the player on roll gives up by doubling (or not) against the best."""
        return self.best - (self.double if doubled else self.no_double)


@cache
def _analyzer(plies: int) -> Any:
    """One bgsage analyzer per search depth, built on first use (loading weights takes time)."""
    import bgsage  # type: ignore[import-untyped, unused-ignore]

    return bgsage.BgBotAnalyzer(eval_level=f"{plies}ply", parallel_threads=1)


def rank_plays(
    position: Position,
    dice: Dice,
    context: MatchContext | None = None,
    *,
    plies: int = 1,
) -> list[RankedPlay]:
    """Every legal play of ``dice`` in ``position`` (seen by the player on roll), best first.

    Empty when nothing can be played.

    >>> [p.notation for p in rank_plays(Position.starting(), Dice(3, 1))][:1]
    ['8/5 6/5']
    """
    context = context or MatchContext()
    analysed = _analysed_plays(position, dice, context, plies)
    if not analysed:
        return []
    best = analysed[0][1].equity
    return [
        RankedPlay(play, format_play(play), move.equity, best - move.equity)
        for play, move in analysed
    ]


def play_chances(position: Position, dice: Dice, *, plies: int = 1) -> list[tuple[Play, Chances]]:
    """Every legal play of ``dice`` in ``position``, with bgsage's cubeless chances after it
    for the player who played it: for variants on backgammon's board that score their games
    otherwise (portes has no backgammon). At one ply, the network's own evaluation of each
    play, as bgsage's one-ply analysis makes it, without its cubeful ranking (which makes it
    twenty times faster); deeper, bgsage's analysis, best first."""
    if plies > 1:
        return [
            (play, _chances(move.probs))
            for play, move in _analysed_plays(position, dice, MatchContext(), plies)
        ]
    before = list(position.points)
    network = _quick_evaluator()
    judged = []
    seen: set[tuple[int, ...]] = set()
    for play in legal_plays(position, dice):
        after = position.apply(play).points
        if after not in seen:
            seen.add(after)
            probabilities = network.evaluate_board(list(after), before)["probs"]
            judged.append((play, _chances_of(probabilities)))
    return judged


def _chances(probabilities: Any) -> Chances:
    return _chances_of(probabilities.to_list())


def _chances_of(probabilities: list[float]) -> Chances:
    """bgsage's five probabilities (win, gammon win, backgammon win, gammon loss, backgammon
    loss), gammons counting backgammons, as Chances."""
    win, double_win, triple_win, double_loss, triple_loss = (float(p) for p in probabilities[:5])
    return Chances(win, double_win, triple_win, None, double_loss, triple_loss)


def _analysed_plays(
    position: Position, dice: Dice, context: MatchContext, plies: int
) -> list[tuple[Play, Any]]:
    """Our legal plays, each with bgsage's analysis of it, in bgsage's order (best first)."""
    plays = legal_plays(position, dice)
    if not plays:
        return []
    by_board: dict[tuple[int, ...], Play] = {}
    for play in plays:
        by_board.setdefault(position.apply(play).points, play)
    result = _analyzer(plies).checker_play(
        list(position.points),
        dice.first,
        dice.second,
        context.cube_value,
        context.cube_owner,
        **context._keywords(),
    )
    analysed = []
    for move in result.moves:
        play = by_board.pop(tuple(move.board), None)
        if play is not None:
            analysed.append((play, move))
    if by_board:
        unknown = sorted(map(format_play, by_board.values()))
        raise ValueError(f"bgsage does not know the plays {unknown}")
    return analysed


def cube_decision(
    position: Position, context: MatchContext | None = None, *, plies: int = 1
) -> CubeDecision:
    """The equities of not doubling, double/take and double/pass for the player on roll."""
    context = context or MatchContext()
    result = _analyzer(plies).cube_action(
        list(position.points), context.cube_value, context.cube_owner, **context._keywords()
    )
    return CubeDecision(result.equity_nd, result.equity_dt, result.equity_dp)


@cache
def _quick_evaluator() -> Any:
    import bgbot_cpp  # type: ignore[import-not-found, unused-ignore]
    import bgsage

    weights = bgsage.default_weights()
    return bgbot_cpp.create_strategy(
        weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list
    )


def winning_chance(position: Position) -> float:
    """A quick cubeless estimate (one network evaluation) of the player on roll's chance to
    win the game: enough to see that a double is out of the question."""
    seen_by_opponent = list(position.flipped().points)
    probabilities = _quick_evaluator().evaluate_board(seen_by_opponent, seen_by_opponent)["probs"]
    return 1.0 - float(probabilities[0])


def chances_on_roll(position: Position, *, plies: int = 1) -> Chances:
    """bgsage's cubeless chances of the player on roll, before rolling."""
    return _chances(_analyzer(plies).cube_action(list(position.points)).probs)
