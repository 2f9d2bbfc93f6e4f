"""Challenges through the services: made, accepted, declined and cancelled, and what they refuse."""

from __future__ import annotations

import pytest

from backgammon_site.core.errors import ApplicationError, Forbidden, NotFound
from games import services
from games.models import Challenge, Match
from tests.games.factories import (
    events_of,
    kinds_of,
    make_user,
    reload,
    start_match,
)
from tests.games.services.matches import (
    assert_sound,
)

pytestmark = pytest.mark.django_db


# --- Challenges --------------------------------------------------------------------------------


def create(challenger, opponent, **options):
    return services.challenge_create(challenger=challenger, opponent=opponent, **options)


def test_challenge_create_with_defaults(alice, bob):
    challenge = create(alice, bob)

    challenge.refresh_from_db()
    assert (challenge.challenger, challenge.opponent) == (alice, bob)
    assert (challenge.match_length, challenge.rated) == (5, True)
    assert challenge.status == Challenge.Status.OPEN
    assert challenge.time_control == services.DEFAULT_TIME_CONTROL
    assert challenge.match is None


@pytest.mark.parametrize(
    "time_control",
    [
        {"kind": "correspondence", "days_per_move": 0.25},
        {"kind": "correspondence", "days_per_move": 1 / 24, "reserve_days": 60},
        {"kind": "correspondence", "days_per_move": 30, "reserve_days": 0},
        {"kind": "live", "minutes": 1},
        {"kind": "live", "minutes": 120, "increment_seconds": 120},
    ],
)
def test_challenge_create_accepts_time_controls_in_range(alice, bob, time_control):
    challenge = create(alice, bob, match_length=1, rated=False, time_control=time_control)

    challenge.refresh_from_db()
    assert challenge.time_control["kind"] == time_control["kind"]
    for name, value in time_control.items():
        assert challenge.time_control[name] == value
    assert set(challenge.time_control) == (
        {"kind", "days_per_move", "reserve_days"}
        if time_control["kind"] == "correspondence"
        else {"kind", "minutes", "increment_seconds"}
    )


@pytest.mark.parametrize("length", [1, 25])
def test_challenge_create_accepts_lengths_1_to_25(alice, bob, length):
    assert create(alice, bob, match_length=length).match_length == length


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        ({"match_length": 0}, "match_length", "1 to 25"),
        ({"match_length": 26}, "match_length", "1 to 25"),
        ({"match_length": -5}, "match_length", "1 to 25"),
        ({"match_length": "5"}, "match_length", "whole number"),
        ({"match_length": 5.0}, "match_length", "whole number"),
        ({"match_length": True}, "match_length", "whole number"),
        ({"rated": "yes"}, "rated", "true or false"),
        ({"time_control": "fast"}, "time_control", "kind"),
        ({"time_control": {"kind": "blitz", "minutes": 5}}, "time_control", "kind"),
        ({"time_control": {"days_per_move": 1}}, "time_control", "kind"),
        ({"time_control": {"kind": "correspondence"}}, "time_control", "days_per_move"),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 0.01}},
            "time_control",
            "days_per_move must be between",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 31}},
            "time_control",
            "days_per_move must be between",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": 61}},
            "time_control",
            "reserve_days",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "reserve_days": -1}},
            "time_control",
            "reserve_days",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": "1"}},
            "time_control",
            "days_per_move must be a number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": float("nan")}},
            "time_control",
            "days_per_move must be a finite number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": True}},
            "time_control",
            "days_per_move must be a number",
        ),
        (
            {"time_control": {"kind": "correspondence", "days_per_move": 1, "minutes": 5}},
            "time_control",
            "Unknown time control field: minutes",
        ),
        ({"time_control": {"kind": "live", "minutes": 0}}, "time_control", "minutes"),
        ({"time_control": {"kind": "live", "minutes": 121}}, "time_control", "minutes"),
        ({"time_control": {"kind": "live"}}, "time_control", "minutes must be a number"),
        (
            {"time_control": {"kind": "live", "minutes": 5, "increment_seconds": 121}},
            "time_control",
            "increment_seconds",
        ),
        (
            {"time_control": {"kind": "live", "minutes": 5, "increment_seconds": -1}},
            "time_control",
            "increment_seconds",
        ),
        (
            {"time_control": {"kind": "live", "minutes": 5, "days_per_move": 1}},
            "time_control",
            "Unknown time control field: days_per_move",
        ),
    ],
)
def test_challenge_create_refuses_bad_settings(alice, bob, options, code, words):
    with pytest.raises(ApplicationError) as refused_call:
        create(alice, bob, **options)

    assert refused_call.value.code == code
    assert words in refused_call.value.message
    assert Challenge.objects.count() == 0


