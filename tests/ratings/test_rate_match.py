"""Rating a finished match (ratings/services.py), in the transaction of its final event."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import services
from games.models import Match
from ratings import glicko2
from ratings.models import PlayerRating, RatingChange
from ratings.services import rate_match
from tests.games.factories import events_of, start_match
from tests.ratings.conftest import aborted, awarded, won_by_resignation

pytestmark = pytest.mark.django_db

#: The length factor of won_by_resignation's 1-point match, against the reference 5 points.
ONE_POINT = glicko2.length_factor(1, 5)


def rating(user) -> PlayerRating:
    return PlayerRating.objects.get(user=user)


def rate_stored_match(match: Match) -> list[RatingChange]:
    """Rate ``match`` as the games app asks for it: with the match's values."""
    return rate_match(
        match_id=match.pk,
        player_ids=(match.first_player_id, match.second_player_id),
        winner_id=match.winner_id,
        rated=match.rated,
        finished_at=match.finished_at,
        match_length=match.match_length,
        variant=match.variant,
    )


def changes(match) -> dict[str, RatingChange]:
    return {
        change.user.username: change
        for change in RatingChange.objects.filter(match=match).select_related("user")
    }


def test_a_rated_match_updates_both_players_once(dice, alice, bob):
    match = won_by_resignation(dice, alice, bob)
    made = changes(match)
    assert set(made) == {"alice", "bob"}
    expected_winner = glicko2.rate(1500, 350, 0.06, [(1500, 350, 1, ONE_POINT)], tau=0.5)
    expected_loser = glicko2.rate(1500, 350, 0.06, [(1500, 350, 0, ONE_POINT)], tau=0.5)
    for name, expected in (("alice", expected_winner), ("bob", expected_loser)):
        change = made[name]
        assert (change.rating_before, change.deviation_before, change.volatility_before) == (
            1500,
            350,
            0.06,
        )
        after = (change.rating_after, change.deviation_after, change.volatility_after)
        assert after == pytest.approx(expected)
        stored = rating(change.user)
        assert (stored.rating, stored.deviation, stored.volatility) == pytest.approx(expected)
        assert stored.rated_matches == 1
        assert stored.last_rated_at == match.finished_at == change.created_at
    assert made["alice"].rating_after > 1500 > made["bob"].rating_after
    # Two newcomers: what one wins the other loses.
    assert made["alice"].difference == pytest.approx(-made["bob"].difference)
    assert made["alice"].deviation_after < 350


def test_a_moderators_award_counts(dice, moderator, alice, bob):
    match = awarded(dice, moderator, bob, alice)
    made = changes(match)
    assert made["bob"].rating_after > 1500 > made["alice"].rating_after


@pytest.mark.parametrize("finish", ["aborted", "unrated win", "unrated award"])
def test_an_unrated_or_aborted_match_changes_nothing(dice, moderator, alice, bob, finish):
    if finish == "aborted":
        match = aborted(dice, moderator, alice, bob)
    elif finish == "unrated win":
        match = won_by_resignation(dice, alice, bob, rated=False)
    else:
        match = awarded(dice, moderator, alice, bob, rated=False)
    assert match.status == Match.Status.FINISHED
    assert rate_stored_match(match) == []
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()


def test_an_active_match_is_not_rated(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob, rated=True)
    assert rate_stored_match(match) == []
    assert not RatingChange.objects.exists()


def test_rating_a_match_again_applies_nothing(dice, alice, bob):
    match = won_by_resignation(dice, alice, bob)
    before = {
        r.user_id: (r.rating, r.deviation, r.rated_matches) for r in PlayerRating.objects.all()
    }
    assert rate_stored_match(match) == []
    assert rate_stored_match(Match.objects.get(pk=match.pk)) == []
    after = {
        r.user_id: (r.rating, r.deviation, r.rated_matches) for r in PlayerRating.objects.all()
    }
    assert after == before
    assert RatingChange.objects.filter(match=match).count() == 2


def test_the_database_refuses_a_second_change_for_the_same_match(dice, alice, bob):
    match = won_by_resignation(dice, alice, bob)
    change = changes(match)["alice"]
    change.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        change.save()


def test_the_result_and_the_ratings_are_committed_together(
    dice, monkeypatch, moderator, alice, bob
):
    """If rating fails, the final event is not written either: the match stays as it was."""
    dice.add(3, 1)
    match = start_match(alice, bob, rated=True)
    seq = match.seq

    def broken(*args, **kwargs):
        raise RuntimeError("rating failed")

    monkeypatch.setattr(glicko2, "rate", broken)
    with pytest.raises(RuntimeError):
        services.match_award(match_id=match.pk, moderator=moderator, winner=alice, reason="x")
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.seq, len(events_of(match))) == (Match.Status.ACTIVE, seq, seq)
    assert not RatingChange.objects.exists()


def test_each_player_is_rated_against_the_opponents_rating_before_the_match(
    dice, alice, bob, carol
):
    won_by_resignation(dice, alice, carol)  # alice now above 1500, carol below
    alice_before = rating(alice)
    match = won_by_resignation(dice, bob, alice)
    made = changes(match)
    expected_bob = glicko2.rate(
        1500, 350, 0.06, [(alice_before.rating, alice_before.deviation, 1, ONE_POINT)], tau=0.5
    )
    expected_alice = glicko2.rate(
        alice_before.rating,
        alice_before.deviation,
        alice_before.volatility,
        [(1500, 350, 0, ONE_POINT)],
    )
    assert (made["bob"].rating_after, made["bob"].deviation_after) == pytest.approx(
        expected_bob[:2]
    )
    assert (made["alice"].rating_after, made["alice"].deviation_after) == pytest.approx(
        expected_alice[:2]
    )
    assert made["alice"].rating_before == alice_before.rating
    assert rating(alice).rated_matches == 2


