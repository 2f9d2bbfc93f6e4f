"""A whole 1-point match played with the keyboard alone: each player Tabs to the board once, on
their first turn; from then on the arrow keys, Enter and the shortcuts (R roll, D done) do
everything, because after every action, and after every push of the opponent's, the focus
stays on the board. The site's dice are scripted from a seed, so the match is the same on
every run."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import Profile
from games.models import Match
from tests.browser.test_play_in_browser import status
from tests.games.factories import act, make_user, reload, start_match, state_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ON_A_BOARD_BUTTON = (
    "document.activeElement !== null && document.activeElement.closest('svg.board') !== null"
    " && document.activeElement.getAttribute('role') === 'button'"
)
IN_THE_PLAY_AREA = (
    "document.activeElement !== null && document.activeElement.closest('#play-area') !== null"
)


MARK_STALE_AND_WATCH_SETTLE = """() => {
    document.getElementById("play-area").dataset.stale = "yes";
    delete document.documentElement.dataset.playAreaSettled;
    document.addEventListener("htmx:afterSettle", function settledOnce() {
        const area = document.getElementById("play-area");
        if (area && !area.dataset.stale) {
            document.documentElement.dataset.playAreaSettled = "yes";
            document.removeEventListener("htmx:afterSettle", settledOnce);
        }
    });
}"""


def settled(page: Any, key: str) -> None:
    """Press ``key`` and wait until the server's answer has replaced the play area and htmx has
    settled it: the page puts the focus back on the board only then (board-keys.js)."""
    page.evaluate(MARK_STALE_AND_WATCH_SETTLE)
    page.keyboard.press(key)
    page.wait_for_selector("html[data-play-area-settled]", state="attached", timeout=15_000)


def tab_to_the_board(page: Any) -> int:
    """Tab until a checker on the board has the focus; the number of presses."""
    for presses in range(1, 80):
        page.keyboard.press("Tab")
        if page.evaluate(ON_A_BOARD_BUTTON):
            return presses
    raise AssertionError("Tab never reached the board")


def play_a_turn(page: Any) -> dict[str, int]:
    """The turn of the player whose page this is, by keys alone: the keys pressed, by kind."""
    pressed = {"tab": 0, "other": 0}
    if page.locator('[data-action="roll"]').count():
        settled(page, "r")
        pressed["other"] += 1
    if page.locator("[data-movable]").count() and not page.evaluate(ON_A_BOARD_BUTTON):
        pressed["tab"] += tab_to_the_board(page)
    while not page.locator('[data-action="done"]').count():
        if not page.locator("[data-movable], [data-destination]").count():
            return pressed  # no play was possible: the turn passed
        focused = page.evaluate("document.activeElement.outerHTML.slice(0, 200)")
        assert page.evaluate(ON_A_BOARD_BUTTON), f"the focus left the board for {focused}"
        picking = page.locator("[data-selected]").count() == 0
        if picking and not page.evaluate("document.activeElement.hasAttribute('data-movable')"):
            page.keyboard.press("ArrowRight")
        else:
            settled(page, "Enter")
        pressed["other"] += 1
    assert page.evaluate(IN_THE_PLAY_AREA)
    settled(page, "d")
    pressed["other"] += 1
    return pressed


@pytest.fixture
def seeded_dice(dice: Any) -> Any:
    """The site's dice, the same on every run: asked for before ``site``, whose process
    inherits them."""
    return dice.add_random(4000, seed=7)


def test_a_whole_match_played_with_the_keyboard_alone(seeded_dice, site, signed_in_page):
    alice, bob = make_user("alice"), make_user("bob")
    for player in (alice, bob):
        Profile.objects.update_or_create(user=player, defaults={"auto_roll": False})
    match = start_match(alice, bob, length=1)
    pages = {
        user.pk: signed_in_page(site, user, viewport={"width": 1280, "height": 900})
        for user in (alice, bob)
    }
    for page in pages.values():
        page.goto(f"{site}/matches/{match.pk}/")

    turns, tabs_by_player, keys = 0, {alice.pk: [], bob.pk: []}, 0
    while reload(match).status == Match.Status.ACTIVE:
        assert turns < 500, "the match did not end"
        match = reload(match)
        player = match.players[state_of(match).player_to_act()]
        page = pages[player.pk]
        # The opponent's play reaches this page by a push, without a reload.
        page.wait_for_selector(
            f'#play-area[data-match-seq="{match.seq}"] :is([data-action="roll"], [data-movable])',
            timeout=20_000,
        )
        pressed = play_a_turn(page)
        tabs_by_player[player.pk].append(pressed["tab"])
        keys += pressed["tab"] + pressed["other"]
        turns += 1

    for page in pages.values():
        page.wait_for_selector('#play-area[data-match-status="finished"]', timeout=20_000)
        assert status(page) == "finished"
    print(f"keyboard match: {turns} turns, {keys} keys pressed, Tab only on the first turns")
    assert turns > 10
    for tabs in tabs_by_player.values():
        assert sum(tabs[1:]) == 0, tabs


PRESS_R_AS_THE_PLAY_AREA_IS_SWAPPED = """() => {
    window.stillThisPage = true;
    document.addEventListener("htmx:afterSwap", function pressOnce() {
        document.removeEventListener("htmx:afterSwap", pressOnce);
        document.dispatchEvent(new KeyboardEvent("keydown", { key: "r", bubbles: true }));
    });
    const poller = document.querySelector("[data-poll]");
    htmx.ajax("GET", poller.dataset.pageUrl, {
        source: "#play-area", target: "#play-area", select: "#play-area", swap: "outerHTML",
    });
}"""


def test_a_shortcut_pressed_before_a_swap_settles_is_answered_in_the_page(site, signed_in_page):
    """htmx takes over a swap's new buttons only when it settles: R pressed in that moment still
    rolls by htmx, without loading the whole page again."""
    alice, bob = make_user("alice"), make_user("bob")
    for player in (alice, bob):
        Profile.objects.update_or_create(user=player, defaults={"auto_roll": False})
    match = start_match(alice, bob, length=1)
    opener = state_of(match).player_to_act()
    match = act(
        match, match.players[opener], "move", play=state_of(match).legal_play_notations()[0]
    )
    player = match.players[1 - opener]
    page = signed_in_page(site, player, viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector('#play-area [data-action="roll"]')

    page.evaluate(PRESS_R_AS_THE_PLAY_AREA_IS_SWAPPED)

    page.wait_for_selector(f'#play-area:not([data-match-seq="{match.seq}"])', timeout=15_000)
    assert reload(match).seq > match.seq
    assert page.evaluate("window.stillThisPage === true"), "the key loaded the whole page again"
