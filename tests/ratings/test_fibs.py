"""FIBS's rating formula (ratings/fibs.py), kept beside Glicko-2 by the service that rates a
match, and shown on profiles, the leaderboard and the API. The expected values are worked by
hand from FIBS's ``help formula``."""

from __future__ import annotations

import html
import math

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import fibs
from ratings.models import PlayerRating, RatingChange
from tests.games.factories import make_user
from tests.ratings.conftest import awarded, won_by_resignation


def test_the_underdogs_chance_by_length():
    # 1 / (1 + 10^(200 sqrt(n) / 2000)): 10^0.1 = 1.25892541, 10^0.3 = 1.99526231.
    assert fibs.win_probability(1500, 1700, 1) == pytest.approx(1 / 2.25892541, abs=1e-6)
    assert fibs.win_probability(1500, 1700, 9) == pytest.approx(1 / 2.99526231, abs=1e-6)
    assert fibs.win_probability(1700, 1500, 9) == pytest.approx(1 - 1 / 2.99526231, abs=1e-6)
    assert fibs.win_probability(1620, 1620, 17) == 0.5


def test_experience_speeds_a_new_players_rating_until_400_points():
    assert [fibs.experience_factor(e) for e in (0, 1, 150, 399, 400, 5000)] == [
        5.0,
        4.99,
        3.5,
        pytest.approx(1.01),
        1.0,
        1.0,
    ]
    with pytest.raises(ValueError):
        fibs.experience_factor(-1)


def test_a_rating_change_by_hand():
    # A 9-point match, 1700 (experience 1000) against 1500 (experience 150): the favourite's
    # chance is 1 - 1 / (1 + 10^0.3) = 0.666139, the underdog's 0.333861.
    favourite, underdog = 1 - 1 / 2.99526231, 1 / 2.99526231
    # The favourite wins: +4 * 1 * 3 * 0.333861 = +4.006; the underdog loses 4 * 3.5 * 3 *
    # 0.333861 = 14.022 (K = 5 - 150 / 100).
    assert fibs.rate(1700, 1000, 1500, 9, won=True) == (
        pytest.approx(1700 + 12 * underdog, abs=1e-6),
        1009,
    )
    assert fibs.rate(1500, 150, 1700, 9, won=False) == (
        pytest.approx(1500 - 42 * underdog, abs=1e-6),
        159,
    )
    assert 12 * underdog == pytest.approx(4.006, abs=1e-3)
    # The underdog wins: +4 * 3.5 * 3 * 0.666139 = +27.978.
    assert fibs.rating_change(1500, 150, 1700, 9, won=True) == pytest.approx(
        42 * favourite, abs=1e-6
    )
    assert 42 * favourite == pytest.approx(27.978, abs=1e-3)
    with pytest.raises(ValueError):
        fibs.rate(1500, 0, 1500, 0, won=True)


@pytest.mark.django_db
def test_the_service_moves_the_fibs_rating_with_each_rated_match(dice, moderator, alice, bob):
    won_by_resignation(dice, alice, bob)
    # 1 point, both new: 4 * 5 * 1 * 0.5 = 10.
    assert _fibs(alice) == (1510.0, 1) and _fibs(bob) == (1490.0, 1)
    match = awarded(dice, moderator, bob, alice, length=5)
    # 5 points, 1490 (experience 1) beats 1510 (experience 1): bob's chance was
    # 1 / (1 + 10^(20 sqrt 5 / 2000)) = 0.487131, each moves 4 * 4.99 * sqrt 5 * 0.512869
    # = 22.8903.
    assert _fibs(bob)[0] == pytest.approx(1490 + 22.8903, abs=1e-4)
    assert _fibs(alice)[0] == pytest.approx(1510 - 22.8903, abs=1e-4)
    assert _fibs(alice)[1] == _fibs(bob)[1] == 6
    change = RatingChange.objects.get(match=match, user=bob)
    assert change.fibs_rating_before == 1490.0
    assert change.fibs_rating_after == pytest.approx(1512.8903, abs=1e-4)


