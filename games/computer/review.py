"""Post-match analysis: what each decision of a match cost against bgsage's best choice.

A pure function over a match's engine events and its length, so any match can be analysed,
whether it was played here or imported. Every checker play with a choice (more than one
legal play), every cube decision that was a real one, and every take or drop is measured in
bgsage's cubeful match equity (see ``games.computer.sage``): ``equity_lost`` is the best choice's
equity minus the chosen one's, from the decider's side.

Marks: a loss of at least ``BLUNDER`` (0.08) is a blunder, of at least ``ERROR`` (0.04) an
error. A player's performance rating is XG's: the mean equity lost per decision times 500,
so 0 is perfect play, about 5 world class, about 10 strong and 20 or more a beginner.

A chance to double counts as a decision (as XG counts only close cube decisions) when the
player doubled, or doubling was right, or it was within ``CLOSE_CUBE`` (0.2) of not doubling.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any, Literal

from games.computer.sage import MatchContext, cube_decision, rank_plays
from games.engine import (
    Double,
    Drop,
    Event,
    MatchRules,
    MatchState,
    PlayMade,
    Roll,
    Take,
    parse_play,
)

BLUNDER = 0.08
ERROR = 0.04
CLOSE_CUBE = 0.2
RATING_SCALE = 500

Kind = Literal["checker", "cube", "take"]
Mark = Literal["", "error", "blunder"]


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision: ``index`` is its event's place in the list analysed."""

    index: int
    player: int
    kind: Kind
    chosen: str
    best: str
    equity_lost: float

    @property
    def mark(self) -> Mark:
        if self.equity_lost >= BLUNDER:
            return "blunder"
        if self.equity_lost >= ERROR:
            return "error"
        return ""


@dataclass(frozen=True, slots=True)
class PlayerReview:
    decisions: int
    errors: int
    blunders: int
    equity_lost: float

    @property
    def error_rate(self) -> float:
        """The share of decisions that were errors or blunders."""
        return (self.errors + self.blunders) / self.decisions if self.decisions else 0.0

    @property
    def performance_rating(self) -> float:
        """Mean equity lost per decision x 500 (XG's PR): lower is better."""
        return RATING_SCALE * self.equity_lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class MatchReview:
    decisions: tuple[DecisionReview, ...]
    plies: int

    def player(self, player: int) -> PlayerReview:
        own = [decision for decision in self.decisions if decision.player == player]
        return PlayerReview(
            decisions=len(own),
            errors=sum(decision.mark == "error" for decision in own),
            blunders=sum(decision.mark == "blunder" for decision in own),
            equity_lost=sum(decision.equity_lost for decision in own),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, with each decision's mark and each player's figures."""
        return {
            "plies": self.plies,
            "thresholds": {"error": ERROR, "blunder": BLUNDER},
            "players": [_player_json(self.player(player)) for player in (0, 1)],
            "decisions": [
                {**asdict(decision), "mark": decision.mark} for decision in self.decisions
            ],
        }


def _player_json(review: PlayerReview) -> dict[str, Any]:
    return {
        "decisions": review.decisions,
        "errors": review.errors,
        "blunders": review.blunders,
        "equity_lost": round(review.equity_lost, 4),
        "error_rate": round(review.error_rate, 4),
        "performance_rating": round(review.performance_rating, 2),
    }


def review_match(
    match_length: int,
    events: Iterable[Event],
    *,
    plies: int = 2,
    rules: MatchRules | None = None,
) -> MatchReview:
    """Review every decision of the match that ``events`` (engine events, in order) make up,
    played by ``rules`` (backgammon's unless given: a variant with gnubg's board)."""
    state = MatchState.new(match_length, rules)
    decisions: list[DecisionReview] = []
    for index, event in enumerate(events):
        decision = _review(index, state, event, plies)
        if decision is not None:
            decisions.append(decision)
        state = state.apply(event)
    return MatchReview(tuple(decisions), plies)


def _review(index: int, state: MatchState, event: Event, plies: int) -> DecisionReview | None:
    if isinstance(event, PlayMade) and state.phase == "moving" and state.dice is not None:
        player = event.player
        before = state.position_for(player)
        ranked = rank_plays(before, state.dice, MatchContext.of(state, player), plies=plies)
        if len(ranked) < 2:
            return None
        reached = before.apply(parse_play(event.notation, before, state.dice)).points
        chosen = next(r for r in ranked if before.apply(r.play).points == reached)
        return DecisionReview(
            index, player, "checker", chosen.notation, ranked[0].notation, chosen.loss
        )
    if isinstance(event, Roll | Double) and state.phase == "rolling":
        player = event.player
        if not state.can_double(player):
            return None
        context = MatchContext.of(state, player)
        cube = cube_decision(state.position_for(player), context, plies=plies)
        doubled = isinstance(event, Double)
        lost = cube.double_loss(doubled)
        if not doubled and lost <= 0 and cube.double < cube.no_double - CLOSE_CUBE:
            return None
        best = "Double" if cube.should_double() else "No double"
        return DecisionReview(
            index, player, "cube", "Double" if doubled else "No double", best, lost
        )
    if isinstance(event, Take | Drop) and state.phase == "doubled" and state.turn is not None:
        doubler = state.turn
        cube = cube_decision(
            state.position_for(doubler), MatchContext.of(state, doubler), plies=plies
        )
        took = isinstance(event, Take)
        best = "Take" if cube.should_take() else "Drop"
        return DecisionReview(
            index, event.player, "take", "Take" if took else "Drop", best, cube.take_loss(took)
        )
    return None
