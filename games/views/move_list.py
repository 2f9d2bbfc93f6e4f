"""The move list beside a match's board and its replay: the match game by game in two columns,
as .mat writes it (games.engine.mat.move_list), each entry linking to its step in the replay,
each game to the step where it starts."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine.mat import GameMoves, MoveCell, MoveList
from games.log.integrity import log_after
from games.log.records import LoggedEvent, match_log, read_log, rules_of_log
from games.models import GENESIS_DIGEST, Match
from games.views.match_words import points_words

#: A match's list is kept between its moves, which in correspondence play come hours apart.
KEEP_SECONDS = 24 * 60 * 60

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
    """A log's move list, and the replay step of each engine event it indexes."""

    moves: MoveList
    steps: tuple[int, ...] = ()

    @classmethod
    def of(cls, match_length: int, log: Sequence[LoggedEvent]) -> LogMoves:
        return cls(MoveList.new(match_length, rules_of_log(log))).extended(log)

    @property
    def games(self) -> tuple[GameMoves, ...]:
        return self.moves.games()

    def extended(self, log: Iterable[LoggedEvent]) -> LogMoves:
        """The list with the log's next events added."""
        logged = [(row.step, event) for row, event in read_log(log) if event is not None]
        return LogMoves(
            self.moves.extended(event for _, event in logged),
            self.steps + tuple(step for step, _ in logged),
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


@dataclass(frozen=True)
class KeptMoves:
    """A match's move list as kept in the cache: up to its event ``seq``, whose digest is
    ``head``."""

    seq: int
    head: str
    moves: LogMoves


def match_moves(match: Match, names: tuple[str, str]) -> list[GameLines]:
    """The move list of ``match`` at its seq."""
    replay = reverse("match-replay", kwargs={"match_id": match.pk})
    return log_moves(match).lines(names, lambda step: f"{replay}?step={step}")


def log_moves(match: Match) -> LogMoves:
    """The move list of ``match``'s log up to its seq: the list kept for the match, extended
    by the events after it; the whole log is read only when none is kept (or the kept one is
    not of this log, or ahead of this reading of the match)."""
    key = f"move-list:{match.pk}"
    kept: KeptMoves | None = cache.get(key)
    if kept is not None and (kept.seq, kept.head) == (match.seq, match.head_digest):
        return kept.moves
    following = None
    if kept is not None and kept.seq < match.seq:
        following = log_after(match, kept.seq, kept.head)
    if kept is not None and following is not None:
        moves = kept.moves.extended(following)
    else:
        log = log_after(match, 0, GENESIS_DIGEST)
        if log is None:  # a log whose chain is broken: shown as it is, never kept
            return LogMoves.of(match.match_length, match_log(match))
        moves = LogMoves.of(match.match_length, log)
    cache.set(key, KeptMoves(match.seq, match.head_digest, moves), KEEP_SECONDS)
    return moves
