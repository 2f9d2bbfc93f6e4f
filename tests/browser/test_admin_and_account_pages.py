"""The pages away from the board in a real browser, at a phone's 390 px and a desktop's
1280 px: the admin's match page (its board, its time in words, abort with a confirmation),
sign-up and the settings. Each saves its screenshots for a person to look at."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Profile
from games.models import Match
from tests.conftest import PASSWORD
from tests.games.factories import act, make_moderator, make_user, reload, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def overflow(page) -> int:
    """How many pixels the page is wider than the viewport (0 when it fits)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def log_in(context, base: str, username: str, url: str):
    page = context.new_page()
    page.goto(f"{base}{url}")
    field = "username" if "/admin/" in url else "login"
    page.fill(f'input[name="{field}"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main form [type="submit"], #login-form [type="submit"]')
    page.wait_for_load_state("networkidle")
    return page


@pytest.fixture
def match(dice):
    alice = make_user("alice", password=PASSWORD, email="alice@example.com")
    bob = make_user("bob", password=PASSWORD, email="bob@example.com")
    dice.add(3, 1)
    match = start_match(
        alice, bob, time_control={"kind": "correspondence", "days_per_move": 3, "reserve_days": 10}
    )
    return act(match, alice, "move", play="8/5 6/5")


@pytest.mark.parametrize("device", WIDTHS)
def test_the_admin_match_page(live_server, new_context, screenshots, match, device):
    make_moderator("mod", password=PASSWORD, email="mod@example.com")
    context = new_context(viewport=WIDTHS[device])
    page = log_in(context, live_server.url, "mod", f"/admin/games/match/{match.pk}/change/")
    assert page.locator("svg.board").count() == 1
    assert "3 days a move + 10 days reserve" in page.inner_text(".field-time_control_text")
    assert "bob:" in page.inner_text(".field-clocks_text")
    page.screenshot(path=screenshots / f"admin-match-{WIDTHS[device]['width']}.png", full_page=True)
    if device == "desktop":
        assert overflow(page) == 0
        board = page.locator("svg.board").bounding_box()
        assert board["width"] <= 640 and board["x"] + board["width"] <= 1280

    page.click('[data-moderation="abort"]')
    page.wait_for_load_state("networkidle")
    assert reload(match).status == Match.Status.ACTIVE  # only asked so far
    page.fill('textarea[name="reason"]', "both players asked")
    page.click('input[type="submit"][value="Abort"]')
    page.wait_for_load_state("networkidle")
    assert "aborted" in page.inner_text("ul.messagelist")
    assert reload(match).status == Match.Status.FINISHED
    assert page.locator("[data-moderation]").count() == 0


@pytest.mark.parametrize("device", WIDTHS)
def test_sign_up_and_settings(live_server, new_context, screenshots, device):
    width = WIDTHS[device]["width"]
    context = new_context(viewport=WIDTHS[device])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/signup/")
    assert page.inner_text("main h1") == "Sign up"
    assert overflow(page) == 0
    page.click('main form button[type="submit"]')  # nothing filled in: each field says so
    page.wait_for_load_state("networkidle")
    assert page.locator(".field.invalid").count() >= 2
    page.screenshot(path=screenshots / f"sign-up-{width}.png", full_page=True)

    make_user("carol", password=PASSWORD, email="carol@example.com")
    from allauth.account.models import EmailAddress

    carol = get_user_model().objects.get(username="carol")
    EmailAddress.objects.create(user=carol, email=carol.email, verified=True, primary=True)
    page = log_in(context, live_server.url, "carol", "/accounts/login/")
    page.screenshot(path=screenshots / f"logged-in-home-{width}.png", full_page=True)
    page.goto(f"{live_server.url}/settings/name/")
    page.fill('input[name="display_name"]', "Carol the Bold")
    page.click('main form button[type="submit"]')
    page.wait_for_load_state("networkidle")
    assert Profile.objects.get(user=carol).display_name == "Carol the Bold"
    assert overflow(page) == 0
    page.screenshot(path=screenshots / f"settings-name-{width}.png", full_page=True)
    page.goto(f"{live_server.url}/settings/")
    assert "Carol the Bold" in page.inner_text("main")
    assert overflow(page) == 0
    page.screenshot(path=screenshots / f"settings-{width}.png", full_page=True)
