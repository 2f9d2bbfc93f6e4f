"""Droppers: players' records of timeouts, one or many at once (games/selectors/droppers.py),
and the refusals above the limit that change nothing (games/services/droppers.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from backgammon_site.core.errors import Forbidden
from games import selectors, services
from games.models import Challenge, Match, TournamentEntry
from tests.games.factories import lose_on_time, make_user, start_match

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


def test_the_records_of_many_players_are_read_at_once(
    dropper: Any, bob: Any, carol: Any, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(1):
        records = selectors.timeout_records([dropper, bob, carol])
    alice, bob_, carol_ = records[dropper.pk], records[bob.pk], records[carol.pk]
    assert (alice.timed_out, alice.matches, alice.percent, alice.above_limit) == (2, 5, 40, True)
    assert (bob_.timed_out, bob_.matches, bob_.percent, bob_.above_limit) == (0, 5, 0, False)
    assert (carol_.timed_out, carol_.matches, carol_.percent, carol_.above_limit) == (
        0,
        0,
        0,
        False,
    )
    # The same records as one player's own reading.
    assert records[dropper.pk] == services.timeout_record(dropper)
    assert records[bob.pk] == services.timeout_record(bob)


def test_no_players_need_no_query(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        assert selectors.timeout_records([]) == {}


def test_a_timeout_counts_against_the_player_in_either_seat(
    dice: Any, alice: Any, bob: Any, carol: Any
) -> None:
    lose_on_time(dice, alice, bob)  # alice in the first seat
    dice.add(1, 3)  # the second player, alice, opens and is to move
    match = start_match(carol, alice)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk).timed_out
    match.refresh_from_db()
    assert match.winner == carol
    records = selectors.timeout_records([alice, bob, carol])
    assert (records[alice.pk].timed_out, records[alice.pk].matches) == (2, 2)
    assert (records[bob.pk].timed_out, records[bob.pk].matches) == (0, 1)
    assert (records[carol.pk].timed_out, records[carol.pk].matches) == (0, 1)


def test_the_query_count_does_not_grow_with_the_players(
    dice: Any, bob: Any, django_assert_max_num_queries: Any
) -> None:
    players = [make_user(f"player{index}") for index in range(8)]
    for player in players:
        lose_on_time(dice, player, bob)
    with django_assert_max_num_queries(1):
        few = selectors.timeout_records(players[:2])
    with django_assert_max_num_queries(1):
        many = selectors.timeout_records([*players, bob])
    assert [few[player.pk].timed_out for player in players[:2]] == [1, 1]
    assert [many[player.pk].timed_out for player in players] == [1] * 8
    assert (many[bob.pk].matches, many[bob.pk].timed_out) == (8, 0)


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
