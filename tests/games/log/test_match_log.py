"""A match is its log: events are append-only, chained by digests, and checked against the
snapshot by log_problems and the verify_matches command; reading a match never reads its log."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

from games.engine import state_from_snapshot
from games.log.integrity import event_digest, fold_events, log_problems
from games.models import GENESIS_DIGEST, AppendOnlyError, Match, MatchEvent
from games.services import match_abort
from tests.games.factories import (
    act,
    events_of,
    make_moderator,
    make_user,
    reload,
    start_match,
    state_of,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(dice, alice, bob):
    """A few events of every author: the server, both players, and the cube."""
    dice.add(4, 4, 3, 1)
    match = start_match(alice, bob)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(4, 2)
    match = act(match, alice, "take")
    return act(match, bob, "move", play="8/4 6/4")


def resign_games(dice, match, players, count):
    """Play ``count`` games, each ended by a single resignation, the winners alternating."""
    for _ in range(count):
        turn = state_of(match).turn
        match = act(match, players[turn], "resign", points=1)
        # The opening roll of the next game goes to the resigner's opponent: they resign next.
        dice.add(*((1, 3) if turn == 0 else (3, 1)))
        match = act(match, players[1 - turn], "accept_resign")
    return match


def require_sqlite():
    if connection.vendor != "sqlite":
        pytest.skip("on PostgreSQL the append-only trigger refuses raw UPDATE and DELETE too")


def require_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the trigger exists on PostgreSQL only; CI runs this against PostgreSQL")


def raw_sql(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


# --- Append-only ---------------------------------------------------------------------------------


def test_an_event_cannot_be_saved_again(match):
    event = MatchEvent.objects.get(match=match, seq=2)
    event.kind = "roll"

    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.save(update_fields=["kind"])

    assert MatchEvent.objects.get(pk=event.pk).kind == "opening_roll"


def test_an_event_cannot_be_overwritten_by_a_new_instance_with_its_key(match):
    event = MatchEvent.objects.get(match=match, seq=2)
    copy = MatchEvent(
        pk=event.pk,
        match=match,
        seq=event.seq,
        kind="roll",
        payload={},
        digest=event.digest,
    )

    with pytest.raises(IntegrityError), transaction.atomic():
        copy.save()

    assert MatchEvent.objects.get(pk=event.pk).kind == "opening_roll"


def test_an_event_cannot_be_deleted(match):
    event = MatchEvent.objects.get(match=match, seq=1)

    with pytest.raises(AppendOnlyError):
        event.delete()

    assert MatchEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.parametrize(
    "change",
    [
        lambda events: events.update(kind="x"),
        lambda events: events.delete(),
        lambda events: MatchEvent.objects.bulk_update(list(events), ["kind"]),
    ],
    ids=["update", "delete", "bulk_update"],
)
def test_events_cannot_be_changed_in_bulk(match, change):
    before = list(MatchEvent.objects.values_list("pk", "kind", "payload", "digest"))

    for events in (
        MatchEvent.objects.filter(match=match),
        MatchEvent.objects.all(),
        match.events.all(),
    ):
        # bulk_update raises inside its own atomic block: keep the test's transaction usable.
        with pytest.raises(AppendOnlyError), transaction.atomic():
            change(events)

    assert list(MatchEvent.objects.values_list("pk", "kind", "payload", "digest")) == before


def test_a_match_with_a_log_cannot_be_deleted(match):
    with pytest.raises(ProtectedError), transaction.atomic():
        reload(match).delete()

    assert MatchEvent.objects.filter(match=match).count() == match.seq


def test_postgresql_trigger_refuses_update_and_delete():
    require_postgresql()
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, bob)
    event = MatchEvent.objects.filter(match=match).first()

    for sql in (
        "UPDATE games_matchevent SET kind = 'x' WHERE id = %s",
        "DELETE FROM games_matchevent WHERE id = %s",
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            raw_sql(sql, [event.pk])

    assert MatchEvent.objects.get(pk=event.pk).kind == event.kind


# --- The digest chain ----------------------------------------------------------------------------


def test_each_digest_chains_to_the_previous_one(match):
    events = events_of(match)
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    assert {event.actor_id for event in events} > {None}

    previous = GENESIS_DIGEST
    for event in events:
        assert event.digest == event_digest(
            previous,
            match_id=match.pk,
            seq=event.seq,
            kind=event.kind,
            payload=event.payload,
            actor_id=event.actor_id,
            created_at=event.created_at,
        )
        assert len(event.digest) == 64 and int(event.digest, 16) >= 0
        previous = event.digest
    stored = reload(match)
    assert stored.head_digest == previous
    assert stored.seq == len(events)


def test_the_digest_covers_every_field_and_the_chain(match):
    event = events_of(match)[1]
    fields = {
        "match_id": match.pk,
        "seq": event.seq,
        "kind": event.kind,
        "payload": event.payload,
        "actor_id": event.actor_id,
        "created_at": event.created_at,
    }
    digest = event_digest(GENESIS_DIGEST, **fields)
    changes = {
        "match_id": match.pk + 1,
        "seq": event.seq + 1,
        "kind": "roll",
        "payload": {"dice": [6, 6]},
        "actor_id": 1,
        "created_at": event.created_at + timedelta(microseconds=1),
    }

    for name, value in changes.items():
        assert event_digest(GENESIS_DIGEST, **{**fields, name: value}) != digest, name
    assert event_digest("f" * 64, **fields) != digest
    # Canonical: the order of a payload's keys does not matter.
    reordered = dict(reversed(list(event.payload.items())))
    assert event_digest(GENESIS_DIGEST, **{**fields, "payload": reordered}) == digest


def test_folding_the_log_gives_the_snapshot(match):
    stored = reload(match)

    state = fold_events(stored.match_length, events_of(stored))

    assert state == state_from_snapshot(stored.state)


# --- log_problems ------------------------------------------------------------------------------


def test_a_sound_log_has_no_problems(match, dice, alice, bob):
    assert log_problems(reload(match)) == []

    dice.add(3, 1)
    short = start_match(alice, bob, length=1)
    short = act(short, alice, "resign", points=1)
    short = act(short, bob, "accept_resign")
    assert reload(short).status == Match.Status.FINISHED
    assert log_problems(reload(short)) == []

    match_abort(match_id=match.pk, moderator=make_moderator("mod"), reason="test")
    assert log_problems(reload(match)) == []


def test_a_changed_event_is_named(match):
    require_sqlite()
    event = MatchEvent.objects.get(match=match, seq=3)
    raw_sql(
        "UPDATE games_matchevent SET payload = %s WHERE id = %s",
        [json.dumps({"dice": [6, 6]}), event.pk],
    )

    problems = log_problems(reload(match))

    assert problems[0] == "event #3 (opening_roll) does not match its digest"
    # The forged tie also breaks the replay: Alice's move has no roll to play.
    assert problems[1:] == [
        "the log does not replay: You cannot move now: game 1 starts with the opening roll."
    ]


def test_a_changed_actor_is_named(match, bob):
    require_sqlite()
    event = MatchEvent.objects.get(match=match, seq=5)  # Bob's double
    raw_sql("UPDATE games_matchevent SET actor_id = NULL WHERE id = %s", [event.pk])

    assert log_problems(reload(match)) == ["event #5 (double) does not match its digest"]


def test_a_deleted_event_is_named(match):
    require_sqlite()
    raw_sql("DELETE FROM games_matchevent WHERE match_id = %s AND seq = 2", [match.pk])

    problems = log_problems(reload(match))

    assert problems[0] == "event #3 where #2 was expected"


def test_a_deleted_last_event_is_named(match):
    require_sqlite()
    raw_sql("DELETE FROM games_matchevent WHERE match_id = %s AND seq = %s", [match.pk, match.seq])

    problems = log_problems(reload(match))

    assert f"the match says seq {match.seq} but its log ends at #{match.seq - 1}" in problems
    assert "the snapshot differs from the replayed log" in problems


def test_a_rewritten_chain_is_caught_by_the_head_digest_and_the_snapshot(match):
    # Rewriting Bob's roll of 4-2 as 2-4 (the same plays) and every digest from there on still
    # leaves the match row's head digest, and then the snapshot's last roll, disagreeing.
    require_sqlite()
    previous = GENESIS_DIGEST
    for event in events_of(match):
        payload = {"player": 1, "dice": [2, 4]} if event.kind == "roll" else event.payload
        digest = event_digest(
            previous,
            match_id=match.pk,
            seq=event.seq,
            kind=event.kind,
            payload=payload,
            actor_id=event.actor_id,
            created_at=event.created_at,
        )
        raw_sql(
            "UPDATE games_matchevent SET payload = %s, digest = %s WHERE id = %s",
            [json.dumps(payload), digest, event.pk],
        )
        previous = digest

    assert log_problems(reload(match)) == [
        "the match's head digest is not its last event's",
        "the snapshot differs from the replayed log",
    ]

    Match.objects.filter(pk=match.pk).update(head_digest=previous)
    assert log_problems(reload(match)) == ["the snapshot differs from the replayed log"]


def test_an_edited_snapshot_is_named(match):
    state = reload(match).state
    state["score"] = [3, 0]
    Match.objects.filter(pk=match.pk).update(state=state)

    assert log_problems(reload(match)) == ["the snapshot differs from the replayed log"]


def test_an_edited_seq_status_or_winner_is_named(match, alice):
    Match.objects.filter(pk=match.pk).update(seq=match.seq + 1)
    assert log_problems(reload(match)) == [
        f"the match says seq {match.seq + 1} but its log ends at #{match.seq}"
    ]

    Match.objects.filter(pk=match.pk).update(seq=match.seq, status=Match.Status.FINISHED)
    assert log_problems(reload(match)) == ["status 'finished' but the log says finished=False"]

    Match.objects.filter(pk=match.pk).update(status=Match.Status.ACTIVE, winner=alice)
    assert log_problems(reload(match)) == ["the recorded winner is not the log's"]


def test_swapped_players_on_the_match_row_are_named(match, alice, bob):
    # The log says Alice is player 0 (match_started names her first, and every one of her
    # events carries her as actor); a match row that says otherwise gives her moves to Bob.
    Match.objects.filter(pk=match.pk).update(first_player=bob, second_player=alice, to_act=alice)

    assert log_problems(reload(match)) != [], "swapped players went unnoticed"


def test_an_edited_to_act_is_named(match, alice, bob):
    # Alice is on roll with the cube; notifications and deadlines would go to Bob instead.
    assert reload(match).to_act == alice
    Match.objects.filter(pk=match.pk).update(to_act=bob)

    assert log_problems(reload(match)) != [], "a wrong to_act went unnoticed"


def test_a_changed_match_length_is_named(match):
    # The match_started record says 5 points; row and snapshot edited together say 25.
    state = reload(match).state
    state["match_length"] = 25
    Match.objects.filter(pk=match.pk).update(match_length=25, state=state)

    assert log_problems(reload(match)) != [], "a changed match length went unnoticed"


# --- The verify_matches command ----------------------------------------------------------------


@pytest.mark.slow
def test_verify_matches_passes_simulated_matches_and_names_a_corrupted_one():
    call_command("simulate_matches", 3, "--seed", "1", stdout=StringIO())
    matches = list(Match.objects.order_by("pk"))
    assert len(matches) == 3
    assert all(m.status == Match.Status.FINISHED and m.winner_id for m in matches)

    out = StringIO()
    call_command("verify_matches", stdout=out, stderr=StringIO())
    assert "3 matches checked, 0 with problems" in out.getvalue()

    broken = matches[1]
    state = broken.state
    state["cube_value"] = 64
    Match.objects.filter(pk=broken.pk).update(state=state)

    err = StringIO()
    with pytest.raises(CommandError, match="3 matches checked, 1 with problems"):
        call_command("verify_matches", stdout=StringIO(), stderr=err)
    assert f"match {broken.pk}: the snapshot differs from the replayed log" in err.getvalue()
    for sound in (matches[0], matches[2]):
        assert f"match {sound.pk}:" not in err.getvalue()

    out = StringIO()
    call_command("verify_matches", str(matches[0].pk), str(matches[2].pk), stdout=out)
    assert "2 matches checked, 0 with problems" in out.getvalue()


# --- Reading a match never reads its log ---------------------------------------------------------


def test_reading_a_match_costs_the_same_for_1_game_and_30(dice, alice, bob):
    carol, dave = make_user("carol"), make_user("dave")
    dice.add(3, 1)
    short = start_match(alice, bob, length=25)
    dice.add(3, 1)
    long = start_match(carol, dave, length=25)
    long = resign_games(dice, long, (carol, dave), 30)
    assert len(state_of(long).games) == 30
    assert state_of(long).score == (15, 15)
    assert reload(long).seq > 90 > reload(short).seq

    def read(match_id):
        with CaptureQueriesContext(connection) as queries:
            state_from_snapshot(Match.objects.get(pk=match_id).state)
        return len(queries)

    assert read(short.pk) == read(long.pk) == 1

    # Acting costs the same too: the service starts from the snapshot, not the log.
    def acting(match, players):
        with CaptureQueriesContext(connection) as queries:
            act(match, players[state_of(match).turn], "resign", points=1)
        return len(queries)

    assert acting(short, (alice, bob)) == acting(long, (carol, dave))
