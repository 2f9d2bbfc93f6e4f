"""Matches at the points the service tests start from, and checks of what they wrote."""

from __future__ import annotations

import pytest

from games.dice.seed_vault import decrypt_seed
from games.log.integrity import log_problems
from games.models import Match, MatchEvent
from tests.games.factories import act, events_of, reload, start_match


def opened(dice, alice, bob, *, length: int = 5) -> Match:
    """Alice opened with 3-1 and played 8/5 6/5; Bob is on roll."""
    dice.add(3, 1)
    match = start_match(alice, bob, length=length)
    return act(match, alice, "move", play="8/5 6/5")


def new_events(match: Match, after_seq: int) -> list[MatchEvent]:
    return [event for event in events_of(match) if event.seq > after_seq]


def stored_seeds(match: Match) -> list[str]:
    return reload(match).player_seeds


def server_seed(match: Match) -> bytes:
    """The server's secret seed, as the vault keeps it until the match ends."""
    return decrypt_seed(reload(match).server_seed_ciphertext)


def assert_sound(match: Match) -> None:
    assert log_problems(reload(match)) == []


def finished_match(dice, alice, bob) -> Match:
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    match = act(match, alice, "resign", points=1)
    return act(match, bob, "accept_resign")


def snapshot_of(match: Match):
    """Everything a refused call must leave as it was."""
    stored = reload(match)
    return (
        MatchEvent.objects.count(),
        stored.seq,
        stored.head_digest,
        stored.state,
        stored.to_act_id,
        stored.status,
        stored.updated_at,
    )


def refused(match, error_type, call):
    before = snapshot_of(match)
    with pytest.raises(error_type) as caught:
        call()
    assert snapshot_of(match) == before, "a refused call wrote something"
    assert caught.value.message
    return caught.value
