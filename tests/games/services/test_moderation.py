"""Moderators' decisions through the services, and what the match_changed signal says."""

from __future__ import annotations

import pytest
from django.db import transaction

from backgammon_site.core.errors import ApplicationError, Forbidden, IllegalAction, NotFound
from games import services
from games.models import Match
from games.signals import match_changed
from tests.games.factories import (
    act,
    events_of,
    make_user,
    reload,
    script_dice,
    start_match,
    state_of,
)
from tests.games.services.matches import (
    assert_sound,
    finished_match,
    refused,
)

pytestmark = pytest.mark.django_db


# --- Moderators --------------------------------------------------------------------------------


def test_a_moderator_aborts_a_match(bob_on_roll, moderator):
    match = services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason=" spam ")

    stored = reload(match)
    event = events_of(stored)[-2]
    assert (event.kind, event.actor_id, event.payload) == (
        "match_aborted",
        moderator.pk,
        {"reason": "spam"},
    )
    assert stored.status == Match.Status.FINISHED
    assert (stored.winner, stored.to_act) == (None, None)
    assert stored.finished_at is not None
    state = state_of(stored)
    assert (state.phase, state.aborted, state.end_reason) == ("finished", True, "spam")
    assert_sound(stored)


def test_a_moderator_awards_a_match(bob_on_roll, moderator, alice):
    match = services.match_award(
        match_id=bob_on_roll.pk, moderator=moderator, winner=alice, reason="Bob left"
    )

    stored = reload(match)
    event = events_of(stored)[-2]
    assert (event.kind, event.actor_id, event.payload) == (
        "match_awarded",
        moderator.pk,
        {"winner": 0, "reason": "Bob left"},
    )
    assert (stored.status, stored.winner, stored.to_act) == (Match.Status.FINISHED, alice, None)
    assert_sound(stored)


def test_a_superuser_may_moderate(bob_on_roll, bob):
    admin = make_user("root", is_superuser=True, is_staff=True)

    services.match_award(match_id=bob_on_roll.pk, moderator=admin, winner=bob, reason="ok")

    assert reload(bob_on_roll).winner == bob


def test_players_are_not_moderators(bob_on_roll, alice, bob, carol):
    for user in (alice, bob, carol):
        refused(
            bob_on_roll,
            Forbidden,
            lambda user=user: services.match_abort(
                match_id=bob_on_roll.pk, moderator=user, reason="no"
            ),
        )
        refused(
            bob_on_roll,
            Forbidden,
            lambda user=user: services.match_award(
                match_id=bob_on_roll.pk, moderator=user, winner=user, reason="mine"
            ),
        )


def test_moderation_refusals_write_nothing(bob_on_roll, moderator, carol):
    error = refused(
        bob_on_roll,
        ApplicationError,
        lambda: services.match_award(
            match_id=bob_on_roll.pk, moderator=moderator, winner=carol, reason="x"
        ),
    )
    assert "one of its players" in error.message
    for reason in ("", "   ", None):
        error = refused(
            bob_on_roll,
            ApplicationError,
            lambda reason=reason: services.match_abort(
                match_id=bob_on_roll.pk, moderator=moderator, reason=reason
            ),
        )
        assert error.code == "reason"
    refused(
        bob_on_roll,
        NotFound,
        lambda: services.match_abort(match_id=999_999, moderator=moderator, reason="x"),
    )


def test_a_finished_match_cannot_be_aborted_or_awarded(dice, alice, bob, moderator):
    match = finished_match(dice, alice, bob)

    refused(
        match,
        IllegalAction,
        lambda: services.match_abort(match_id=match.pk, moderator=moderator, reason="x"),
    )
    refused(
        match,
        IllegalAction,
        lambda: services.match_award(
            match_id=match.pk, moderator=moderator, winner=alice, reason="x"
        ),
    )
    assert reload(match).winner == bob


def test_players_cannot_act_after_an_abort(bob_on_roll, bob, moderator):
    services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason="x")

    with pytest.raises(IllegalAction):
        act(reload(bob_on_roll), bob, "double")


