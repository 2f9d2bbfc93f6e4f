"""The move list beside a match's board and its replay: the match game by game in two columns,
as .mat writes it (games.engine.mat.move_list), each entry linking to its step in the replay,
each game to the step where it starts."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine.mat import GameMoves, MoveCell, move_list
from games.log.records import LoggedEvent, match_log, read_log, rules_of_log
from games.models import Match
from games.views.match_words import points_words

CACHE_SECONDS = 15 * 60

#: Analysis marks from the mildest; a list entry wears the worst of its decisions'.
MARKS = ("error", "blunder")


@dataclass(frozen=True)
class Entry:
    text: str
    url: str
    step: int
    mark: str = ""


@dataclass(frozen=True)
class GameLines:
    number: int
    score: tuple[int, int]
    lines: list[tuple[Entry | None, Entry | None]]
    result: str
    start_step: int
    start_url: str


@dataclass(frozen=True)
class LogMoves:
    """A log's move list: its games, and the replay step of each engine event it indexes."""

    games: list[GameMoves]
    steps: list[int]

    @classmethod
    def of(cls, match_length: int, log: list[LoggedEvent]) -> LogMoves:
        logged = list(read_log(log))
        return cls(
            move_list(
                match_length,
                [event for _, event in logged if event is not None],
                rules_of_log(log),
            ),
            [row.step for row, event in logged if event is not None],
        )

    def lines(
        self,
        names: tuple[str, str],
        link: Callable[[int], str],
        reviews: Mapping[int, Mapping[str, Any]] | None = None,
    ) -> list[GameLines]:
        """The list as pages show it: ``link(step)`` is the replay's address of a step, and
        ``reviews`` (the analysis's decisions by step) mark each entry with the worst mark of
        the decisions it holds (a roll's decision to double or not is its play's)."""
        marks = self._marks(reviews or {})

        def entry(cell: MoveCell | None) -> Entry | None:
            if cell is None:
                return None
            step = self.steps[cell.event]
            return Entry(cell.text.strip() or _("(no move)"), link(step), step, marks.get(step, ""))

        return [
            GameLines(
                game.number,
                game.score,
                [(entry(first), entry(second)) for first, second in game.lines],
                ""
                if game.winner is None
                else _("%(winner)s wins %(points)s")
                % {"winner": names[game.winner], "points": points_words(game.points)},
                self.steps[game.start],
                link(self.steps[game.start]),
            )
            for game in self.games
        ]

    def _marks(self, reviews: Mapping[int, Mapping[str, Any]]) -> dict[int, str]:
        entry_steps = sorted(
            self.steps[cell.event]
            for game in self.games
            for line in game.lines
            for cell in line
            if cell is not None
        )
        marks: dict[int, str] = {}
        for step, review in reviews.items():
            mark = review.get("mark") or ""
            at = bisect_left(entry_steps, step)
            if mark in MARKS and at < len(entry_steps):
                holder = entry_steps[at]
                marks[holder] = max(marks.get(holder, mark), mark, key=MARKS.index)
        return marks


def current_entry(games: list[GameLines], step: int) -> int | None:
    """The step of the entry a replay at ``step`` shows: the last one made by then."""
    made = [
        entry.step
        for game in games
        for line in game.lines
        for entry in line
        if entry is not None and entry.step <= step
    ]
    return max(made, default=None)


def match_moves(match: Match, names: tuple[str, str]) -> list[GameLines]:
    """The move list of ``match``; kept by its seq and digest, as its log up to them never
    changes."""
    key = f"move-list:{match.pk}:{match.seq}:{match.head_digest}"
    moves: LogMoves | None = cache.get(key)
    if moves is None:
        moves = LogMoves.of(match.match_length, match_log(match))
        cache.set(key, moves, CACHE_SECONDS)
    replay = reverse("match-replay", kwargs={"match_id": match.pk})
    return moves.lines(names, lambda step: f"{replay}?step={step}")
