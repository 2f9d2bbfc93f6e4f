"""The one reader of stored logs: rows of a match's log or an imported file as engine events."""

from __future__ import annotations

import pytest

from games import services
from games.engine import (
    Double,
    EngineError,
    OpeningRoll,
    PlayMade,
    Take,
    event_from_payload,
    fold,
    state_from_snapshot,
)
from games.engine.mat_reader import parse_mat
from games.log.records import (
    RECORD_KINDS,
    LoggedEvent,
    engine_events,
    imported_log,
    match_log,
    read_log,
)
from games.models import ImportedMatch
from tests.games.factories import act, events_of, make_moderator, reload, start_match

pytestmark = pytest.mark.django_db

ONE_GAME = """ 3 point match

 Game 1
 alice : 0                      bob : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes
"""


@pytest.fixture
def match(dice, alice, bob):
    """Started, opening roll 3-1, alice plays, bob doubles, alice takes, bob rolls; a moderator
    awards the match to bob."""
    dice.add(3, 1)
    match = start_match(alice, bob, length=3)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(6, 5)  # bob cannot double alice's cube: the server rolls for him
    match = act(match, alice, "take")
    moderator = make_moderator("mod")
    return services.match_award(match_id=match.pk, moderator=moderator, winner=bob, reason="x")


def test_a_matchs_log_reads_back_as_the_events_the_engine_folded(match):
    match = reload(match)
    assert fold(match.match_length, engine_events(events_of(match))) == state_from_snapshot(
        match.state
    )


def test_each_row_comes_with_its_engine_event_and_a_record_row_with_none(match):
    rows = events_of(match)
    read = list(read_log(rows))
    assert [row for row, _ in read] == rows
    for row, event in read:
        if row.kind in RECORD_KINDS:
            assert event is None
        else:
            assert event == event_from_payload(row.kind, row.payload)
    assert [row.kind for row, event in read if event is None] == ["match_started", "dice_revealed"]


def test_a_matchs_log_tells_each_events_step_and_who_made_it(match, alice, bob):
    log = match_log(match)
    assert [entry.step for entry in log] == [row.seq for row in events_of(match)]
    by_kind = {entry.kind: entry for entry in log}
    assert by_kind["move"].by == "alice" and not by_kind["move"].server_made
    assert by_kind["double"].by == "bob"
    assert by_kind["match_awarded"].by == "mod"
    assert by_kind["opening_roll"].by is None and by_kind["opening_roll"].server_made
    assert list(engine_events(log)) == list(engine_events(events_of(match)))


def test_an_imported_match_reads_as_a_log_numbered_from_one(alice):
    record = parse_mat(ONE_GAME)
    imported = ImportedMatch.objects.create(
        uploaded_by=alice,
        first_player_name="alice",
        second_player_name="bob",
        match_length=3,
        mat_text=ONE_GAME,
        events=[{"kind": event.kind, "payload": event.to_payload()} for event in record.events],
        score=[0, 0],
    )
    log = imported_log(imported)
    assert [entry.step for entry in log] == [1, 2, 3, 4]
    assert all(entry.by is None and not entry.server_made for entry in log)
    assert list(engine_events(log)) == [
        OpeningRoll((3, 1)),
        PlayMade(0, "8/5 6/5"),
        Double(1),
        Take(0),
    ]


def test_a_row_the_engine_cannot_read_fails_when_it_is_reached():
    log = [
        LoggedEvent(1, "match_started", {}),
        LoggedEvent(2, "opening_roll", {"dice": [3, 1]}),
        LoggedEvent(3, "move", {"player": 0}),
    ]
    read = engine_events(log)
    assert next(read) == OpeningRoll((3, 1))
    with pytest.raises(EngineError, match="needs a 'play' field"):
        next(read)
