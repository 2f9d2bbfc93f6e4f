"""A rematch is pushed both ways (issue 35, item 2): when one player offers it, the other's
open end panel turns its button into "Accept …'s rematch"; when that player accepts, the first
player's "Rematch offered" turns into "Play the rematch". No page is reloaded.

The site runs under daphne in a process of its own (tests/browser/conftest.py: ``site``), so
the news reaches each page only through the channel layer (PostgreSQL and Redis, as .ci/run)."""

from __future__ import annotations

import re

import pytest

from games.models import Challenge
from tests.browser.test_push import PUSH_OPEN
from tests.games.factories import act, make_user, reload, script_dice, start_match

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 30_000


def test_an_offered_and_an_accepted_rematch_reach_the_other_players_open_page(
    site, signed_in_context, monkeypatch, screenshots
):
    alice, bob = make_user("alice"), make_user("bob")
    script_dice(monkeypatch, 1, 3)
    match = start_match(alice, bob, length=1)
    act(match, bob, "resign", points=1)
    act(reload(match), alice, "accept_resign")
    pages = {}
    for user, width in ((alice, 1280), (bob, 390)):
        context = signed_in_context(site, user, viewport={"width": width, "height": 844})
        page = context.new_page()
        page.goto(f"{site}/matches/{match.pk}/")
        page.wait_for_selector(PUSH_OPEN, state="attached", timeout=WAIT)
        page.evaluate("window.samePage = true")
        pages[user.username] = page

    pages["alice"].click('[data-action="rematch"]')
    pages["alice"].wait_for_selector("[data-rematch-offered]", timeout=WAIT)
    pages["alice"].wait_for_selector(PUSH_OPEN, state="attached", timeout=WAIT)
    pages["alice"].evaluate("window.samePage = true")  # her offer was a page load of its own
    accept = pages["bob"].locator('[data-action="rematch"]:text("Accept alice\'s rematch")')
    accept.wait_for(timeout=WAIT)
    assert pages["bob"].evaluate("window.samePage") is True
    pages["bob"].screenshot(path=screenshots / "rematch-pushed-phone-390.png")

    accept.click()
    pages["bob"].wait_for_url(re.compile(r"/matches/\d+/$"), timeout=WAIT)
    rematch = Challenge.objects.get(rematch_of=match)
    assert rematch.status == Challenge.Status.ACCEPTED and rematch.match is not None
    play = pages["alice"].locator("[data-rematch-match]")
    play.wait_for(timeout=WAIT)
    assert play.get_attribute("href") == f"/matches/{rematch.match_id}/"
    assert pages["alice"].evaluate("window.samePage") is True
    assert pages["alice"].locator("[data-rematch-offered]").count() == 0
    pages["alice"].screenshot(path=screenshots / "rematch-accepted-pushed-1280.png")
