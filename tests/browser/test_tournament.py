"""A tournament in the browser: a player opens a knock-out's page, signs up for its last place,
and the bracket appears, drawn on the server, with a bye and links to the matches."""

import pytest

from games import services
from games.models import BracketMatch
from tests.games.factories import make_moderator, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_up_for_the_last_place_and_see_the_bracket(live_server, signed_in_page, screenshots):
    base = live_server.url
    moderator = make_moderator("organiser")
    tournament = services.tournament_create(
        creator=moderator,
        name="Harbour knock-out",
        size=7,
        start_mode="when_full",
        match_length=3,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 4},
    )
    for name in ("maria", "kenji", "olu", "freya", "ibrahim", "chen"):
        services.tournament_sign_up(tournament_id=tournament.pk, player=make_user(name))
    alice = make_user("alice")

    page = signed_in_page(base, alice, viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/tournaments/")
    page.screenshot(path=str(screenshots / "tournaments-1280.png"), full_page=True)
    page.click("text=Harbour knock-out")
    assert "6 of 7 places taken" in page.inner_text(".tournament-terms")
    assert page.locator("[data-bracket]").count() == 0
    page.click('[data-action="sign-up"]')

    page.wait_for_selector("[data-bracket]")
    assert "You are signed up." in page.inner_text("body")
    assert page.get_attribute(".tournament-terms", "data-tournament-status") == "running"
    bye = page.locator('[data-pairing="1-0"]')
    assert bye.get_attribute("data-pairing-status") == "bye"
    assert page.locator('[data-pairing-status="playing"]').count() == 3
    assert page.locator("[data-bracket] [data-player='alice']").count() == 1
    # The bracket in words, for those who cannot see it.
    page.click("#bracket-words summary")
    words = page.inner_text("#bracket-words")
    assert "has a bye" in words and "Final, match 1" in words
    page.screenshot(path=str(screenshots / "tournament-1280.png"), full_page=True)

    # One match decided: its winner moves on, marked in the bracket.
    pairing = BracketMatch.objects.filter(tournament=tournament, round=1, slot=1).first()
    services.match_award(
        match_id=pairing.match_id,
        moderator=moderator,
        winner=pairing.first.player,
        reason="a test",
    )
    services.tournament_advance(tournament_id=tournament.pk)

    phone = signed_in_page(base, alice, viewport={"width": 390, "height": 844}, is_mobile=True)
    phone.goto(f"{base}/tournaments/{tournament.pk}/")
    assert phone.locator('[data-pairing="1-1"] .side.won').count() == 1
    phone.click('[data-pairing="1-2"] a')
    assert "/matches/" in phone.url
    phone.go_back()
    phone.screenshot(path=str(screenshots / "tournament-390.png"), full_page=True)

    organiser = signed_in_page(base, moderator, viewport={"width": 390, "height": 844})
    organiser.goto(f"{base}/tournaments/new/")
    organiser.screenshot(path=str(screenshots / "tournament-new-390.png"), full_page=True)
    organiser.fill("#id_name", "Lighthouse open")
    organiser.fill("#id_size", "6")
    organiser.click(".tournament-form button[type=submit]")
    assert "Lighthouse open is open for sign-up." in organiser.inner_text("body")
    organiser.goto(f"{base}/tournaments/")
    organiser.screenshot(path=str(screenshots / "tournaments-390.png"), full_page=True)
