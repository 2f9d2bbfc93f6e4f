"""Two people sign up, one challenges the other, and they play a whole match by clicking."""

import re
import time

import pytest
from django.core import mail
from playwright.sync_api import Error as PlaywrightError

from games.models import MatchEvent
from tests.accounts.mailbox import confirmation_path

pytestmark = pytest.mark.django_db(transaction=True)

STEPS = (
    '[data-action="take"]',
    '[data-action="accept_resign"]',
    '[data-action="roll"]',
    '[data-action="done"]',
    "[data-destination]",
    "[data-movable]",
)


def sign_up(context, base, name):
    page = context.new_page()
    page.goto(f"{base}/accounts/signup/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="email"]', f"{name}@example.com")
    page.fill('input[name="password1"]', f"{name}-secret-pw-2026")
    page.fill('input[name="password2"]', f"{name}-secret-pw-2026")
    page.click('form button[type="submit"]')
    page.wait_for_url(f"{base}/accounts/confirm-email/")
    # The live server runs in this process: its emails are in this process's outbox.
    page.goto(base + confirmation_path(mail.outbox, f"{name}@example.com"))
    page.click('form button[type="submit"]')
    page.wait_for_url(f"{base}/")
    return page


def swapped(page, click):
    """Click, then wait until the play area has been replaced by the server's answer.

    The page also reloads itself when the other player acts (it polls); a reload that lands
    between the steps here is waited out.
    """
    for _ in range(5):
        try:
            page.wait_for_selector("#play-area", timeout=15_000)
            page.evaluate("document.getElementById('play-area').dataset.stale = 'yes'")
            break
        except PlaywrightError:
            page.wait_for_load_state()
    click()
    page.wait_for_selector("#play-area:not([data-stale])", timeout=15_000)


def take_a_step(page):
    """Do the first thing this player can do on the page; False when it is not their turn."""
    for selector in STEPS:
        target = page.locator(selector)
        if target.count():
            swapped(page, target.first.click)
            return True
    return False


def status(page):
    return page.get_attribute("#play-area", "data-match-status")


def challenge_and_accept(base, alice, bob, length):
    alice.goto(f"{base}/")
    alice.fill('input[name="opponent"]', "bob")
    alice.select_option('select[name="match_length"]', str(length))
    alice.click('form.challenge-form button[type="submit"]')
    bob.goto(f"{base}/")
    bob.click('form[action*="/accept/"] button')
    bob.wait_for_url(re.compile(r"/matches/\d+/$"))
    alice.goto(bob.url)
    return bob.url


def test_two_players_play_a_one_point_match_by_clicking(live_server, new_context, screenshots):
    base = live_server.url
    desktop = new_context(viewport={"width": 1280, "height": 900})
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    alice = sign_up(desktop, base, "alice")
    bob = sign_up(phone, base, "bob")
    challenge_and_accept(base, alice, bob, length=1)

    clicks, shot_taken, deadline = 0, False, time.monotonic() + 600
    while status(alice) == "active":
        assert time.monotonic() < deadline, "the match did not finish in ten minutes"
        for page in (alice, bob):
            swapped(page, lambda page=page: page.click("#play-area .links a:text('Refresh')"))
            while take_a_step(page):
                clicks += 1
            if clicks > 40 and not shot_taken:
                alice.screenshot(path=screenshots / "mid-game-desktop-1280.png", full_page=True)
                bob.screenshot(path=screenshots / "mid-game-phone-390.png", full_page=True)
                shot_taken = True
    for page in (alice, bob):
        swapped(page, lambda page=page: page.click("#play-area .links a:text('Refresh')"))
        assert status(page) == "finished"
        assert re.search(r"(alice|bob) won the match", page.inner_text("#play-area"))
        # No move, roll or cube action is left; the end panel offers a rematch instead.
        game_actions = ", ".join(
            f"[data-action={action}]"
            for action in ("roll", "double", "take", "drop", "move", "done", "undo", "resign")
        )
        assert page.locator(game_actions).count() == 0
        assert page.locator("[data-match-end] [data-action=rematch]").count() == 1
    alice.screenshot(path=screenshots / "finished-desktop-1280.png", full_page=True)
    bob.screenshot(path=screenshots / "finished-phone-390.png", full_page=True)
    assert shot_taken and clicks > 40


def test_double_take_and_drop_by_clicking(live_server, new_context):
    base = live_server.url
    alice = sign_up(new_context(), base, "alice")
    bob = sign_up(new_context(), base, "bob")
    challenge_and_accept(base, alice, bob, length=5)

    doubles = takes = 0
    for _ in range(200):
        for page in (alice, bob):
            swapped(page, lambda page=page: page.click("#play-area .links a:text('Refresh')"))
            if page.locator('[data-action="double"]').count():
                swapped(page, lambda page=page: page.click('[data-action="double"]'))
                doubles += 1
            elif page.locator('[data-action="take"]').count():
                action = "take" if takes == 0 else "drop"
                swapped(page, lambda page=page, a=action: page.click(f'[data-action="{a}"]'))
                takes += 1
            else:
                while take_a_step(page):
                    pass
        if takes >= 2:
            break
    assert doubles >= 2 and takes >= 2
    swapped(alice, lambda: alice.click("#play-area .links a:text('Refresh')"))
    text = alice.inner_text("#play-area")
    assert "won 2 (drop)" in text  # the redouble to 4 was dropped at 2


def test_without_javascript_the_list_of_legal_plays_plays_a_move(live_server, new_context):
    base = live_server.url
    alice = sign_up(new_context(java_script_enabled=False), base, "alice")
    bob = sign_up(new_context(java_script_enabled=False), base, "bob")
    challenge_and_accept(base, alice, bob, length=3)
    mover = next(page for page in (alice, bob) if page.locator('[data-action="move"]').count())
    seq = int(mover.get_attribute("#play-area", "data-match-seq"))
    mover.click("summary:text('Choose from the list of legal plays')")
    choice = mover.locator("#play-choice option").first.get_attribute("value")
    mover.select_option("#play-choice", choice)
    mover.click('button[data-action="move"]')
    mover.wait_for_load_state()
    assert int(mover.get_attribute("#play-area", "data-match-seq")) > seq
    played = MatchEvent.objects.filter(kind="move", actor__isnull=False).values_list(
        "payload", flat=True
    )
    assert [payload["play"] for payload in played] == [choice]