# --- The match_changed signal -------------------------------------------------------------------


@pytest.fixture
def announced():
    received = []

    def receiver(sender, **kwargs):
        received.append({key: kwargs[key] for key in ("match_id", "seq", "to_act_id")})

    match_changed.connect(receiver, weak=False)
    yield received
    match_changed.disconnect(receiver)


def quiet_players():
    """Alice and Bob without email addresses: announcing a change is then all that a commit
    runs (no notification is emailed)."""
    return make_user("alice"), make_user("bob")


def test_match_changed_is_sent_once_after_commit(
    dice, announced, django_capture_on_commit_callbacks
):
    alice, bob = quiet_players()
    dice.add(3, 1)
    with django_capture_on_commit_callbacks() as callbacks:
        match = start_match(alice, bob)
    assert announced == []  # not before the commit
    assert len(callbacks) == 1
    callbacks[0]()
    assert announced == [{"match_id": match.pk, "seq": 2, "to_act_id": alice.pk}]

    # One signal per call, however many events the server appends after the player's.
    announced.clear()
    dice.add(4, 2)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = act(match, alice, "move", play="8/5 6/5")
        match = act(match, bob, "double")
        match = act(match, alice, "take")
    assert len(callbacks) == 3
    assert announced == [
        {"match_id": match.pk, "seq": 3, "to_act_id": bob.pk},
        {"match_id": match.pk, "seq": 4, "to_act_id": alice.pk},
        {"match_id": match.pk, "seq": 6, "to_act_id": bob.pk},
    ]


def test_match_changed_is_sent_for_challenges_accepted_and_moderation(
    dice, moderator, announced, django_capture_on_commit_callbacks
):
    alice, bob = quiet_players()
    challenge = services.challenge_create(challenger=alice, opponent=bob)
    dice.add(1, 2)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert len(callbacks) == 2  # match_changed for the match, challenge_closed for the challenge
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.match_abort(match_id=match.pk, moderator=moderator, reason="x")
    assert len(callbacks) == 1
    assert announced == [
        {"match_id": match.pk, "seq": 2, "to_act_id": bob.pk},
        {"match_id": match.pk, "seq": 4, "to_act_id": None},
    ]


def test_match_changed_is_not_sent_for_a_refused_call(
    bob_on_roll, alice, bob, carol, moderator, announced, django_capture_on_commit_callbacks
):
    calls = [
        lambda: act(bob_on_roll, carol, "roll"),
        lambda: act(bob_on_roll, alice, "roll"),
        lambda: act(bob_on_roll, bob, "take"),
        lambda: services.match_act(
            match_id=bob_on_roll.pk, actor=bob, expected_seq=1, action="roll"
        ),
        lambda: act(bob_on_roll, bob, "castle"),
        lambda: act(bob_on_roll, bob, "resign", points=4),
        lambda: services.match_abort(match_id=bob_on_roll.pk, moderator=alice, reason="x"),
        lambda: services.match_abort(match_id=bob_on_roll.pk, moderator=moderator, reason=""),
    ]
    for call in calls:
        with (
            django_capture_on_commit_callbacks(execute=True) as callbacks,
            pytest.raises(ApplicationError),
        ):
            call()
        assert callbacks == []
    assert announced == []


@pytest.mark.django_db(transaction=True)
def test_match_changed_arrives_after_the_commit(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    dice = script_dice(monkeypatch, 3, 1)
    seen = []

    def receiver(sender, match_id, seq, **kwargs):
        seen.append(
            (transaction.get_connection().in_atomic_block, Match.objects.get(pk=match_id).seq, seq)
        )

    match_changed.connect(receiver, weak=False)
    try:
        match = start_match(alice, bob)
        act(match, alice, "move", play="8/5 6/5")
    finally:
        match_changed.disconnect(receiver)

    assert seen == [(False, 2, 2), (False, 3, 3)]
    assert dice.left == []