def test_nobody_can_challenge_themselves(alice):
    with pytest.raises(ApplicationError) as refused_call:
        create(alice, alice)

    assert refused_call.value.code == "self_challenge"
    assert Challenge.objects.count() == 0


def test_an_inactive_player_cannot_be_challenged(alice):
    gone = make_user("gone", is_active=False)

    with pytest.raises(ApplicationError) as refused_call:
        create(alice, gone)

    assert refused_call.value.code == "inactive_player"


def test_accepting_a_challenge_starts_the_match_with_the_challenger_first(dice, alice, bob):
    challenge = create(alice, bob, match_length=7, rated=True)
    dice.add(2, 5)

    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    assert challenge.match == match
    assert challenge.decided_at is not None
    stored = reload(match)
    assert (stored.first_player, stored.second_player) == (alice, bob)
    assert (stored.match_length, stored.rated) == (7, True)
    assert stored.time_control == services.DEFAULT_TIME_CONTROL
    assert kinds_of(stored) == ["match_started", "opening_roll"]
    assert stored.to_act == bob
    assert_sound(stored)


def test_fractional_days_survive_the_log_and_its_digest(dice, alice, bob):
    time_control = {"kind": "correspondence", "days_per_move": 1 / 24, "reserve_days": 0.1}
    challenge = create(alice, bob, time_control=time_control)
    dice.add(3, 1)

    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)

    stored = reload(match)
    assert stored.time_control == time_control
    assert events_of(stored)[0].payload["time_control"] == time_control
    assert_sound(stored)


def test_a_match_needs_two_different_players(alice):
    with pytest.raises(ApplicationError) as refused_call:
        start_match(alice, alice)

    assert refused_call.value.code == "self_challenge"
    assert Match.objects.count() == 0


def test_anyone_but_the_challenger_can_accept_an_open_challenge(dice, alice, carol):
    challenge = create(alice, None)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "self_challenge"

    dice.add(3, 1)
    match = services.challenge_accept(challenge_id=challenge.pk, user=carol)

    challenge.refresh_from_db()
    assert (challenge.status, challenge.opponent, challenge.match) == ("accepted", carol, match)
    assert (match.first_player, match.second_player) == (alice, carol)


def test_only_the_named_opponent_can_accept(alice, bob, carol):
    challenge = create(alice, bob)

    with pytest.raises(Forbidden):
        services.challenge_accept(challenge_id=challenge.pk, user=carol)
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "self_challenge"

    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN
    assert Match.objects.count() == 0


def test_a_challenge_is_accepted_once(dice, alice, bob):
    challenge = create(alice, bob)
    dice.add(3, 1)
    services.challenge_accept(challenge_id=challenge.pk, user=bob)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=bob)

    assert refused_call.value.code == "challenge_closed"
    assert Match.objects.count() == 1


def test_a_missing_challenge_is_not_found(alice):
    for call in (
        services.challenge_accept,
        services.challenge_decline,
        services.challenge_cancel,
    ):
        with pytest.raises(NotFound):
            call(challenge_id=424242, user=alice)


def test_only_the_challenged_player_declines(alice, bob, carol):
    challenge = create(alice, bob)

    for user in (alice, carol):
        with pytest.raises(Forbidden):
            services.challenge_decline(challenge_id=challenge.pk, user=user)

    declined = services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert declined.status == Challenge.Status.DECLINED
    assert declined.decided_at is not None

    for close in (services.challenge_decline, services.challenge_cancel):
        user = bob if close is services.challenge_decline else alice
        with pytest.raises(ApplicationError) as refused_call:
            close(challenge_id=challenge.pk, user=user)
        assert refused_call.value.code == "challenge_closed"
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert refused_call.value.code == "challenge_closed"
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED


def test_an_open_challenge_cannot_be_declined(alice, carol):
    challenge = create(alice, None)

    with pytest.raises(Forbidden):
        services.challenge_decline(challenge_id=challenge.pk, user=carol)


def test_only_the_challenger_cancels(alice, bob, carol):
    challenge = create(alice, bob)

    for user in (bob, carol):
        with pytest.raises(Forbidden):
            services.challenge_cancel(challenge_id=challenge.pk, user=user)

    cancelled = services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert cancelled.status == Challenge.Status.CANCELLED

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)
    assert refused_call.value.code == "challenge_closed"
    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_decline(challenge_id=challenge.pk, user=bob)
    assert refused_call.value.code == "challenge_closed"


def test_an_accepted_challenge_cannot_be_cancelled(dice, alice, bob):
    challenge = create(alice, bob)
    dice.add(3, 1)
    services.challenge_accept(challenge_id=challenge.pk, user=bob)

    with pytest.raises(ApplicationError) as refused_call:
        services.challenge_cancel(challenge_id=challenge.pk, user=alice)

    assert refused_call.value.code == "challenge_closed"
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
