"""A match written as a .mat file and read back has the same rolls, plays, cube actions and
score: a match played through the services, and many random matches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import fold
from games.engine.mat import export_mat
from games.engine.mat_reader import parse_mat
from games.log.exports import mat_export
from games.log.records import engine_events
from tests.games.factories import events_of, state_of
from tests.games.formats.matches import as_recorded, random_match
from tests.games.formats.played import play_match_with_cube_and_crawford


@pytest.mark.slow
@pytest.mark.django_db
def test_a_match_played_here_reads_back_from_its_mat_file(dice, alice, bob):
    match = play_match_with_cube_and_crawford(alice, bob, dice)
    state = state_of(match)
    events = list(engine_events(events_of(match)))
    kinds = [event.kind for event in events]
    assert "take" in kinds and "drop" in kinds
    assert any(game.crawford for game in state.games)
    assert any(game.result in ("single", "gammon", "backgammon") for game in state.games)

    record = parse_mat(mat_export(match))

    assert record.names == ("alice", "bob")
    assert record.match_length == 5
    assert as_recorded(5, record.events) == as_recorded(5, events)
    assert record.state.score == state.score
    assert record.state.games == state.games
    assert record.state.is_finished() and record.state.winner == state.winner


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), length=st.sampled_from([1, 3, 5]))
def test_random_matches_read_back_from_their_mat_files(seed, length):
    events = random_match(seed, length)
    state = fold(length, events)
    record = parse_mat(export_mat(("alice", "bob"), length, events))
    assert as_recorded(length, record.events) == as_recorded(length, events)
    assert record.state.score == state.score
    assert record.state.games == state.games
    assert record.state.is_finished() == state.is_finished()
