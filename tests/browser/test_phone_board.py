"""The board on a phone (390 CSS px) and a desktop (1280): checkers big enough to read and
touch, every tap target on the match page big enough for a finger, the plakoto pin and the
last play plain to see. The geometry behind it: games/views/board_geometry.py."""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Match
from tests.browser.test_play_in_browser import swapped
from tests.games.factories import reload, state_of
from tests.games.services.test_variants import play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

WIDTHS = [390, 1280]
#: WCAG 2.5.5's target size, in CSS px.
TAP = 44
#: A point is a twelfth of the board's width: on a phone the most a column of the board gets.
POINT_ACROSS = 28
CHECKER_ACROSS = 28


def rendered(page, selector):
    """The getBoundingClientRect of each element matching ``selector``, visible or not."""
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {width: r.width, height: r.height, left: r.left, right: r.right,"
        " label: e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40)}; })",
    )


def checker_diameters(page):
    """Each checker's diameter in CSS px, its edge's stroke left out."""
    return page.eval_on_selector_all(
        "svg.board circle.checker",
        "els => els.map(e => { const svg = e.ownerSVGElement;"
        " return 2 * e.r.baseVal.value * svg.getBoundingClientRect().width"
        " / svg.viewBox.baseVal.width; })",
    )


def match_page(live_server, signed_in_page, user, match, width):
    page = signed_in_page(
        live_server.url, user, viewport={"width": width, "height": 900}, is_mobile=width < 600
    )
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    return page


@pytest.fixture
def alice_moving(dice, alice, bob):
    """A backgammon match where alice has won the opening roll (3-1) and moves."""
    dice.add(3, 1)
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant="backgammon", match_length=3
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert state_of(reload(match)).phase == "moving"
    return match


@pytest.mark.parametrize("width", WIDTHS)
def test_checkers_are_28_px_across_and_every_tap_target_is_44_px(
    live_server, signed_in_page, screenshots, alice, alice_moving, width
):
    page = match_page(live_server, signed_in_page, alice, alice_moving, width)
    board = rendered(page, "svg.board")[0]
    assert board["left"] >= 0 and board["right"] <= width, board

    diameters = checker_diameters(page)
    assert len(diameters) == 30
    assert min(diameters) >= CHECKER_ACROSS, min(diameters)

    # A movable checker is picked up by a touch anywhere on its point.
    picks = rendered(page, "svg.board .pick-area")
    assert picks
    for area in picks:
        assert area["width"] >= POINT_ACROSS and area["height"] >= 3 * TAP, area

    swapped(page, page.locator("svg.board [data-movable]").first.click)
    targets = rendered(page, "svg.board [data-destination]")
    assert targets
    for target in targets:
        assert target["width"] >= POINT_ACROSS and target["height"] >= 3 * TAP, target

    controls = rendered(
        page,
        "#play-area .match-side button:visible, #play-area .match-side a:visible,"
        " #play-area .match-side summary:visible",
    )
    assert controls
    small = [c for c in controls if c["width"] < TAP or c["height"] < TAP]
    assert not small, [(c["label"], round(c["width"]), round(c["height"])) for c in small]
    page.screenshot(path=screenshots / f"phone-board-backgammon-{width}.png", full_page=True)


def pinned_plakoto(alice, bob):
    """A plakoto match played at random until a checker is pinned, alice to act; a match that
    ends first is followed by a new one."""
    chooser = random.Random("pinned")
    for _ in range(10):
        challenge = services.challenge_create(
            challenger=alice, opponent=bob, variant="plakoto", match_length=1
        )
        match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
        match = play_to_the_end(
            match,
            chooser,
            until=lambda state: (
                state.board is not None and any(state.board.pinned) and state.player_to_act() == 0
            ),
        )
        if reload(match).status == Match.Status.ACTIVE:
            return match
    raise AssertionError("ten plakoto matches played at random ended without a pin")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pin_and_the_last_play_show_at_a_glance(
    live_server, signed_in_page, screenshots, dice, alice, bob, width
):
    dice.add_random(4000, seed=35)
    match = pinned_plakoto(alice, bob)
    page = match_page(live_server, signed_in_page, alice, match, width)

    pinned = page.locator("svg.board [data-pinned-checker]").first
    pinner = pinned.locator("xpath=following-sibling::*[contains(@class, 'checker')][1]")
    shown = abs(
        pinner.evaluate("e => e.cy.baseVal.value") - pinned.evaluate("e => e.cy.baseVal.value")
    )
    across = 2 * pinned.evaluate("e => e.r.baseVal.value")
    assert shown >= 0.55 * across, (shown, across)  # more than half of it in sight
    ring = pinned.evaluate("e => parseFloat(getComputedStyle(e).strokeWidth)")
    assert ring >= 4

    marks = rendered(page, "svg.board .last-mark")
    assert marks, "the last play is marked on its points"
    assert (
        page.locator("svg.board .last-mark").first.evaluate(
            "e => parseFloat(getComputedStyle(e).strokeWidth)"
        )
        >= 4
    )
    page.screenshot(path=screenshots / f"phone-board-plakoto-pin-{width}.png", full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("variant", ["long-nardi", "acey-deucey"])
def test_the_trays_and_the_waiting_checkers_lie_within_the_board(
    live_server, signed_in_page, screenshots, dice, alice, bob, variant, width
):
    """Long nardi's opponent bears off top left; acey-deucey's checkers wait in a row below
    and above the board: every checker in the picture, as big as on the points."""
    dice.add_random(40, seed=35)
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant=variant, match_length=1
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    page = match_page(live_server, signed_in_page, alice, match, width)
    board = rendered(page, "svg.board")[0]
    checkers = rendered(page, "svg.board circle.checker")
    assert checkers
    assert min(checker_diameters(page)) >= CHECKER_ACROSS
    for checker in checkers:
        assert board["left"] <= checker["left"] and checker["right"] <= board["right"], checker
    for tray in rendered(page, 'svg.board [data-point="off"] rect.tray, svg.board rect.waiting'):
        assert tray["height"] >= TAP and board["left"] <= tray["left"], tray
        assert tray["right"] <= board["right"], tray
    if variant == "acey-deucey":
        assert page.locator('svg.board [data-point="in"] circle.checker').count() == 10
    page.screenshot(path=screenshots / f"phone-board-{variant}-{width}.png", full_page=True)
