"""Where ratings are shown: the leaderboard page and API, the profile (rating, provisional mark,
history chart), and the match page's account of a moderator's decision."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings.models import PlayerRating, RatingChange
from tests.games.factories import make_user, start_match
from tests.ratings.conftest import aborted, awarded, won_by_resignation

pytestmark = pytest.mark.django_db


def page(response) -> str:
    return html.unescape(response.content.decode())


def rated(name: str, rating: float, deviation: float, *, active: bool = True) -> PlayerRating:
    return PlayerRating.objects.create(
        user=make_user(name, is_active=active),
        rating=rating,
        deviation=deviation,
        volatility=0.06,
        rated_matches=20,
        last_rated_at=timezone.now(),
    )


@pytest.fixture
def board(db):
    """Three established players, one provisional, one suspended."""
    rated("dora", 1650, 80)
    rated("erin", 1720, 110)  # exactly at the threshold: established
    rated("finn", 1590, 60)
    rated("gina", 1900, 110.5)  # provisional: not on the board
    rated("hank", 2000, 50, active=False)


def leaderboard_names(text: str) -> list[str]:
    return re.findall(r'<tr data-player="([^"]+)">', text)


def test_the_leaderboard_lists_established_players_best_first(client, board):
    response = client.get(reverse("leaderboard"))
    assert response.status_code == 200
    text = page(response)
    assert leaderboard_names(text) == ["erin", "dora", "finn"]
    assert "data-provisional" not in text
    assert re.search(r'data-rating="1720">1720 <span class="hint">± 110</span>', text)
    assert '<a href="/leaderboard/" aria-current="page">Leaderboard</a>' in text


def test_the_leaderboard_is_paginated(client, db):
    for index in range(55):
        rated(f"p{index:02}", 1500 + index, 70)
    first = page(client.get(reverse("leaderboard")))
    second = page(client.get(reverse("leaderboard"), {"page": 2}))
    assert len(leaderboard_names(first)) == 50 and leaderboard_names(first)[0] == "p54"
    assert leaderboard_names(second) == ["p04", "p03", "p02", "p01", "p00"]
    assert "<td data-rank>51</td>" in second
    assert "Page 2 of 2" in second


def test_the_leaderboard_api(client, board):
    response = client.get("/api/leaderboard/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3 and body["next"] is None and body["previous"] is None
    first = body["results"][0]
    assert first == {
        "rank": 1,
        "player": "erin",
        "variant": "backgammon",
        "rating": 1720.0,
        "deviation": 110.0,
        "volatility": 0.06,
        "provisional": False,
        "rated_matches": 20,
        "last_rated_at": first["last_rated_at"],
        "fibs_rating": 1500.0,
        "fibs_experience": 0,
        "timeouts": {
            "matches": 0,
            "timed_out": 0,
            "percent": 0,
            "days": 90,
            "text": "Timed out: 0 of 0 matches (0%) in the last 90 days",
            "above_limit": False,
        },
    }
    assert [row["player"] for row in body["results"]] == ["erin", "dora", "finn"]
    second_page = client.get("/api/leaderboard/", {"page_size": 2, "page": 2}).json()
    assert [(row["rank"], row["player"]) for row in second_page["results"]] == [(3, "finn")]
    assert client.get("/api/leaderboard/", {"page": 9}).status_code == 404


def test_a_new_players_rating_is_provisional_on_the_profile(client, dice, alice, bob):
    won_by_resignation(dice, alice, bob)
    text = page(client.get(reverse("profile", args=["alice"])))
    section = text.split('id="rating-heading"')[1].split("</section>")[0]
    alice_rating = PlayerRating.objects.get(user=alice)
    shown = f"{alice_rating.rating:.0f}"
    assert f'data-rating="{shown}" data-provisional' in section
    assert ">provisional</abbr>" in section
    assert "after 1 rated match," in section


def test_an_established_rating_is_not_marked_provisional(client, board):
    text = page(client.get(reverse("profile", args=["dora"])))
    section = text.split('id="rating-heading"')[1].split("</section>")[0]
    assert 'data-rating="1650">' in section
    assert "provisional" not in section


def test_the_profile_draws_the_rating_history(client, dice, alice, bob, carol):
    won_by_resignation(dice, alice, bob)
    won_by_resignation(dice, carol, alice)
    won_by_resignation(dice, alice, carol)
    text = page(client.get(reverse("profile", args=["alice"])))
    chart = text.split("data-rating-chart")[1].split("</figure>")[0]
    line = re.search(r'<polyline points="([^"]+)"[^>]*data-rating-line', chart).group(1)
    assert len(line.split()) == 4  # before the first match, then after each of three
    history = list(RatingChange.objects.filter(user=alice).order_by("created_at", "pk"))
    assert f"after rated match 3: {history[-1].rating_after:.0f}" in chart
    assert f"before the first rated match: {history[0].rating_before:.0f}" in chart
    assert re.findall(r"data-x-tick>(\d+)<", chart) == ["0", "1", "2", "3"]
    assert len(re.findall(r"data-y-tick>(\d+)<", chart)) >= 3
    assert "Rated matches" in chart and "Rating" in chart
    assert "<script" not in text.split('id="rating-heading"')[1].split("</section>")[0]
    rows = re.findall(r'data-rating-change="(\d+)"', text)
    assert len(rows) == 3  # newest first
    assert rows == sorted(rows, key=int, reverse=True)


def test_aborted_and_unrated_matches_leave_no_history(client, dice, moderator, alice, bob):
    aborted(dice, moderator, alice, bob)
    won_by_resignation(dice, alice, bob, rated=False)
    text = page(client.get(reverse("profile", args=["alice"])))
    assert "data-rating-chart" not in text
    assert "no rated match yet" in text


def test_the_match_page_names_the_moderator_who_awarded_it(client, dice, moderator, alice, bob):
    match = awarded(dice, moderator, alice, bob)
    text = page(client.get(reverse("match", args=[match.pk])))
    status = text.split("data-status>")[1].split("</p>")[0]
    assert "alice won the match" in status
    assert "awarded by moderator <span data-ended-by>mod</span>: left." in status
    replay = page(client.get(reverse("match-replay", args=[match.pk])))
    assert (
        '<strong>mod</strong> <span lang="en" translate="no">awarded the match to alice: left'
        in replay
    )


def test_the_match_page_names_the_moderator_who_aborted_it(client, dice, moderator, alice, bob):
    match = aborted(dice, moderator, alice, bob)
    status = page(client.get(reverse("match", args=[match.pk]))).split("data-status>")[1]
    assert (
        "without a winner</strong> by moderator <span data-ended-by>mod</span>: a test." in status
    )
    replay = page(client.get(reverse("match-replay", args=[match.pk])))
    assert (
        '<strong>mod</strong> <span lang="en" translate="no">ended the match without a '
        "winner: a test" in replay
    )


def test_a_match_won_at_the_board_names_no_moderator(client, dice, alice, bob):
    match = won_by_resignation(dice, alice, bob)
    text = page(client.get(reverse("match", args=[match.pk])))
    assert "alice won the match" in text and "data-ended-by" not in text


def test_match_lists_show_each_players_rating_beside_their_name(client, dice, alice, bob, carol):
    won_by_resignation(dice, alice, bob)
    dice.add(3, 1)
    ongoing = start_match(alice, carol, rated=True)  # carol has no rated match yet
    alice_rating = f"{PlayerRating.objects.get(user=alice).rating:.0f}"
    bob_rating = f"{PlayerRating.objects.get(user=bob).rating:.0f}"

    def row(text: str, match_id: int) -> str:
        return text.split(f'data-match="{match_id}">')[1].split("</tr>")[0]

    watched = row(page(client.get(reverse("watch"))), ongoing.pk)
    assert re.findall(r"data-player-rating>(\d+)<", watched) == [alice_rating]
    finished = page(client.get(reverse("watch"), {"status": "finished"}))
    assert sorted(re.findall(r"data-player-rating>(\d+)<", finished)) == sorted(
        [alice_rating, bob_rating]
    )
    carols = row(page(client.get(reverse("profile", args=["carol"]))), ongoing.pk)
    assert re.findall(r"data-player-rating>(\d+)<", carols) == [alice_rating]
    alices = row(page(client.get(reverse("profile", args=["alice"]))), ongoing.pk)
    assert "data-player-rating" not in alices  # carol, her opponent, is not rated yet


def test_the_match_page_shows_the_players_ratings_beside_their_names(
    client, dice, alice, bob, carol
):
    won_by_resignation(dice, alice, bob)
    dice.add(3, 1)
    ongoing = start_match(alice, carol, rated=True)
    text = page(client.get(reverse("match", args=[ongoing.pk])))
    header = text.split('<header class="match-header">')[1].split("</header>")[0]
    alice_rating = f"{PlayerRating.objects.get(user=alice).rating:.0f}"
    assert re.findall(r"data-player-rating>(\d+)<", header) == [alice_rating]  # carol: none yet
