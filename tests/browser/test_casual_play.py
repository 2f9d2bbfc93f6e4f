"""Casual play in a real browser: a visitor plays the computer without signing up, then signs up
and finds the match in their history; two players share one screen for a pass-and-play match."""

import re
import time

import pytest

from games.models import Match
from tests.browser.test_play_in_browser import sign_up, status, swapped
from tests.games.factories import migration_made_rows

pytestmark = pytest.mark.django_db(transaction=True)

HAND_OVER = '[data-action="hand-over"]'
BUTTONS = ('[data-action="take"]', '[data-action="accept_resign"]', '[data-action="roll"]')


def play_to_the_end_against_the_computer(page):
    """Take the visitor's turns until the match ends (within five minutes), refreshing when
    the computer's answer has not been pushed yet."""
    deadline = time.monotonic() + 300
    while status(page) == "active":
        assert time.monotonic() < deadline, "the match did not finish in five minutes"
        if not take_a_turn(page):
            swapped(page, lambda: page.click("#play-area .links a:text('Refresh')"))
    assert re.search(r"won the match", page.inner_text("#play-area"))


def take_a_turn(page):
    """Press the player's button, or play the first play of the list of legal plays (one
    request a move, where clicking the checkers takes several: test_play_in_browser clicks).
    False when there is nothing to do on the page."""
    for selector in BUTTONS:
        button = page.locator(selector)
        if button.count():
            swapped(page, button.first.click)
            return True
    plays = page.locator("details.play-list form")
    if plays.count():
        swapped(page, lambda: plays.evaluate("form => form.requestSubmit()"))
        return True
    return False


def start_a_match(page, button):
    """Press a start button and wait for the new match's page. The first start of a test run
    may be slow: it loads bgsage's networks when the computer moves first."""
    page.wait_for_load_state("networkidle")
    with page.expect_navigation(url=re.compile(r"/matches/\d+/$"), timeout=120_000):
        page.click(button)


@pytest.fixture
def computer_opponents(db):
    """The bots a migration creates: a test that empties the database (transaction=True)
    before this one takes them away, so they are put back."""
    migration_made_rows()


def test_a_visitor_plays_the_beginner_signs_up_and_finds_the_match_in_their_history(
    live_server, new_context, computer_opponents
):
    base = live_server.url
    context = new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/")
    page.select_option("#computer-length", "1")
    page.select_option("#computer-level", "beginner")
    start_a_match(page, '[data-action="play-computer"]')
    match_url = page.url
    assert "BeginnerBot" in page.inner_text("#play-area .match-header")

    play_to_the_end_against_the_computer(page)

    home = sign_up(context, base, "newcomer")
    home.goto(f"{base}/players/newcomer/")
    match_id = match_url.rstrip("/").split("/")[-1]
    assert home.locator(f'a[href="/matches/{match_id}/"]').count() >= 1
    match = Match.objects.get(pk=match_id)
    assert match.first_player.username == "newcomer" and not match.rated


def test_a_visitor_plays_plakoto_against_the_computer_to_the_end(
    live_server, new_context, computer_opponents
):
    page = new_context().new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("#computer-variant", "plakoto")
    page.select_option("#computer-length", "1")
    page.select_option("#computer-level", "intermediate")
    start_a_match(page, '[data-action="play-computer"]')
    match = Match.objects.get(pk=page.url.rstrip("/").split("/")[-1])
    assert match.variant == "plakoto"

    play_to_the_end_against_the_computer(page)
    match.refresh_from_db()
    bot_moves = match.events.filter(kind="move", actor=match.second_player).count()
    assert match.status == "finished" and bot_moves > 0


def test_two_players_play_a_one_point_match_passing_one_device(
    live_server, new_context, screenshots
):
    base = live_server.url
    context = new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{base}/")
    page.select_option("#pass-length", "1")
    page.fill("#pass-first-player", "Sam")
    page.fill("#pass-second-player", "Robin")
    start_a_match(page, '[data-action="pass-and-play"]')
    match = Match.objects.get(pk=page.url.rstrip("/").split("/")[-1])

    hand_overs, shot_taken, sides = 0, False, set()
    deadline = time.monotonic() + 300
    while status(page) == "active":
        assert time.monotonic() < deadline, "the match did not finish in five minutes"
        if page.locator(HAND_OVER).count():
            hand_overs += 1
            next_player = page.get_attribute("#play-area", "data-pass-to")
            if hand_overs == 2 and not shot_taken:
                page.screenshot(path=screenshots / "pass-the-device-phone-390.png")
                shot_taken = True
            assert f"Pass the device to {next_player}" in page.inner_text("#play-area")
            swapped(page, lambda: page.click(HAND_OVER))
            # The board is drawn from the side of the player who now has the device.
            sides.add((next_player, page.get_attribute("#play-area", "data-side")))
            continue
        assert take_a_turn(page), "nothing to do on the page of the player to act"
    assert re.search(r"won the match", page.inner_text("#play-area"))
    assert hand_overs >= 2 and shot_taken
    # The players are shown by the names they typed, without the usernames' random tags.
    assert {name for name, _ in sides} == {"Sam", "Robin"}
    assert len({side for _, side in sides}) == 2
    match.refresh_from_db()
    assert match.status == "finished" and not match.rated


def test_ending_a_game_against_the_computer_asks_first(
    live_server, new_context, computer_opponents
):
    """ "End the game" opens a confirmation; only its own button ends the match."""
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("#computer-length", "1")
    page.select_option("#computer-level", "beginner")
    start_a_match(page, '[data-action="play-computer"]')
    match = Match.objects.get(pk=page.url.rstrip("/").split("/")[-1])

    assert not page.is_visible('[data-action="abort"]')
    page.click("details.confirm-ending summary")
    assert page.is_visible('[data-action="abort"]')
    assert Match.objects.get(pk=match.pk).status == "active"

    swapped(page, lambda: page.click('[data-action="abort"]'))
    assert Match.objects.get(pk=match.pk).status != "active"
