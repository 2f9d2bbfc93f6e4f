"""Checking a match's dice from its log alone, as any player can (docs/dice.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.dice.rolls import commitment, roll

ROLL_KINDS = ("opening_roll", "roll")


@dataclass(frozen=True)
class RollCheck:
    index: int
    seq: int
    kind: str
    dice: tuple[int, int]
    expected: tuple[int, int] | None

    @property
    def matches(self) -> bool | None:
        return None if self.expected is None else self.dice == self.expected


@dataclass(frozen=True)
class DiceCheck:
    """What a log says about its dice; ``server_seed`` is None until the match ends."""

    commitment: str
    player_seeds: tuple[str, str]
    server_seed: str | None
    commitment_matches: bool | None
    rolls: tuple[RollCheck, ...]

    @property
    def verifiable(self) -> bool:
        return self.server_seed is not None

    @property
    def all_match(self) -> bool | None:
        if not self.verifiable:
            return None
        return bool(self.commitment_matches) and all(roll.matches for roll in self.rolls)

    @property
    def mismatches(self) -> list[RollCheck]:
        return [roll for roll in self.rolls if roll.matches is False]


def check_dice(events: Iterable[tuple[int, str, Mapping[str, Any]]]) -> DiceCheck:
    """Recompute every roll of a log given as (seq, kind, payload), first event first."""
    events = list(events)
    started = events[0][2]["dice"]
    seeds = (str(started["player_seeds"][0]), str(started["player_seeds"][1]))
    revealed = next((p["server_seed"] for _, kind, p in events if kind == "dice_revealed"), None)
    server_seed = _seed_bytes(revealed)
    checks = []
    for seq, kind, payload in events:
        if kind not in ROLL_KINDS:
            continue
        index = len(checks)
        expected = None if server_seed is None else roll(server_seed, seeds, index)
        rolled = (int(payload["dice"][0]), int(payload["dice"][1]))
        checks.append(RollCheck(index, seq, kind, rolled, expected))
    committed = str(started["server_seed_commitment"])
    matches = None if server_seed is None else commitment(server_seed) == committed
    return DiceCheck(
        commitment=committed,
        player_seeds=seeds,
        server_seed=revealed,
        commitment_matches=matches,
        rolls=tuple(checks),
    )


def _seed_bytes(revealed: object) -> bytes | None:
    if revealed is None:
        return None
    try:
        return bytes.fromhex(str(revealed))
    except ValueError:
        return b""
