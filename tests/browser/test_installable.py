"""The site installs as an app in Chromium: the manifest is linked and names what an install
needs, the service worker controls every page, and Chromium's own installability checks (those
Lighthouse reports, asked through DevTools) find nothing missing. Offline, the lobby and the
match pages opened here are shown as last seen, saying so, and any other page is the offline
page."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from games import services
from tests.browser.test_csp import watched_context
from tests.browser.test_pages_for_everyone import problems_on
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


def controlled_page(context: Any, base: str) -> Any:
    """A page of ``context`` on the lobby once the service worker controls it."""
    page = context.new_page()
    page.goto(f"{base}/")
    page.wait_for_function(CONTROLLED, timeout=30_000)
    return page


def test_the_manifest_is_linked_and_names_what_an_install_needs(live_server, new_context):
    base = live_server.url
    violations: list[str] = []
    page = watched_context(new_context, base, violations).new_page()
    page.goto(f"{base}/")

    href = page.locator('link[rel="manifest"]').get_attribute("href")
    answer = page.request.get(f"{base}{href}")
    assert answer.status == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        served = page.request.get(f"{base}{icon['src']}")
        assert served.status == 200
        assert served.headers["content-type"] == "image/png"
        width, height = png_size(served.body())
        assert icon["sizes"] == f"{width}x{height}"
        sizes[icon.get("purpose", "any")] = sizes.get(icon.get("purpose", "any"), set()) | {width}
    assert sizes == {"any": {192, 512}, "maskable": {512}}
    assert violations == []


def test_chromium_finds_the_site_installable(live_server, browser, tmp_path):
    """In a profile of its own: Chromium installs nothing from an incognito context, and
    Playwright's new contexts are such."""
    from tests.browser.conftest import CHROMIUM, QUIET_FLAGS

    base = live_server.url
    context = browser.browser_type.launch_persistent_context(
        tmp_path, executable_path=CHROMIUM, args=QUIET_FLAGS
    )
    try:
        page = controlled_page(context, base)
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        installability = devtools.send("Page.getInstallabilityErrors")
        registration = page.evaluate(
            "() => navigator.serviceWorker.ready.then((r) => [r.active.scriptURL, r.scope])"
        )
    finally:
        context.close()

    assert manifest["url"] == f"{base}/manifest.webmanifest"
    assert manifest["errors"] == []
    assert installability["installabilityErrors"] == []
    assert registration == [f"{base}/sw.js", f"{base}/"]


def test_offline_the_lobby_and_a_match_opened_here_are_shown_as_last_seen(
    live_server, new_context, axe_source, screenshots
):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_start(
        first_player=alice,
        second_player=bob,
        match_length=3,
        rated=False,
        time_control=dict(services.DEFAULT_TIME_CONTROL),
    )
    violations: list[str] = []
    context = watched_context(new_context, base, violations, alice)
    page = controlled_page(context, base)
    note = page.locator("[data-offline-note]")
    page.goto(f"{base}/")
    assert note.is_hidden()
    match_url = f"{base}/matches/{match.pk}/"
    page.goto(match_url)
    page.wait_for_selector(".board", state="attached")
    assert note.is_hidden()

    context.set_offline(True)
    page.goto(f"{base}/")
    assert note.is_visible()
    assert note.inner_text().startswith("You are offline: this is the page as last seen at ")
    assert page.locator("[data-offline-seen]").get_attribute("datetime")
    assert page.locator(f'main a[href="/matches/{match.pk}/"]').count() >= 1

    page.goto(match_url)
    assert note.is_visible()
    page.wait_for_selector(".board", state="attached")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/")
    assert not problems_on(page, "the lobby offline", 390, axe_source)
    page.screenshot(path=screenshots / "offline-lobby-390.png")

    page.goto(f"{base}/leaderboard/")
    assert page.locator("[data-offline-page]").is_visible()
    assert page.get_by_role("heading", name="You are offline").is_visible()
    assert not problems_on(page, "the offline page", 390, axe_source)
    page.screenshot(path=screenshots / "offline-page-390.png")
    page.get_by_role("link", name="Your matches as last seen").click()
    page.wait_for_url(f"{base}/")
    assert note.is_visible()

    context.set_offline(False)
    page.goto(f"{base}/")
    assert note.is_hidden()
    assert violations == []


def test_the_pages_kept_are_forgotten_when_the_player_logs_out(live_server, new_context):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    match = services.match_start(
        first_player=alice,
        second_player=bob,
        match_length=3,
        rated=False,
        time_control=dict(services.DEFAULT_TIME_CONTROL),
    )
    violations: list[str] = []
    context = watched_context(new_context, base, violations, alice)
    page = controlled_page(context, base)
    match_url = f"{base}/matches/{match.pk}/"
    page.goto(match_url)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_selector('a[href="/accounts/login/"]', state="attached")

    context.set_offline(True)
    page.goto(match_url)
    assert page.get_by_role("heading", name="You are offline").is_visible()
    page.goto(f"{base}/")
    assert page.get_by_role("button", name="Log out").count() == 0
    assert violations == []
