"""A match's log: the digest chain, folding the log back into a state, and checking both."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from games.engine import EngineError, MatchState, fold, snapshot
from games.log.records import (
    LoggedEvent,
    StoredEvent,
    engine_events,
    logged_event,
    rules_of_log,
)
from games.models import GENESIS_DIGEST, Match, MatchEvent


def event_digest(
    previous: str,
    *,
    match_id: int,
    seq: int,
    kind: str,
    payload: Mapping[str, Any],
    actor_id: int | None,
    created_at: datetime,
) -> str:
    """SHA-256 over the previous digest and the event's canonical JSON."""
    body = json.dumps(
        {
            "match": match_id,
            "seq": seq,
            "kind": kind,
            "payload": payload,
            "actor": actor_id,
            "created_at": created_at.isoformat(),
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256((previous + body).encode()).hexdigest()


def stored_event_digest(previous: str, event: MatchEvent) -> str:
    """The digest a stored event should have, chained to ``previous``."""
    return event_digest(
        previous,
        match_id=event.match_id,
        seq=event.seq,
        kind=event.kind,
        payload=event.payload,
        actor_id=event.actor_id,
        created_at=event.created_at,
    )


def log_after(match: Match, seq: int, digest: str) -> list[LoggedEvent] | None:
    """The events of ``match``'s log after its event ``seq``, whose digest the caller knows as
    ``digest``: what a reader who kept the log up to there needs to read to be at the match's
    head (``match.seq``; from seq 0 and ``GENESIS_DIGEST``, the whole log). None when the log
    does not go on from that digest to the match's head (another log under the same id, as a
    restored copy of the database may hold)."""
    after = match.events.filter(seq__gt=seq, seq__lte=match.seq)
    rows = list(after.select_related("actor").order_by("seq"))
    if not rows:
        return [] if (seq, digest) == (match.seq, match.head_digest) else None
    first = rows[0]
    chained = first.seq == seq + 1 and first.digest == stored_event_digest(digest, first)
    if not chained or (rows[-1].seq, rows[-1].digest) != (match.seq, match.head_digest):
        return None
    return [logged_event(row) for row in rows]


def fold_events(match_length: int, events: Iterable[StoredEvent]) -> MatchState:
    """The state a log leads to, replaying every event through the rules engine by the rules
    its first record states."""
    rows = list(events)
    return fold(match_length, engine_events(rows), rules_of_log(rows))


def log_problems(match: Match) -> list[str]:
    """Everything wrong with a match's log and snapshot; empty when they are sound."""
    problems: list[str] = []
    events = list(match.events.order_by("seq"))
    previous = GENESIS_DIGEST
    for expected_seq, event in enumerate(events, 1):
        if event.seq != expected_seq:
            problems.append(f"event #{event.seq} where #{expected_seq} was expected")
            break
        digest = stored_event_digest(previous, event)
        if digest != event.digest:
            problems.append(f"event #{event.seq} ({event.kind}) does not match its digest")
            break
        previous = event.digest
    problems += _record_problems(match, events)
    last_seq = events[-1].seq if events else 0
    if match.seq != last_seq:
        problems.append(f"the match says seq {match.seq} but its log ends at #{last_seq}")
    if match.head_digest != previous and not problems:
        problems.append("the match's head digest is not its last event's")
    try:
        state = fold_events(match.match_length, events)
    except EngineError as error:
        problems.append(f"the log does not replay: {error}")
        return problems
    if snapshot(state) != match.state:
        problems.append("the snapshot differs from the replayed log")
    finished = state.is_finished()
    if finished != (match.status == Match.Status.FINISHED):
        problems.append(f"status {match.status!r} but the log says finished={finished}")
    winner_id = None if state.winner is None else match.players[state.winner].pk
    if match.winner_id != winner_id:
        problems.append("the recorded winner is not the log's")
    to_act = state.player_to_act()
    if match.to_act_id != (None if to_act is None else match.players[to_act].pk):
        problems.append("the player to act on the match row is not the log's")
    return problems


def _record_problems(match: Match, events: list[MatchEvent]) -> list[str]:
    """The match row against its first event, and each player's event against its actor."""
    problems: list[str] = []
    if not events or events[0].kind != "match_started":
        return ["the log does not begin with match_started"]
    started = events[0].payload
    expected = {
        "player_ids": [match.first_player_id, match.second_player_id],
        "match_length": match.match_length,
        "rated": match.rated,
        "time_control": match.time_control,
    }
    for name, value in expected.items():
        if started.get(name) != value:
            problems.append(f"the match's {name.replace('_', ' ')} is not the one it started with")
    player_ids = (match.first_player_id, match.second_player_id)
    for event in events[1:]:
        player = event.payload.get("player")
        if event.actor_id is not None and player in (0, 1) and event.actor_id != player_ids[player]:
            problems.append(f"event #{event.seq} ({event.kind}) was made by someone else")
    return problems
