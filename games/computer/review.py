"""Post-match analysis: what each decision of a match cost, in bgsage's opinion and, where
GNU Backgammon is at hand, in gnubg's as well.

A pure function over a match's engine events and its length, so any match can be analysed,
whether it was played here or imported. Every checker play with a choice (more than one
legal play), every cube decision that was a real one, and every take or drop is measured in
each engine's cubeful equity at the match score (see ``games.computer.sage`` and
``games.computer.gnubg``): an engine's ``equity_lost`` is its best choice's equity minus the
chosen one's, from the decider's side.

Marks: a loss of at least ``BLUNDER`` (0.08) is a blunder, of at least ``ERROR`` (0.04) an
error. A player's performance rating is XG's: the mean equity lost per decision times 500,
so 0 is perfect play, about 5 world class, about 10 strong and 20 or more a beginner.

A chance to double counts as a decision (as XG and gnubg count only close cube decisions) when
the player doubled, or doubling was right, or it was within ``CLOSE_CUBE`` (0.16, gnubg's
"close") of not doubling; each engine judges that by its own equities, so the two may count
a different number of decisions. Where both engines weigh a decision and their losses differ
by more than ``DISPUTED`` (0.1), the decision is disputed.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from games.computer.gnubg import GnubgAnalysis, GnubgError, GnubgRecord
from games.computer.sage import CubeDecision, MatchContext, cube_decision, rank_plays
from games.engine import (
    Double,
    Drop,
    Event,
    MatchRules,
    MatchState,
    Play,
    PlayMade,
    Roll,
    Take,
    format_play,
    parse_play,
)

logger = logging.getLogger(__name__)

BLUNDER = 0.08
ERROR = 0.04
CLOSE_CUBE = 0.16
DISPUTED = 0.1
RATING_SCALE = 500

Kind = Literal["checker", "cube", "take"]
Mark = Literal["", "error", "blunder"]
Engine = Literal["bgsage", "gnubg"]
ENGINES: tuple[Engine, ...] = ("bgsage", "gnubg")


def mark_of(equity_lost: float) -> Mark:
    if equity_lost >= BLUNDER:
        return "blunder"
    if equity_lost >= ERROR:
        return "error"
    return ""


@dataclass(frozen=True, slots=True)
class Opinion:
    """One engine's verdict on a decision: its best choice, what the chosen one lost against
    it, and whether the decision counts in the engine's figures (a chance to double counts
    only when it was close; every other decision does)."""

    best: str
    equity_lost: float
    counts: bool = True

    @property
    def mark(self) -> Mark:
        return mark_of(self.equity_lost)


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision: ``index`` is its event's place in the list analysed; ``opinions`` are the
    engines' that weighed it."""

    index: int
    player: int
    kind: Kind
    chosen: str
    opinions: Mapping[Engine, Opinion]

    def opinion(self, engine: Engine) -> Opinion | None:
        return self.opinions.get(engine)

    @property
    def disputed(self) -> bool:
        """Both engines weighed it and their losses differ by more than DISPUTED."""
        sage, gnubg = self.opinion("bgsage"), self.opinion("gnubg")
        if sage is None or gnubg is None:
            return False
        return abs(sage.equity_lost - gnubg.equity_lost) > DISPUTED


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
    """The decisions, with the plies of each engine that gave its opinion (bgsage always;
    gnubg where it was at hand) and why an engine gave none (``unavailable``)."""

    decisions: tuple[DecisionReview, ...]
    plies: int
    engines: Mapping[Engine, int] = field(default_factory=dict)
    unavailable: Mapping[Engine, str] = field(default_factory=dict)

    def player(self, player: int, engine: Engine = "bgsage") -> PlayerReview:
        """``player``'s figures over the decisions ``engine`` counts."""
        opinions = [
            opinion
            for decision in self.decisions
            if decision.player == player
            and (opinion := decision.opinion(engine)) is not None
            and opinion.counts
        ]
        return PlayerReview(
            decisions=len(opinions),
            errors=sum(opinion.mark == "error" for opinion in opinions),
            blunders=sum(opinion.mark == "blunder" for opinion in opinions),
            equity_lost=sum(opinion.equity_lost for opinion in opinions),
        )

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: each engine's figures per player, and each decision with every
        engine's opinion and mark."""
        return {
            "plies": self.plies,
            "thresholds": {"error": ERROR, "blunder": BLUNDER, "disputed": DISPUTED},
            "engines": {engine: {"plies": plies} for engine, plies in self.engines.items()},
            "unavailable": dict(self.unavailable),
            "players": {
                engine: [_player_json(self.player(player, engine)) for player in (0, 1)]
                for engine in self.engines
            },
            "decisions": [_decision_json(decision) for decision in self.decisions],
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


def _decision_json(decision: DecisionReview) -> dict[str, Any]:
    return {
        "index": decision.index,
        "player": decision.player,
        "kind": decision.kind,
        "chosen": decision.chosen,
        "disputed": decision.disputed,
        "opinions": {
            engine: {
                "best": opinion.best,
                "equity_lost": round(opinion.equity_lost, 4),
                "mark": opinion.mark,
                "counts": opinion.counts,
            }
            for engine, opinion in decision.opinions.items()
        },
    }


@dataclass(frozen=True, slots=True)
class _Decision:
    """A decision found in the log: the state it was taken in and what was chosen."""

    index: int
    state: MatchState
    event: Event
    player: int
    kind: Kind


def review_match(
    match_length: int,
    events: Iterable[Event],
    *,
    plies: int = 2,
    rules: MatchRules | None = None,
    second_opinion: Callable[[], GnubgAnalysis] | None = None,
) -> MatchReview:
    """Review every decision of the match that ``events`` (engine events, in order) make up,
    played by ``rules`` (backgammon's unless given: a variant with gnubg's board).

    ``second_opinion`` gives gnubg's analysis of the same events (their .mat export); it is
    asked for once bgsage is done, so gnubg may work meanwhile. If gnubg failed, or read the
    match differently, the review is bgsage's alone and says why.
    """
    events = list(events)
    found = list(_decisions(match_length, events, rules))
    opinions: dict[int, dict[Engine, Opinion]] = {
        decision.index: {"bgsage": _sage_opinion(decision, plies)} for decision in found
    }
    engines: dict[Engine, int] = {"bgsage": plies}
    unavailable: dict[Engine, str] = {}
    if second_opinion is not None:
        try:
            analysis = second_opinion()
            gnubg = _gnubg_opinions(found, analysis.by_event(match_length, events, rules))
        except (GnubgError, ValueError) as error:  # ValueError: the engine refused its play
            logger.warning("No second opinion from gnubg: %s", error)
            unavailable["gnubg"] = f"GNU Backgammon gave no analysis: {error}"
        else:
            if gnubg or not found:
                engines["gnubg"] = analysis.plies
                for index, opinion in gnubg.items():
                    opinions[index]["gnubg"] = opinion
            else:
                unavailable["gnubg"] = "GNU Backgammon weighed none of the decisions."
    reviews = tuple(
        DecisionReview(
            decision.index,
            decision.player,
            decision.kind,
            _chosen(decision),
            opinions[decision.index],
        )
        for decision in found
        if any(opinion.counts for opinion in opinions[decision.index].values())
    )
    return MatchReview(reviews, plies, engines, unavailable)


def _decisions(
    match_length: int, events: list[Event], rules: MatchRules | None
) -> Iterable[_Decision]:
    state = MatchState.new(match_length, rules)
    for index, event in enumerate(events):
        kind = _kind(state, event)
        if kind is not None:
            assert isinstance(event, PlayMade | Roll | Double | Take | Drop)
            yield _Decision(index, state, event, event.player, kind)
        state = state.apply(event)


def _kind(state: MatchState, event: Event) -> Kind | None:
    if isinstance(event, PlayMade) and state.phase == "moving" and len(state.legal_plays()) > 1:
        return "checker"
    if isinstance(event, Roll | Double) and state.phase == "rolling":
        return "cube" if state.can_double(event.player) else None
    if isinstance(event, Take | Drop) and state.phase == "doubled":
        return "take"
    return None


def _chosen(decision: _Decision) -> str:
    event, state = decision.event, decision.state
    if isinstance(event, PlayMade):
        assert state.dice is not None
        before = state.position_for(decision.player)
        return format_play(parse_play(event.notation, before, state.dice))
    if decision.kind == "cube":
        return "Double" if isinstance(event, Double) else "No double"
    return "Take" if isinstance(event, Take) else "Drop"


def _sage_opinion(decision: _Decision, plies: int) -> Opinion:
    state, player = decision.state, decision.player
    if decision.kind == "checker":
        assert state.dice is not None
        before = state.position_for(player)
        ranked = rank_plays(before, state.dice, MatchContext.of(state, player), plies=plies)
        reached = before.apply(_played(decision)).points
        chosen = next(r for r in ranked if before.apply(r.play).points == reached)
        return Opinion(ranked[0].notation, chosen.loss)
    doubler = player if decision.kind == "cube" else 1 - player
    cube = cube_decision(state.position_for(doubler), MatchContext.of(state, doubler), plies=plies)
    return _cube_opinion(decision, cube)


def _cube_opinion(decision: _Decision, cube: CubeDecision) -> Opinion:
    """An engine's opinion of a cube decision from its equities of no double, double/take
    and double/pass for the player who may double."""
    if decision.kind == "take":
        took = isinstance(decision.event, Take)
        return Opinion("Take" if cube.should_take() else "Drop", cube.take_loss(took))
    doubled = isinstance(decision.event, Double)
    best = "Double" if cube.should_double() else "No double"
    lost = cube.double_loss(doubled)
    return Opinion(best, lost, counts=doubled or lost > 0 or cube.best - cube.double < CLOSE_CUBE)


def _played(decision: _Decision) -> Play:
    event, state = decision.event, decision.state
    assert isinstance(event, PlayMade) and state.dice is not None
    return parse_play(event.notation, state.position_for(decision.player), state.dice)


def _gnubg_opinions(
    found: list[_Decision], records: Mapping[int, GnubgRecord]
) -> dict[int, Opinion]:
    """gnubg's opinion of each decision, from its record of the same event (a chance to double:
    the record of the roll that followed; a take or drop: that of the double before it).
    Raises GnubgError where gnubg's records do not show the decisions of ``found``."""
    indexes = sorted(records)
    opinions: dict[int, Opinion] = {}
    double: GnubgRecord | None = None
    for decision in found:
        event, state, player = decision.event, decision.state, decision.player
        if isinstance(event, PlayMade):
            record = _record(records, decision.index, "move", decision)
            if record.chosen is None or not record.plays:
                continue
            assert state.dice is not None
            before = state.position_for(player)
            best, chosen = record.plays[0], record.plays[record.chosen]
            reached = before.apply(chosen.play(before, state.dice)).points
            if reached != before.apply(_played(decision)).points:
                raise GnubgError(f"gnubg read another play at event {decision.index}")
            best_play = format_play(best.play(before, state.dice))
            opinions[decision.index] = Opinion(best_play, best.equity - chosen.equity)
            continue
        if isinstance(event, Double):
            record = double = _record(records, decision.index, "double", decision)
        elif isinstance(event, Roll):
            later = bisect.bisect_left(indexes, decision.index)
            if later == len(indexes):
                raise GnubgError(f"gnubg has no roll for event {decision.index}")
            record = _record(records, indexes[later], "move", decision)
            if record.dice is None or sorted(record.dice) != [event.dice.low, event.dice.high]:
                raise GnubgError(f"gnubg read another roll at event {decision.index}")
        else:
            _record(records, decision.index, event.kind, decision)
            if double is None:
                raise GnubgError(f"gnubg has no double before event {decision.index}")
            record = double
        if record.cube is not None:
            opinions[decision.index] = _cube_opinion(decision, record.cube)
    return opinions


def _record(
    records: Mapping[int, GnubgRecord], index: int, action: str, decision: _Decision
) -> GnubgRecord:
    """gnubg's record of event ``index``, checked against the decision it should show."""
    record = records.get(index)
    if record is None or record.action != action or record.player != decision.player:
        raise GnubgError(f"gnubg has no {action} by player {decision.player} at event {index}")
    if record.position_id not in (None, decision.state.position_id(decision.player)):
        raise GnubgError(f"gnubg saw another position at event {index}")
    return record
