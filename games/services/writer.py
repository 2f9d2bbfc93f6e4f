"""The event writer: what one service call appends to a locked match's log, and how it is saved.

``MatchWriter`` applies each event to the state through the rules and chains it to the log's
digest; ``save`` then writes the events and the snapshot in the transaction, and with them the
clocks, the result and its ratings, and the announcement on commit. The dice statistics count
the rolls from the log afterwards (games/dice/statistics.py), outside the match's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from backgammon_site.core.errors import IllegalAction
from games.dice.seed_vault import decrypt_seed
from games.engine import EngineError, MatchState, OpeningRoll, PlayMade, Roll, TimedOut
from games.engine.events import Event
from games.log.integrity import event_digest
from games.models import Match, MatchEvent, Player
from games.services.announcements import NOT_DECISIONS, announce
from games.services.deadlines import restart_clocks
from ratings.services import rate_match


@dataclass
class MatchWriter:
    """The events a service call appends, and the state they lead to."""

    match: Match
    state: MatchState
    new_events: list[MatchEvent] = field(default_factory=list)
    moves_made: list[int] = field(default_factory=lambda: [0, 0])
    deciding: int | None = None
    #: The call made or answered an offer to end the match: the decision waiting (and its
    #: clock) is not the one answered, and goes on.
    decision_goes_on: bool = False
    #: The user whose action this call applies, if a player's.
    acted_by: int | None = None
    #: The seq of that action's event, if it was a decision (``last_decision``'s answer, known
    #: without reading the log); None if the call made none.
    decided_at: int | None = None

    def __post_init__(self) -> None:
        self.deciding = self.state.player_to_act() if self.match.seq else None

    def append(self, event: Event, actor: Player | None = None) -> None:
        """Apply ``event`` (by ``actor``, if a person's) and add it to the log; IllegalAction
        with the rules' reason if they refuse it."""
        try:
            self.state = self.state.apply(event)
        except EngineError as error:
            raise IllegalAction(str(error)) from None
        if isinstance(event, OpeningRoll | Roll):
            self.match.rolls_made += 1
        if isinstance(event, PlayMade):
            self.moves_made[event.player] += 1
        if actor is not None:
            self.acted_by = actor.pk
        self.record(event.kind, event.to_payload(), actor)
        if actor is not None and event.kind not in NOT_DECISIONS:
            self.decided_at = self.match.seq

    def time_out(self) -> None:
        """The player to act has run out of time."""
        loser = self.state.player_to_act()
        assert loser is not None
        self.append(TimedOut(loser))

    def record(self, kind: str, payload: dict[str, Any], actor: Player | None = None) -> None:
        """Add an event to the log as it is, chained to the log's last digest."""
        event = _chained_event(self.match, kind=kind, payload=payload, actor=actor)
        self.new_events.append(event)
        self.match.seq, self.match.head_digest = event.seq, event.digest

    def save(self) -> None:
        """Write the events, the snapshot and what follows from them, in the transaction."""
        match, state = self.match, self.state
        finishing = state.is_finished() and match.status != Match.Status.FINISHED
        if finishing:
            server_seed = decrypt_seed(match.server_seed_ciphertext)
            self.record("dice_revealed", {"server_seed": server_seed.hex()})
        MatchEvent.objects.bulk_create(self.new_events)
        match.keep_state(state)
        match.updated_at = timezone.now()
        to_act = state.player_to_act()
        match.to_act = None if to_act is None else match.players[to_act]
        fields = ["seq", "head_digest", "state", "updated_at", "to_act", "rolls_made"]
        if match.answer_ahead is not None and match.answer_ahead["seq"] != match.seq:
            match.answer_ahead = None
            fields.append("answer_ahead")
        if not (self.decision_goes_on and not state.is_finished()):
            restart_clocks(
                match,
                state,
                decided_by=self.deciding,
                moves_made=self.moves_made,
                now=match.updated_at,
            )
            fields += ["clocks", "deadline", "warn_at", "paused_time_left"]
        if finishing:
            fields += _finish(match, state)
        match.save(update_fields=fields)
        if finishing:
            _rate(match)
        announce(match, acted_by=self.acted_by, decided_at=self.decided_at)


def _chained_event(
    match: Match, *, kind: str, payload: dict[str, Any], actor: Player | None
) -> MatchEvent:
    """The match's next event (not saved), its digest chained to the match's head digest."""
    seq = match.seq + 1
    created_at = timezone.now()
    actor_id = actor.pk if actor is not None else None
    digest = event_digest(
        match.head_digest,
        match_id=match.pk,
        seq=seq,
        kind=kind,
        payload=payload,
        actor_id=actor_id,
        created_at=created_at,
    )
    return MatchEvent(
        match=match,
        seq=seq,
        kind=kind,
        payload=payload,
        actor_id=actor_id,
        created_at=created_at,
        digest=digest,
    )


def _finish(match: Match, state: MatchState) -> list[str]:
    """Mark the match finished as ``state`` ends it, now; the names of the fields changed."""
    match.status = Match.Status.FINISHED
    match.winner = None if state.winner is None else match.players[state.winner]
    match.finished_at = match.updated_at
    return ["status", "winner", "finished_at"]


def _rate(match: Match) -> None:
    """Rate the match just finished, in the transaction of its final event: the result and the
    ratings go together."""
    rate_match(
        match_id=match.pk,
        player_ids=(match.first_player_id, match.second_player_id),
        winner_id=match.winner_id,
        rated=match.rated,
        finished_at=match.finished_at,
        match_length=match.match_length,
        variant=match.variant,
    )
