"""Ratings as they stand today (ratings/today.py): deviations widened at read time for the
rating periods a player has been idle, on the leaderboard, the profile and the API, with the
clock frozen and nothing written."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import glicko2, selectors
from ratings.models import PlayerRating
from ratings.today import deviation_today, idle_periods
from tests.games.factories import make_user

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
WEEK = timedelta(days=7)


@pytest.fixture
def frozen(monkeypatch):
    """The clock stopped at NOW; ``frozen["now"]`` moves it."""
    moment = {"now": NOW}
    monkeypatch.setattr(timezone, "now", lambda: moment["now"])
    return moment


def rated(name: str, rating: float, deviation: float, *, idle: timedelta) -> PlayerRating:
    return PlayerRating.objects.create(
        user=make_user(name),
        rating=rating,
        deviation=deviation,
        volatility=0.06,
        rated_matches=20,
        last_rated_at=NOW - idle,
    )


def stored(rating: PlayerRating) -> tuple[float, float, float]:
    rating = PlayerRating.objects.get(pk=rating.pk)
    return rating.rating, rating.deviation, rating.volatility


# --- The function every reader uses ---------------------------------------------------------


def test_only_full_periods_count():
    assert idle_periods(NOW, NOW + WEEK - timedelta(microseconds=1), WEEK) == 0
    assert idle_periods(NOW, NOW + WEEK, WEEK) == 1
    assert idle_periods(NOW, NOW + 10 * WEEK + timedelta(days=6), WEEK) == 10
    assert idle_periods(NOW, NOW - WEEK, WEEK) == 0  # a clock behind the last match
    assert idle_periods(None, NOW, WEEK) == 0  # never rated


def test_the_deviation_today_is_step_6_once_per_idle_period_up_to_the_cap():
    def today(deviation: float, idle: timedelta) -> float:
        return deviation_today(deviation, 0.06, NOW - idle, NOW, period=WEEK, cap=350)

    assert today(60, timedelta(days=6, hours=23)) == 60
    assert today(60, 3 * WEEK + timedelta(days=2)) == pytest.approx(glicko2.widened(60, 0.06, 3))
    assert today(60, 52 * WEEK) > today(60, 26 * WEEK) > today(60, 3 * WEEK) > 60
    assert today(60, 4000 * WEEK) == 350
    assert deviation_today(80, 0.06, None, NOW, period=WEEK, cap=350) == 80
    assert deviation_today(400, 0.06, None, NOW, period=WEEK, cap=350) == 350


@pytest.mark.parametrize("period_days", [7, 30])
def test_the_period_comes_from_the_settings(db, settings, period_days):
    settings.RATINGS = {**settings.RATINGS, "PERIOD_DAYS": period_days}
    rating = rated("dora", 1650, 60, idle=timedelta(days=period_days * 4 + 1))
    assert rating.deviation_at(NOW) == pytest.approx(glicko2.widened(60, 0.06, 4))
    assert rating.today(NOW).deviation == rating.deviation_at(NOW)


# --- The readers, with the clock frozen -------------------------------------------------------


def page(response) -> str:
    return html.unescape(response.content.decode())


def leaderboard_names(text: str) -> list[str]:
    return re.findall(r'<tr data-player="([^"]+)">', text)


@pytest.fixture
def idle_board(db, frozen):
    """Three players established when they last played; one has since been idle for 30 weeks,
    which widens 100 to 115, past the provisional threshold of 110; one for 10 weeks (105)."""
    return {
        "dora": rated("dora", 1650, 100, idle=30 * WEEK),
        "erin": rated("erin", 1720, 100, idle=10 * WEEK),
        "finn": rated("finn", 1590, 100, idle=timedelta(days=3)),
    }


def test_the_widths_the_fixture_relies_on():
    assert glicko2.widened(100, 0.06, 30) == pytest.approx(115.1, abs=0.1)
    assert glicko2.widened(100, 0.06, 10) == pytest.approx(105.3, abs=0.1)


def test_an_idle_player_leaves_the_leaderboard_and_nothing_is_written(client, idle_board):
    before = {name: stored(rating) for name, rating in idle_board.items()}
    text = page(client.get(reverse("leaderboard")))
    assert leaderboard_names(text) == ["erin", "finn"]
    assert re.search(r'data-rating="1720">1720 <span class="hint">± 105</span>', text)
    assert re.search(r'data-rating="1590">1590 <span class="hint">± 100</span>', text)
    assert {name: stored(rating) for name, rating in idle_board.items()} == before


def test_the_leaderboard_api_gives_the_deviation_as_it_stands(client, idle_board):
    rows = client.get("/api/leaderboard/").json()["results"]
    assert [(row["player"], row["deviation"], row["provisional"]) for row in rows] == [
        ("erin", round(glicko2.widened(100, 0.06, 10), 2), False),
        ("finn", 100.0, False),
    ]


def test_time_passing_alone_widens_what_readers_see(client, idle_board, frozen):
    assert [row.user.username for row in selectors.leaderboard()] == ["erin", "finn"]
    frozen["now"] = NOW + 40 * WEEK
    assert [row.user.username for row in selectors.leaderboard()] == []
    assert selectors.rating_in(idle_board["finn"].user, "backgammon").deviation == pytest.approx(
        glicko2.widened(100, 0.06, 40)
    )
    assert stored(idle_board["finn"])[1] == 100


def test_the_profile_shows_an_idle_players_rating_as_provisional(client, idle_board):
    text = page(client.get(reverse("profile", args=["dora"])))
    section = text.split('id="rating-heading"')[1].split("</section>")[0]
    assert 'data-rating="1650" data-provisional' in section
    assert "± 115" in section and ">provisional</abbr>" in section
    fresh = page(client.get(reverse("profile", args=["finn"])))
    assert "provisional" not in fresh.split('id="rating-heading"')[1].split("</section>")[0]


def test_a_new_player_has_the_new_deviation_whatever_the_date(db, frozen):
    newcomer = make_user("newcomer")
    today = selectors.rating_in(newcomer, "backgammon")
    assert (today.rating, today.deviation, today.rated_matches) == (1500, 350, 0)
    assert today.is_provisional
    assert not PlayerRating.objects.filter(user=newcomer).exists()


def test_match_lists_read_ratings_in_one_go(db, idle_board, django_assert_num_queries):
    ids = [rating.user_id for rating in idle_board.values()]
    with django_assert_num_queries(1):
        found = selectors.ratings_in([*ids, ids[0]], "backgammon")
    assert {today.user.username: round(today.deviation) for today in found.values()} == {
        "dora": 115,
        "erin": 105,
        "finn": 100,
    }
