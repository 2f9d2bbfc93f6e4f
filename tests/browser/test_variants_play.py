"""Each variant played to the end in the browser, by clicking in the board: both players,
each in their own browser context, from the start position of a 1-point match."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from games import services
from games.models import Match
from tests.browser.test_play_in_browser import status, swapped, take_a_step
from tests.games.factories import reload, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

VARIANTS = [
    "backgammon",
    "nackgammon",
    "hypergammon",
    "portes",
    "plakoto",
    "fevga",
    "long-nardi",
    "tavli",
]


def signed_in_page(new_context, base, user):
    """A page of a new browser context, signed in as ``user`` (the session made on the
    server's side, to spend the test's time on the game)."""
    client = Client()
    client.force_login(user)
    context = new_context(viewport={"width": 1100, "height": 900})
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def refresh(page):
    swapped(page, lambda: page.click("#play-area .links a:text('Refresh')"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_variant_is_played_to_the_end_by_clicking(
    live_server, new_context, screenshots, alice, bob, variant
):
    base = live_server.url
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant=variant, match_length=1
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    url = f"{base}/matches/{match.pk}/"
    pages = {}
    for user in (alice, bob):
        page = signed_in_page(new_context, base, user)
        page.goto(url)
        page.screenshot(path=screenshots / f"variant-{variant}-start-{user.username}.png")
        pages[user.username] = page

    # A plakoto or fevga game runs 50-odd turns a side: minutes of clicks on a busy machine.
    clicks, deadline = 0, time.monotonic() + 420
    while status(pages["alice"]) == "active":
        assert time.monotonic() < deadline, f"the {variant} match did not finish in time"
        for page in pages.values():
            refresh(page)
            while take_a_step(page):
                clicks += 1
        refresh(pages["alice"])

    match = reload(match)
    assert match.status == Match.Status.FINISHED
    state = state_of(match)
    assert state.phase == "finished" and state.winner in (0, 1)
    winner = (alice, bob)[state.winner].username
    for page in pages.values():
        refresh(page)
        assert status(page) == "finished"
        assert f"{winner} won the match" in page.inner_text("#play-area")
        assert page.locator("[data-movable], [data-action=roll], [data-action=done]").count() == 0
    assert clicks > 10
