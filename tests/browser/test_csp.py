"""No page breaks the Content-Security-Policy: a real Chromium goes through the site's main
pages, plays a move by clicking, steps through a replay and opens the API's docs, and reports
every violation the policy causes, however the page would have shown it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.browser.test_play_in_browser import swapped
from tests.games.factories import make_user, start_match
from tests.ratings.conftest import won_by_resignation

pytestmark = pytest.mark.django_db(transaction=True)

# Sent by every page (the listener is in place before the page's own scripts run), so a
# violation is reported even where nothing shows on the console.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(
    `${location.pathname}: ${event.effectiveDirective} refused ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile}:${event.lineNumber})`
  );
});
"""

# Redoc's sidebar shows its maker's logo from their CDN. Refused on purpose, as the docs are
# served from here alone; Redoc then leaves the logo out.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def watched_context(
    new_context: Any, base: str, violations: list[str], user: Any | None = None
) -> Any:
    """A browser (signed in as ``user``) that adds every violation of the policy to
    ``violations``."""
    context = new_context(viewport={"width": 1280, "height": 900})
    context.expose_function("reportViolation", lambda report: violations.append(report))
    context.add_init_script(REPORT_VIOLATIONS)
    context.on(
        "console",
        lambda message: (
            violations.append(f"console: {message.text}")
            if "Content Security Policy" in message.text
            else None
        ),
    )
    if user is not None:
        session = Client()
        session.force_login(user)
        context.add_cookies(
            [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": base}]
        )
    return context


def play_the_turn(page: Any) -> None:
    """Choose a movable checker with the keyboard, then click where it may go, until Done;
    then click Done."""
    while not page.locator('[data-action="done"]').count():
        page.locator("[data-movable]").first.focus()
        swapped(page, lambda: page.keyboard.press("Enter"))
        assert page.locator("[data-selected]").count() == 1
        swapped(page, page.locator("[data-destination]").first.click)
    swapped(page, page.locator('[data-action="done"]').click)


def test_no_page_breaks_the_content_security_policy(live_server, new_context, dice):
    base = live_server.url
    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))
    finished = won_by_resignation(dice, alice, bob)
    won_by_resignation(dice, carol, alice)
    dice.add(3, 1)  # the opening roll: alice moves first
    running = start_match(alice, bob)
    violations: list[str] = []
    page = watched_context(new_context, base, violations, alice).new_page()

    pages = ("/", "/matches/", "/leaderboard/", "/dice/", "/positions/", "/imports/")
    for path in (*pages, "/settings/", "/settings/appearance/", "/settings/api-tokens/"):
        answer = page.goto(base + path)
        assert "default-src 'self'" in answer.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    page.goto(f"{base}/players/alice/")
    assert page.locator("svg.rating-chart").is_visible()

    page.goto(f"{base}/matches/{running.pk}/")
    seq = int(page.get_attribute("#play-area", "data-match-seq"))
    play_the_turn(page)
    assert int(page.get_attribute("#play-area", "data-match-seq")) > seq

    page.goto(f"{base}/matches/{finished.pk}/replay/")
    page.locator("#replay .log li[data-step] a").last.click()
    page.wait_for_selector('#replay .log li[data-step]:last-child[aria-current="step"]')
    page.goto(f"{base}/matches/{finished.pk}/dice/")
    page.wait_for_load_state("networkidle")

    page.goto(f"{base}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    page.goto(f"{base}/api/redoc/")
    page.wait_for_selector("redoc .api-content", timeout=30_000)
    page.locator('redoc input[type="text"]').first.fill("match")
    page.wait_for_selector('redoc [data-role="search:results"] >> text=List matches')

    anonymous = watched_context(new_context, base, violations).new_page()
    for path in ("/", "/accounts/login/", "/accounts/signup/", "/admin/login/"):
        anonymous.goto(base + path)
        anonymous.wait_for_load_state("networkidle")

    # A superuser: the moderators' group is made by a migration, which a flushed test database
    # no longer holds.
    admin = make_user("admin", is_staff=True, is_superuser=True)
    moderator = watched_context(new_context, base, violations, admin).new_page()
    for path in ("/admin/", f"/admin/games/match/{running.pk}/change/"):
        moderator.goto(base + path)
        moderator.wait_for_load_state("networkidle")
    assert moderator.locator('[data-point="bar"]').count()

    assert [report for report in violations if REDOC_LOGO not in report] == []


def test_a_chat_message_sent_and_received_breaks_no_policy(live_server, new_context):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, bob, length=3)
    violations: list[str] = []
    pages = {
        user: watched_context(new_context, live_server.url, violations, user).new_page()
        for user in (alice, bob)
    }
    for page in pages.values():
        page.goto(f"{live_server.url}/matches/{match.pk}/")
    sender = pages[alice]
    sender.fill(".chat-send textarea, .chat-send input[type=text]", "good luck")
    with sender.expect_response(lambda response: "/chat/" in response.url):
        sender.click(".chat-send button[type=submit]")
    sender.wait_for_selector("#chat-messages :text('good luck')")
    pages[bob].reload()
    pages[bob].wait_for_selector("#chat-messages :text('good luck')")
    assert violations == []
