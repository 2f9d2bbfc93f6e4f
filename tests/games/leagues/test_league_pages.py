"""The league pages: the list, a league with its division tables and results grid, sign-up and
withdrawal, the create form, the profile's leagues and the admin."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import League
from tests.games.factories import make_user
from tests.games.leagues.helpers import award, make_league, pairings_of, start_season


def test_the_list_and_a_league_signing_up(client: Any, signed_in: Any, moderator: Any) -> None:
    league = make_league(moderator, name="Evening league")
    assert "Evening league" in client.get("/leagues/").content.decode()
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'data-next-season="1"' in page and "Log in</a> to sign up" in page

    player = make_user("joiner")
    browser = signed_in(player)
    answer = browser.post(f"/leagues/{league.pk}/sign-up/", follow=True)
    page = answer.content.decode()
    assert "You are signed up for season 1" in page and 'data-action="withdraw"' in page
    answer = browser.post(f"/leagues/{league.pk}/withdraw/", follow=True)
    assert 'data-action="sign-up"' in answer.content.decode()
    again = browser.post(f"/leagues/{league.pk}/withdraw/", follow=True).content.decode()
    assert "You are not signed up for season 1" in again


def test_a_running_season_shows_standings_and_results(client: Any, moderator: Any) -> None:
    league = make_league(moderator)
    for n in range(4):
        services.league_sign_up(league_id=league.pk, player=make_user(f"g{n}"))
    season = start_season(league)
    first = pairings_of(season)[0]
    award(first.match, first.first.player, moderator)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert 'data-season="1"' in page and 'data-division="1"' in page
    winner = first.first.player.username
    assert f'data-standing="{winner}" data-position="1"' in page
    assert page.count('data-result="won"') == 1 and page.count('data-result="lost"') == 1
    assert page.count('data-result="playing"') == 10
    assert 'data-next-season="2"' in page
    profile = client.get(f"/players/{winner}/").content.decode()
    assert f'data-league="{league.pk}"' in profile


def test_the_create_form(signed_in: Any, moderator: Any, alice: Any) -> None:
    form = {
        "name": "Form league",
        "variant": "backgammon",
        "match_length": 3,
        "days_per_move": 1,
        "reserve_days": 4,
        "rated": "on",
        "season_days": 21,
        "division_size": 8,
        "promoted": 2,
        "starts_at": "2099-01-01T18:00",
    }
    refused = signed_in(alice).post("/leagues/new/", form, follow=True)
    assert "Only moderators can create leagues" in refused.content.decode()
    bad = signed_in(moderator).post("/leagues/new/", {**form, "division_size": 5})
    assert bad.status_code == 400 and not League.objects.exists()
    made = signed_in(moderator).post("/leagues/new/", form)
    league = League.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/leagues/{league.pk}/"
    assert league.time_control["reserve_days"] == 4 and league.season_days == 21


def test_moderators_see_leagues_in_the_admin(signed_in: Any, moderator: Any) -> None:
    league = make_league(moderator, name="Admin league")
    for n in range(4):
        services.league_sign_up(league_id=league.pk, player=make_user(f"m{n}"))
    start_season(league)
    browser = signed_in(moderator)
    assert "Admin league" in browser.get("/admin/games/league/").content.decode()
    assert browser.get(f"/admin/games/league/{league.pk}/change/").status_code == 200
    season = league.seasons.get(number=1)
    page = browser.get(f"/admin/games/leagueseason/{season.pk}/change/").content.decode()
    assert "m3 in Admin league season 1" in page
    assert browser.get("/admin/games/league/add/").status_code == 403
