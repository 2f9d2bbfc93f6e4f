"""The end of a match in the browser: a player resigns, both see the final score and the
rating changes, one offers a rematch and the other accepts it from the match page."""

import re

import pytest

from games import services
from games.models import Challenge
from tests.browser.test_play_in_browser import status, swapped
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_resign_then_rematch_from_the_end_panel(live_server, signed_in_page, screenshots):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_start(
        first_player=alice,
        second_player=bob,
        match_length=3,
        rated=True,
        time_control=dict(services.DEFAULT_TIME_CONTROL),
    )
    match.refresh_from_db()
    pages = {
        "alice": signed_in_page(base, alice, viewport={"width": 1280, "height": 900}),
        "bob": signed_in_page(base, bob, viewport={"width": 390, "height": 844}, is_mobile=True),
    }
    url = f"{base}/matches/{match.pk}/"
    for page in pages.values():
        page.goto(url)
    loser = match.to_act.get_username()
    winner = "bob" if loser == "alice" else "alice"

    page = pages[loser]
    page.click("details.resign summary")
    page.check('details.resign input[name="points"][value="3"]')
    swapped(page, lambda: page.click('[data-action="resign"]'))
    other = pages[winner]
    swapped(other, lambda: other.click("#play-area .links a:text('Refresh')"))
    swapped(other, lambda: other.click('[data-action="accept_resign"]'))
    assert status(other) == "finished"

    end = other.inner_text("[data-match-end]")
    assert "final score" in end.lower() and f"{loser} resigned the last game." in end
    assert re.search(rf"{winner}\s+\+\d+\.\d", end) and re.search(rf"{loser}\s+−\d+\.\d", end)
    swapped(page, lambda: page.click("#play-area .links a:text('Refresh')"))
    panel = page.locator("[data-match-end]")
    assert panel.is_visible()
    for name, shown in pages.items():
        width = "1280" if name == "alice" else "phone-390"
        shown.screenshot(path=screenshots / f"match-end-{width}.png", full_page=False)

    # alice offers; the button turns into "Rematch offered", and bob accepts from his page.
    alice_page, bob_page = pages["alice"], pages["bob"]
    alice_page.click('[data-action="rematch"]')
    alice_page.wait_for_selector("[data-rematch-offered]")
    challenge = Challenge.objects.get(rematch_of=match)
    assert challenge.challenger == alice and challenge.opponent == bob
    bob_page.goto(url)
    button = bob_page.locator('[data-action="rematch"]')
    assert button.inner_text().strip() == "Accept alice's rematch"
    bob_page.screenshot(path=screenshots / "match-end-rematch-offered-phone-390.png")
    button.click()
    bob_page.wait_for_url(re.compile(r"/matches/(\d+)/$"))
    challenge.refresh_from_db()
    assert bob_page.url == f"{base}/matches/{challenge.match_id}/"
    assert status(bob_page) == "active"
    new = challenge.match
    assert (new.first_player, new.second_player) == (bob, alice)
