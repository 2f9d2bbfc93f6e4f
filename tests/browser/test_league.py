"""A league in the browser: a player signs up for the next season and withdraws, and the
running season's division table and results grid show a result, on a phone-wide screen too."""

import pytest

from games import services
from tests.games.factories import make_moderator, make_user
from tests.games.leagues.helpers import award, make_league, pairings_of, start_season

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_sign_up_withdraw_and_read_the_tables(live_server, signed_in_page, screenshots, width):
    base = live_server.url
    moderator = make_moderator("commissioner")
    league = make_league(moderator, name="Harbour league")
    for name in ("maria", "kenji", "olu", "freya"):
        services.league_sign_up(league_id=league.pk, player=make_user(name))
    season = start_season(league)
    first = pairings_of(season)[0]
    award(first.match, first.first.player, moderator)
    alice = make_user("alice")

    page = signed_in_page(base, alice, viewport={"width": width, "height": 900})
    page.goto(f"{base}/leagues/")
    page.click("text=Harbour league")
    winner = first.first.player.username
    assert page.get_attribute(f'[data-standing="{winner}"]', "data-position") == "1"
    page.click(".league-grid summary")
    assert page.locator('[data-result="won"]').first.is_visible()
    assert page.locator('[data-result="playing"]').count() == 10

    page.click('[data-action="sign-up"]')
    page.wait_for_selector('[data-action="withdraw"]')
    assert "You are signed up for season 2." in page.inner_text("[data-sign-up]")
    assert page.locator('[data-entrant="alice"]').count() == 1
    page.screenshot(path=str(screenshots / f"league-{width}.png"), full_page=True)
    page.click('[data-action="withdraw"]')
    page.wait_for_selector('[data-action="sign-up"]')
    assert page.locator('[data-entrant="alice"]').count() == 0
