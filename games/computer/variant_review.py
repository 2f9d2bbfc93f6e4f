"""Luck in any variant: how much each roll helped or hurt the player who rolled it.

Django-free, a pure function over a match's engine events, as ``review`` is. A roll's luck is
the equity after the best play of the dice rolled minus the average of that over all 21
rolls (the 15 rolls without a double for an opening roll that plays its dice), each judged
at one ply by the evaluator that plays the variant (``decisions.best_equity``) and from the
roller's side: a positive luck was a good roll. Over many rolls luck averages out, so a
player's total says how much of the result the dice decided.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from games.computer.decisions import best_equity
from games.computer.variant_player import ROLLS
from games.engine import Dice, Event, MatchRules, MatchState, OpeningRoll, Roll

LUCK_PLIES = 1


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll: ``index`` is its event's place in the list reviewed."""

    index: int
    player: int
    dice: str
    luck: float


@dataclass(frozen=True, slots=True)
class LuckReview:
    rolls: tuple[RollLuck, ...]

    def total(self, player: int) -> float:
        return sum(roll.luck for roll in self.rolls if roll.player == player)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: each player's rolls and total luck, and every roll's luck."""
        return {
            "kind": "luck",
            "plies": LUCK_PLIES,
            "players": [
                {
                    "rolls": sum(roll.player == player for roll in self.rolls),
                    "luck": round(self.total(player), 4),
                }
                for player in (0, 1)
            ],
            "decisions": [],
            "luck": [{**asdict(roll), "luck": round(roll.luck, 4)} for roll in self.rolls],
        }


def review_luck(
    match_length: int, events: Iterable[Event], *, rules: MatchRules | None = None
) -> LuckReview:
    """The luck of every roll of the match that ``events`` (engine events, in order) make up,
    played by ``rules`` (backgammon's unless given)."""
    state = MatchState.new(match_length, rules)
    rolls: list[RollLuck] = []
    for index, event in enumerate(events):
        after = state.apply(event)
        if isinstance(event, Roll) and state.phase == "rolling":
            rolls.append(_luck(index, state, event.player, event.dice, opening=False))
        elif isinstance(event, OpeningRoll) and after.dice is not None and after.turn is not None:
            rolls.append(_luck(index, state, after.turn, after.dice, opening=True))
        state = after
    return LuckReview(tuple(rolls))


def roll_luck(state: MatchState, player: int, dice: Dice, *, opening: bool = False) -> float:
    """The luck of ``dice`` rolled by ``player`` in ``state`` (before the roll)."""
    rolls = [(roll, ways) for roll, ways in ROLLS if not (opening and roll.is_double())]
    equities = {roll: best_equity(state, player, roll) for roll, _ in rolls}
    average = sum(ways * equities[roll] for roll, ways in rolls) / sum(ways for _, ways in rolls)
    return equities[Dice(dice.high, dice.low)] - average


def _luck(index: int, state: MatchState, player: int, dice: Dice, *, opening: bool) -> RollLuck:
    return RollLuck(index, player, str(dice), roll_luck(state, player, dice, opening=opening))