@pytest.mark.django_db
def test_a_match_rated_again_moves_no_fibs_rating(dice, alice, bob):
    from ratings.services import rate_match

    match = won_by_resignation(dice, alice, bob)
    again = rate_match(
        match_id=match.pk,
        player_ids=(match.first_player_id, match.second_player_id),
        winner_id=match.winner_id,
        rated=True,
        finished_at=match.finished_at,
        match_length=1,
        variant="backgammon",
    )
    assert again == [] and _fibs(alice) == (1510.0, 1)


def _fibs(user) -> tuple[float, int]:
    rating = PlayerRating.objects.get(user=user)
    return rating.fibs_rating, rating.fibs_experience


def _established(name: str, rating: float, fibs_rating: float, experience: int) -> PlayerRating:
    return PlayerRating.objects.create(
        user=make_user(name),
        rating=rating,
        deviation=60,
        volatility=0.06,
        rated_matches=30,
        last_rated_at=timezone.now(),
        fibs_rating=fibs_rating,
        fibs_experience=experience,
    )


@pytest.mark.django_db
def test_the_leaderboard_shows_the_fibs_rating_and_experience(client):
    _established("dora", 1650, 1712.4, 480)
    text = html.unescape(client.get(reverse("leaderboard")).content.decode())
    assert ">FIBS rating</abbr></th>" in text
    row = text.split('<tr data-player="dora">')[1].split("</tr>")[0]
    assert 'data-fibs-rating="1712" data-fibs-experience="480">1712 <span class="hint">' in row
    assert "experience 480" in row
    body = client.get("/api/leaderboard/").json()["results"][0]
    assert (body["fibs_rating"], body["fibs_experience"]) == (1712.4, 480)


@pytest.mark.django_db
def test_the_profile_and_the_api_show_the_fibs_rating(client, dice, alice, bob):
    match = won_by_resignation(dice, alice, bob)
    text = html.unescape(client.get(reverse("profile", args=["alice"])).content.decode())
    section = text.split("data-player-fibs-rating>")[1].split("</p>")[0]
    assert ">FIBS rating</abbr>: " in section
    assert 'data-fibs-rating="1510" data-fibs-experience="1">1510' in section
    assert "experience 1" in section
    (rating,) = client.get("/api/players/alice/ratings/").json()
    assert (rating["fibs_rating"], rating["fibs_experience"]) == (1510.0, 1)
    (summary,) = client.get("/api/players/alice/").json()["ratings"]
    assert (summary["fibs_rating"], summary["fibs_experience"]) == (1510.0, 1)
    assert [(c["match"], c["fibs_rating_after"]) for c in rating["history"]] == [(match.pk, 1510.0)]


@pytest.mark.django_db
def test_a_player_never_rated_starts_at_1500_with_no_experience(client, alice):
    text = html.unescape(client.get(reverse("profile", args=["alice"])).content.decode())
    assert 'data-fibs-rating="1500" data-fibs-experience="0">1500' in text
    (rating,) = client.get("/api/players/alice/ratings/", {"variant": "backgammon"}).json()
    assert (rating["fibs_rating"], rating["fibs_experience"]) == (1500.0, 0)


@pytest.mark.django_db
def test_the_schema_documents_the_fibs_rating(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    for name in ("LeaderboardEntry", "PlayerRating", "VariantRating"):
        properties = components[name]["properties"]
        assert "FIBS" in properties["fibs_rating"]["description"]
        assert "400" in properties["fibs_experience"]["description"]
    history = components["RatingHistoryEntry"]["properties"]["fibs_rating_after"]
    assert history.get("nullable") is True


def test_the_constants_are_fibss():
    assert (fibs.NEW_RATING, fibs.NEW_EXPERIENCE, fibs.BOOSTED_EXPERIENCE) == (1500.0, 0, 400)
    assert fibs.experience_factor(fibs.BOOSTED_EXPERIENCE) == 1.0
    assert math.isclose(fibs.win_probability(1500, 1500, 1), 0.5)
