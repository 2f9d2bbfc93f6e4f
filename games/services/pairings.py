"""Who meets whom in each format, as pure functions of seeds and results: the brackets of a
knock-out and a double elimination, a Swiss round's pairings and a round robin's rounds
(docs/tournaments.md gives the rules). games/services/tournament_formats.py stores and plays
them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

MAIN, LOSERS, FINAL = "main", "losers", "final"

#: A pairing's place: (part, round, slot).
Place = tuple[str, int, int]


@dataclass(frozen=True)
class Feed:
    """Where a side of a pairing comes from: the winner or the loser of an earlier pairing."""

    place: Place
    winner: bool


def bracket_order(size: int) -> list[int]:
    """The seeds of a bracket of ``size`` (a power of two) from the top, in pairs: 1 v size,
    and so on, so that the top two seeds can meet only in the final."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, mirror - top)]
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds ``players``."""
    size = 1
    while size < players:
        size *= 2
    return size


def elimination_feeds(size: int, *, double: bool) -> dict[Place, tuple[Feed, Feed] | None]:
    """Every pairing of a knock-out (or a double elimination) of bracket ``size``, with where
    its two players come from; None for the first round's, which the seeds fill.

    The losers' bracket takes the first round's losers in pairs, then alternates a round that
    meets its survivors with the next winners' round's losers (in reverse order, so that two
    players who met in the winners' bracket do not meet again at once) and a round among its
    own survivors. The grand final is round 1 of the final; round 2 is its reset, played only
    when the losers' bracket's winner wins round 1."""
    rounds = size.bit_length() - 1
    feeds: dict[Place, tuple[Feed, Feed] | None] = {}
    for slot in range(size // 2):
        feeds[(MAIN, 1, slot)] = None
    for number in range(2, rounds + 1):
        for slot in range(size >> number):
            feeds[(MAIN, number, slot)] = (
                Feed((MAIN, number - 1, 2 * slot), True),
                Feed((MAIN, number - 1, 2 * slot + 1), True),
            )
    if not double:
        return feeds
    for stage in range(1, rounds):
        pairings = size >> (stage + 1)
        for slot in range(pairings):
            if stage == 1:
                feeds[(LOSERS, 1, slot)] = (
                    Feed((MAIN, 1, 2 * slot), False),
                    Feed((MAIN, 1, 2 * slot + 1), False),
                )
            else:
                feeds[(LOSERS, 2 * stage - 1, slot)] = (
                    Feed((LOSERS, 2 * stage - 2, 2 * slot), True),
                    Feed((LOSERS, 2 * stage - 2, 2 * slot + 1), True),
                )
        for slot in range(pairings):
            feeds[(LOSERS, 2 * stage, slot)] = (
                Feed((LOSERS, 2 * stage - 1, slot), True),
                Feed((MAIN, stage + 1, pairings - 1 - slot), False),
            )
    feeds[(FINAL, 1, 0)] = (
        Feed((MAIN, rounds, 0), True),
        Feed((LOSERS, 2 * (rounds - 1), 0), True),
    )
    feeds[(FINAL, 2, 0)] = (Feed((FINAL, 1, 0), True), Feed((FINAL, 1, 0), False))
    return feeds


def swiss_round_count(players: int) -> int:
    """The rounds a Swiss of ``players`` has unless chosen: enough for one player to be the
    only one who won them all (ceil(log2 players))."""
    return max(1, (players - 1).bit_length())


class NoPairing(Exception):
    """No pairing of the round avoids a rematch."""


#: How many opponents the search may try before it gives up on a round.
SEARCH_BUDGET = 200_000


def swiss_pairings(
    standing: Sequence[int],
    wins: Mapping[int, int],
    met: Collection[frozenset[int]],
    had_bye: Collection[int],
) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round: pairs of players (the higher placed first) and the player with the bye.

    ``standing`` lists the players best first (most wins, then the higher seed). With an odd
    number the bye goes to the lowest-placed player without a bye yet (or, should all have had
    one, the lowest-placed). The top player of the highest score group meets the player half
    way down the group (top half v bottom half); a group left with an odd player floats its
    lowest down to the next group; no two players meet twice. Raises NoPairing when no
    pairing of the round avoids a rematch."""
    players = list(standing)
    budget = [SEARCH_BUDGET]
    if len(players) % 2 == 0:
        found = _pair(players, wins, met, budget)
        if found is None:
            raise NoPairing
        return found, None
    candidates = [player for player in reversed(players) if player not in had_bye]
    for bye in candidates or list(reversed(players)):
        found = _pair([p for p in players if p != bye], wins, met, budget)
        if found is not None:
            return found, bye
    raise NoPairing


def _pair(
    players: list[int],
    wins: Mapping[int, int],
    met: Collection[frozenset[int]],
    budget: list[int],
) -> list[tuple[int, int]] | None:
    if not players:
        return []
    top, rest = players[0], players[1:]
    group = sum(1 for player in players if wins[player] == wins[top])
    half_way = group // 2
    order = sorted(
        range(len(rest)), key=lambda i: (wins[top] - wins[rest[i]], abs(i + 1 - half_way), i)
    )
    for index in order:
        opponent = rest[index]
        if frozenset((top, opponent)) in met:
            continue
        budget[0] -= 1
        if budget[0] < 0:
            return None
        found = _pair(rest[:index] + rest[index + 1 :], wins, met, budget)
        if found is not None:
            return [(top, opponent), *found]
    return None


def round_robin_rounds(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every pair of ``players`` once, in rounds by the circle method (with an odd number,
    each round one player sits out)."""
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    rounds = []
    for _ in range(len(seats) - 1):
        pairs = []
        for i in range(len(seats) // 2):
            first, second = seats[i], seats[len(seats) - 1 - i]
            if first is not None and second is not None:
                pairs.append((first, second))
        rounds.append(pairs)
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return rounds
