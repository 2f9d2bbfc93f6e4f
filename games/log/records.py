"""Stored events read back as the rules engine's events: the one reader of every log.

A log is stored as rows of ``kind`` and ``payload``: a match's MatchEvent rows, or the entries
of an imported match (ImportedMatch.events). Most rows are engine events; the record kinds
(``RECORD_KINDS``) are written for the record and never folded by the engine. Whoever reads a
log for its events (the integrity check, the .mat export, the analysis, the replay) reads it
here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from games.engine import Event, MatchRules, event_from_payload
from games.models import ImportedMatch, Match, MatchEvent

#: Kinds the service writes for the record that the rules engine does not fold.
RECORD_KINDS = frozenset({"match_started", "dice_revealed"})


class StoredEvent(Protocol):
    """A stored row of a log: a MatchEvent or a LoggedEvent."""

    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> Mapping[str, Any]: ...


Row = TypeVar("Row", bound=StoredEvent)


@dataclass(frozen=True)
class LoggedEvent:
    """One event of a log, from a match's log or an imported file, with its place in it.

    ``step`` is its place from 1 (a match event's seq); ``by`` the user who acted (None for
    the server, and for imported events); ``server_made`` marks an event no user made, such
    as a play the server made for a player.
    """

    step: int
    kind: str
    payload: dict[str, Any]
    by: str | None = None
    server_made: bool = False


def read_log(rows: Iterable[Row]) -> Iterator[tuple[Row, Event | None]]:
    """Each row, in order, with the engine event it records; None for a record kind.

    A payload the engine cannot read raises an ``EngineError`` when its row is reached.
    """
    for row in rows:
        if row.kind in RECORD_KINDS:
            yield row, None
        else:
            yield row, event_from_payload(row.kind, row.payload)


def engine_events(rows: Iterable[StoredEvent]) -> Iterator[Event]:
    """The engine events of a log's rows, in order, without the record kinds."""
    return (event for _, event in read_log(rows) if event is not None)


def match_log(match: Match) -> list[LoggedEvent]:
    """A match's log, first to last."""
    return [logged_event(event) for event in match.events.select_related("actor").order_by("seq")]


def logged_event(event: MatchEvent) -> LoggedEvent:
    """A match's stored event as its log reads it (its actor read with it)."""
    return LoggedEvent(
        step=event.seq,
        kind=event.kind,
        payload=event.payload,
        by=event.actor.get_username() if event.actor is not None else None,
        server_made=event.actor_id is None,
    )


def imported_log(imported: ImportedMatch) -> list[LoggedEvent]:
    """An imported match's events, first to last, each at its place in the file."""
    return [
        LoggedEvent(step=step, kind=entry["kind"], payload=entry["payload"])
        for step, entry in enumerate(imported.events, start=1)
    ]


def rules_of_log(rows: Iterable[StoredEvent]) -> MatchRules:
    """The rules a log's ``match_started`` record states; backgammon's for a log without one
    (an imported match) or from before variants."""
    for row in rows:
        if row.kind == "match_started":
            return MatchRules.from_payload(row.payload)
        break
    return MatchRules()


def began_between_guests(started: Mapping[str, Any]) -> bool:
    """Whether a match's ``match_started`` payload records its players as guests and computer
    opponents, at least one a guest (accounts.models.player_kind)."""
    kinds = started.get("player_kinds")
    return (
        isinstance(kinds, list)
        and len(kinds) == len(started.get("player_ids") or ())
        and set(kinds) <= {"guest", "computer"}
        and "guest" in kinds
    )
