"""The move list beside a match's board: the match game by game in two columns, as .mat writes
it (games.engine.mat.move_list), each entry linking to its step in the replay."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.urls import reverse
from django.utils.translation import gettext as _

from games.engine.mat import GameMoves, MoveCell, move_list
from games.log.records import match_log, read_log, rules_of_log
from games.models import Match
from games.views.match_words import points_words

CACHE_SECONDS = 15 * 60


@dataclass(frozen=True)
class Entry:
    text: str
    url: str


@dataclass(frozen=True)
class GameLines:
    number: int
    score: tuple[int, int]
    lines: list[tuple[Entry | None, Entry | None]]
    result: str


def match_moves(match: Match, names: tuple[str, str]) -> list[GameLines]:
    """The move list of ``match``; kept by its seq and digest, as its log up to them never
    changes."""
    key = f"moves:{match.pk}:{match.seq}:{match.head_digest}"
    cached: tuple[list[GameMoves], list[int]] | None = cache.get(key)
    if cached is None:
        logged = list(read_log(match_log(match)))
        events = [event for _row, event in logged if event is not None]
        rules = rules_of_log([row for row, _event in logged])
        cached = (
            move_list(match.match_length, events, rules),
            [row.step for row, event in logged if event is not None],
        )
        cache.set(key, cached, CACHE_SECONDS)
    games, steps = cached
    replay = reverse("match-replay", kwargs={"match_id": match.pk})

    def entry(cell: MoveCell | None) -> Entry | None:
        if cell is None:
            return None
        return Entry(cell.text.strip() or _("(no move)"), f"{replay}?step={steps[cell.event]}")

    return [
        GameLines(
            game.number,
            game.score,
            [(entry(first), entry(second)) for first, second in game.lines],
            ""
            if game.winner is None
            else _("%(winner)s wins %(points)s")
            % {"winner": names[game.winner], "points": points_words(game.points)},
        )
        for game in games
    ]