def test_ratings_history_chains(dice, alice, bob):
    for _ in range(3):
        won_by_resignation(dice, alice, bob)
    history = list(RatingChange.objects.filter(user=alice).order_by("created_at", "pk"))
    assert len(history) == 3
    for earlier, later in zip(history, history[1:], strict=False):
        assert later.rating_before == earlier.rating_after
        assert later.rating_after > earlier.rating_after


# --- Match length ---------------------------------------------------------------------------


def two_established(alice, bob) -> None:
    for user in (alice, bob):
        PlayerRating.objects.create(
            user=user,
            rating=1600,
            deviation=60,
            volatility=0.06,
            rated_matches=30,
            last_rated_at=timezone.now(),
        )


@pytest.mark.parametrize("length", [1, 3, 9, 17])
def test_a_match_counts_by_its_length(dice, moderator, alice, bob, length):
    two_established(alice, bob)
    match = awarded(dice, moderator, alice, bob, length=length)
    factor = glicko2.length_factor(length, 5)
    made = changes(match)
    for name, score in (("alice", 1), ("bob", 0)):
        expected = glicko2.rate(1600, 60, 0.06, [(1600, 60, score, factor)], tau=0.5)
        change = made[name]
        after = (change.rating_after, change.deviation_after, change.volatility_after)
        assert after == pytest.approx(expected)


def test_a_match_of_the_reference_length_is_rated_as_before_lengths_counted(
    dice, moderator, alice, bob
):
    two_established(alice, bob)
    match = awarded(dice, moderator, alice, bob, length=5)
    change = changes(match)["alice"]
    assert (change.rating_after, change.deviation_after) == glicko2.rate(
        1600, 60, 0.06, [(1600, 60, 1)], tau=0.5
    )[:2]


def test_a_longer_match_moves_established_ratings_further(dice, moderator, alice, bob):
    gains = []
    for length in (1, 5, 17):
        PlayerRating.objects.all().delete()
        RatingChange.objects.all().delete()
        two_established(alice, bob)
        gains.append(
            changes(awarded(dice, moderator, alice, bob, length=length))["alice"].difference
        )
    assert 0 < gains[0] < gains[1] < gains[2]


def test_the_reference_length_comes_from_the_settings(settings, dice, alice, bob):
    settings.RATINGS = {**settings.RATINGS, "REFERENCE_MATCH_LENGTH": 1}
    match = won_by_resignation(dice, alice, bob)  # a 1-point match: now the reference
    expected = glicko2.rate(1500, 350, 0.06, [(1500, 350, 1)], tau=0.5)
    assert changes(match)["alice"].rating_after == expected[0]


# --- Widening for inactivity ------------------------------------------------------------------


def established(user, *, deviation: float, days_ago: float) -> PlayerRating:
    return PlayerRating.objects.create(
        user=user,
        rating=1800,
        deviation=deviation,
        volatility=0.06,
        rated_matches=30,
        last_rated_at=timezone.now() - timedelta(days=days_ago),
    )


@pytest.mark.parametrize("period_days", [7, 30])
def test_each_full_period_since_the_last_match_widens_the_deviation(settings, alice, period_days):
    settings.RATINGS = {**settings.RATINGS, "PERIOD_DAYS": period_days}
    now = timezone.now()
    stored = established(alice, deviation=60, days_ago=0)
    stored.last_rated_at = now - timedelta(days=period_days, seconds=-1)
    assert stored.deviation_at(now) == 60  # not a full period yet
    stored.last_rated_at = now - timedelta(days=period_days * 3 + 2)
    assert stored.deviation_at(now) == pytest.approx(glicko2.widened(60, 0.06, 3))


def test_widening_is_capped_at_350(dice, alice, bob):
    stored = established(alice, deviation=60, days_ago=365 * 40)
    assert stored.deviation_at(timezone.now()) == 350
    match = won_by_resignation(dice, alice, bob)
    change = changes(match)["alice"]
    assert change.deviation_before == 60  # as stored: the widening happens inside the match
    expected = glicko2.rate(1800, 350, 0.06, [(1500, 350, 1, ONE_POINT)], tau=0.5)
    assert (change.rating_after, change.deviation_after) == pytest.approx(expected[:2])


def test_the_opponent_is_rated_against_the_widened_deviation(dice, alice, bob):
    established(alice, deviation=50, days_ago=7 * 100)
    match = won_by_resignation(dice, bob, alice)
    widened = min(glicko2.widened(50, 0.06, 100), 350)
    expected_bob = glicko2.rate(1500, 350, 0.06, [(1800, widened, 1, ONE_POINT)], tau=0.5)
    assert changes(match)["bob"].rating_after == pytest.approx(expected_bob[0])


def test_the_deviation_never_falls_below_the_floor(dice, alice, bob):
    PlayerRating.objects.create(
        user=alice, rating=1500, deviation=45, volatility=0.06, last_rated_at=timezone.now()
    )
    PlayerRating.objects.create(
        user=bob, rating=1500, deviation=45, volatility=0.06, last_rated_at=timezone.now()
    )
    match = won_by_resignation(dice, alice, bob)
    assert all(change.deviation_after >= 45 for change in changes(match).values())
