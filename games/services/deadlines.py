"""The clocks of a match's decisions: a decision ends, charging its time, and the next one's
deadline is set, or paused while its player is on vacation or suspended with their clocks
paused."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from games.clocks.rules import TimeControl, add_increments, warning_time
from games.engine import MatchState
from games.models import AuditRecord, Match, Player
from games.services.locks import preferences


def restart_clocks(
    match: Match,
    state: MatchState,
    *,
    decided_by: int | None,
    moves_made: Sequence[int],
    now: datetime,
) -> None:
    """End the decision ``decided_by`` answered (None: none), charging its time and the
    increments of the ``moves_made`` by each player, and start the next one."""
    control = TimeControl.of(match.time_control)
    clocks = list(match.clocks) or control.starting_clocks()
    moves = list(moves_made)
    if decided_by is not None:
        if match.deadline is not None:
            remaining = match.deadline - now
        else:
            remaining = timedelta(seconds=match.paused_time_left or 0)
        clocks[decided_by] = control.time_left_after(
            clocks[decided_by], remaining, moves[decided_by]
        )
        moves[decided_by] = 0
    match.clocks = add_increments(control, clocks, moves)
    match.deadline = match.warn_at = match.paused_time_left = None
    to_act = state.player_to_act()
    if state.is_finished() or to_act is None or control.untimed:
        return
    allowance = control.allowance(match.clocks[to_act])
    player = match.players[to_act]
    on_vacation = preferences(player).vacation_started_at is not None
    if (not control.live and on_vacation) or clocks_paused_by_suspension(player):
        match.paused_time_left = allowance.total_seconds()
        return
    set_deadline(match, control=control, deadline=now + allowance, now=now)


def set_deadline(match: Match, *, control: TimeControl, deadline: datetime, now: datetime) -> None:
    """The decision waiting is due at ``deadline``; its player is warned before, if there is
    still time to."""
    match.deadline = deadline
    warn_at = warning_time(control, deadline)
    match.warn_at = warn_at if warn_at is not None and warn_at > now else None


def clocks_paused_by_suspension(user: Player) -> bool:
    """Whether ``user`` is suspended with their clocks paused: a decision that comes to them
    then waits, paused, like the ones that were waiting at the suspension."""
    if user.is_active:
        return False
    last = (
        AuditRecord.objects.filter(
            modified_user=user,
            kind__in=(AuditRecord.Kind.ACCOUNT_SUSPENDED, AuditRecord.Kind.ACCOUNT_REACTIVATED),
        )
        .values_list("kind", "details")
        .first()
    )
    return (
        last is not None
        and last[0] == AuditRecord.Kind.ACCOUNT_SUSPENDED
        and last[1].get("running_matches") == "pause"
    )
