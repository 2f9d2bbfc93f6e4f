"""Dice statistics for the whole site and each player, counted from the matches' logs.

Each roll adds one to a counter row (scope, first die, second die); a page reads at most 36
rows for a scope, so its cost does not grow with the number of rolls. Faces and doubles are
sums of those counters; the chi-square tests compare them with fair dice.

The rolls are counted every minute (``count_logged_rolls``, a periodic task), not in the
transaction that makes them: every roll of the site adds to the same site rows, and counting
there held those rows' locks, shared by every match, until the match's transaction ended. Each
match keeps the seq up to which its rolls are counted (``Match.dice_counted_seq``), moved in
the transaction that adds them, so a count is never lost nor made twice, whatever stops when.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F

from games.models import DicePairCount, Match, MatchEvent

SITE = "site"
#: The log's events that are a roll of the server's dice.
ROLL_KINDS = ("opening_roll", "roll")


def scope_of(user_id: int | None) -> str:
    return SITE if user_id is None else f"player:{user_id}"


def count_rolls(rolls: Iterable[tuple[int | None, int, int]]) -> None:
    """Count each (roller's user id or None for an opening roll, first die, second die).

    One statement adds them all, making the rows a pair's first roll needs. It takes the rows'
    locks in one order (the rows' own), so two matches counting the same pairs never wait on
    each other in a circle."""
    counts: Counter[tuple[str, int, int]] = Counter()
    for roller, first, second in rolls:
        counts[(SITE, first, second)] += 1
        if roller is not None:
            counts[(scope_of(roller), first, second)] += 1
    if not counts:
        return
    quote = connection.ops.quote_name
    table, count = quote(DicePairCount._meta.db_table), quote("count")
    columns = ", ".join(quote(name) for name in ("scope", "first", "second", "count"))
    keys = ", ".join(quote(name) for name in ("scope", "first", "second"))
    rows = sorted(counts.items())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES {', '.join(['(%s, %s, %s, %s)'] * len(rows))} "
            f"ON CONFLICT ({keys}) DO UPDATE SET {count} = {table}.{count} + excluded.{count}",
            [
                value
                for (scope, first, second), added in rows
                for value in (scope, first, second, added)
            ],
        )


def count_logged_rolls(*, batch: int = 500) -> int:
    """Count the rolls logged since the last count, ``batch`` matches a transaction; how many.

    The matches counted are locked meanwhile, so the seq read is the seq whose events have
    committed, and two counts at once count each roll once; a match locked by an action is
    left for the next count rather than waited for."""
    counted = 0
    while True:
        with transaction.atomic():
            matches = {
                pk: players
                for pk, *players in Match.objects.select_for_update(skip_locked=True)
                .filter(seq__gt=F("dice_counted_seq"))
                .order_by("pk")
                .values_list("pk", "first_player_id", "second_player_id")[:batch]
            }
            if not matches:
                return counted
            rolls = []
            for match_id, kind, payload in MatchEvent.objects.filter(
                match_id__in=matches, kind__in=ROLL_KINDS, seq__gt=F("match__dice_counted_seq")
            ).values_list("match_id", "kind", "payload"):
                roller = None if kind == "opening_roll" else matches[match_id][payload["player"]]
                rolls.append((roller, *payload["dice"]))
            count_rolls(rolls)
            Match.objects.filter(pk__in=matches).update(dice_counted_seq=F("seq"))
            counted += len(rolls)
        if len(matches) < batch:
            return counted


@dataclass(frozen=True)
class Test:
    """A chi-square test of observed counts against fair dice."""

    statistic: float
    degrees_of_freedom: int
    p_value: float


@dataclass(frozen=True)
class DiceReport:
    rolls: int
    pairs: dict[tuple[int, int], int]
    faces: dict[int, int]
    doubles: int
    faces_test: Test | None
    pairs_test: Test | None
    doubles_test: Test | None

    @property
    def expected_face(self) -> float:
        return self.rolls * 2 / 6

    @property
    def expected_pair(self) -> float:
        return self.rolls / 36

    @property
    def expected_doubles(self) -> float:
        return self.rolls / 6


def report(scope: str = SITE) -> DiceReport:
    """The counts of a scope and how they compare with fair dice."""
    pairs = {(a, b): 0 for a in range(1, 7) for b in range(1, 7)}
    for first, second, count in DicePairCount.objects.filter(scope=scope).values_list(
        "first", "second", "count"
    ):
        pairs[(first, second)] = count
    rolls = sum(pairs.values())
    faces = {face: 0 for face in range(1, 7)}
    for (first, second), count in pairs.items():
        faces[first] += count
        faces[second] += count
    doubles = sum(pairs[(face, face)] for face in range(1, 7))
    if not rolls:
        return DiceReport(0, pairs, faces, 0, None, None, None)
    return DiceReport(
        rolls=rolls,
        pairs=pairs,
        faces=faces,
        doubles=doubles,
        faces_test=chi_square(list(faces.values()), [rolls * 2 / 6] * 6),
        pairs_test=chi_square(list(pairs.values()), [rolls / 36] * 36),
        doubles_test=chi_square([doubles, rolls - doubles], [rolls / 6, rolls * 5 / 6]),
    )


def chi_square(observed: list[int], expected: list[float]) -> Test:
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    dof = len(observed) - 1
    return Test(statistic, dof, chi_square_p_value(statistic, dof))


def chi_square_p_value(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable: the regularized upper gamma Q(dof/2, x/2)."""
    if statistic <= 0:
        return 1.0
    return _upper_gamma(dof / 2, statistic / 2)


def _upper_gamma(a: float, x: float) -> float:
    # Numerical Recipes: the series for x < a + 1, Lentz's continued fraction above.
    log_prefix = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1 / a
        denominator = a
        for _ in range(1000):
            denominator += 1
            term *= x / denominator
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_prefix))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)
