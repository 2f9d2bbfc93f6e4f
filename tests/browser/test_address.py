"""The address follows turns, not clicks: picking checkers replaces the page's address instead
of adding to the history, and after Done it is the match's own address again, so a reload or
Back never brings back steps of a turn already played."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from tests.browser.test_play_in_browser import swapped
from tests.games.factories import make_user, reload, start_match, state_of

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_a_turn_played_by_clicks_leaves_the_match_address_and_one_history_entry(
    site, signed_in_page
):
    alice, bob = make_user("alice"), make_user("bob")
    for player in (alice, bob):
        Profile.objects.update_or_create(user=player, defaults={"auto_roll": False})
    match = start_match(alice, bob, length=3)
    player = match.players[state_of(match).player_to_act()]
    page = signed_in_page(site, player, viewport={"width": 1280, "height": 900})
    match_url = f"{site}/matches/{match.pk}/"
    page.goto(match_url)
    page.wait_for_selector("#play-area [data-movable]")
    entries = page.evaluate("history.length")

    clicks = 0
    while not page.locator('[data-action="done"]').count():
        target = page.locator("[data-destination]").first
        if not target.count():
            target = page.locator("[data-movable]").first
        swapped(page, target.click)
        clicks += 1
        assert page.url.startswith(match_url)
        assert page.evaluate("history.length") == entries, "a click added a history entry"
    assert clicks >= 2

    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML(
            "afterbegin", '<ul class="messages"><li>The match has started.</li></ul>')"""
    )
    swapped(page, page.locator('[data-action="done"]').click)
    assert not page.locator("ul.messages").count(), "the page's old message stayed"
    assert reload(match).seq > match.seq
    assert page.url == match_url
    assert page.evaluate("history.length") == entries

    page.reload()
    assert not page.locator("#play-area .error").count()
    assert page.locator("#play-area").get_attribute("data-match-seq") == str(reload(match).seq)
