"""Droppers: a player's record of timeouts, and the refusals above the limit that change
nothing (games/services/droppers.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from backgammon_site.errors import Forbidden
from games import services
from games.models import Challenge, TournamentEntry
from tests.games.factories import lose_on_time, make_user

pytestmark = pytest.mark.django_db


def test_the_record_counts_the_players_own_timeouts_in_the_window(
    dropper: Any, bob: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        record = services.timeout_record(dropper)
    assert (record.matches, record.timed_out, record.percent) == (5, 2, 40)
    assert str(record) == "Timed out: 2 of 5 matches (40%) in the last 90 days"
    # Bob won those on time: none of them counts against him.
    assert services.timeout_record(bob).timed_out == 0


def test_a_player_with_few_matches_is_never_a_dropper(dice: Any, alice: Any, bob: Any) -> None:
    for _ in range(4):
        lose_on_time(dice, alice, bob)
    assert services.timeout_record(alice).share == 1.0
    assert services.dropper_refusal(alice) is None
    lose_on_time(dice, alice, bob)
    assert services.dropper_refusal(alice) is not None


def test_the_refusal_says_why_and_when_it_lifts(dropper: Any) -> None:
    refusal = services.dropper_refusal(dropper)
    assert refusal is not None
    assert "You lost 2 of your 5 matches of the last 90 days on time (40%)" in refusal
    assert "Above 20%" in refusal
    # Once the win of 60 days ago leaves the window, 4 matches remain: fewer than the 5 the
    # limit needs.
    lifts = timezone.now() - timedelta(days=60) + timedelta(days=90)
    assert f"{lifts:%d %b %Y}" in refusal


def test_the_limit_is_a_setting(dropper: Any, settings: Any) -> None:
    settings.DROPPER_LIMIT = {"share": 0.5, "min_matches": 5, "days": 90}
    assert services.dropper_refusal(dropper) is None
    settings.DROPPER_LIMIT = {"share": 0.1, "min_matches": 2, "days": 30}
    record = services.timeout_record(dropper)
    assert (record.matches, record.timed_out, record.days) == (3, 1, 30)
    assert services.dropper_refusal(dropper) is not None


def test_a_dropper_may_not_post_an_open_challenge(dropper: Any, bob: Any) -> None:
    before = Challenge.objects.count()
    with pytest.raises(Forbidden) as refused:
        services.challenge_create(challenger=dropper, opponent=None)
    assert refused.value.code == "too_many_timeouts"
    assert Challenge.objects.count() == before
    # A challenge to a player who chooses to play them is still theirs to make.
    services.challenge_create(challenger=dropper, opponent=bob)


def test_a_dropper_may_not_accept_an_open_challenge(dropper: Any, carol: Any) -> None:
    challenge = services.challenge_create(challenger=carol, opponent=None)
    with pytest.raises(Forbidden, match="on time"):
        services.challenge_accept(challenge_id=challenge.pk, user=dropper)
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.OPEN and challenge.match is None


def test_a_dropper_may_not_enter_a_tournament(dropper: Any, moderator: Any) -> None:
    tournament = services.tournament_create(
        creator=moderator, name="Spring", size=4, start_mode="when_full"
    )
    with pytest.raises(Forbidden, match="tournaments"):
        services.tournament_sign_up(tournament_id=tournament.pk, player=dropper)
    assert not TournamentEntry.objects.filter(tournament=tournament).exists()
    services.tournament_sign_up(tournament_id=tournament.pk, player=make_user("dave"))
