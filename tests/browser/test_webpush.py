"""Web push in a real Chromium: the notification settings page registers the service worker at
/sw.js without breaking the Content-Security-Policy and offers the enable button; a push
delivered to the worker (through DevTools, as no real push service is reachable here) shows
the news with the site's icon.

Subscribing for real needs the browser's push service (Google's, for Chromium), which this
network refuses: the server's side of it is tested against a local push service in
tests/games/notifications/test_webpush.py.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from backgammon_site.core.vapid import key_pair_make
from tests.browser.test_csp import watched_context
from tests.games.factories import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

REGISTRATION = """
() => navigator.serviceWorker.ready.then((registration) => ({
  script: registration.active.scriptURL,
  scope: registration.scope,
}))
"""

NOTIFICATIONS = """
() => navigator.serviceWorker.ready
  .then((registration) => registration.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, icon: n.icon, data: n.data})))
"""


def notifications_shown(page: Any, within: float = 10.0) -> list[dict[str, Any]]:
    """The notifications the service worker shows, once there is one (it shows the push a
    moment after it is delivered); asked again until then. A function that answers with a
    promise would not do for wait_for_function: a promise is already a true value."""
    deadline = time.monotonic() + within
    while not (shown := page.evaluate(NOTIFICATIONS)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return shown


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> Any:
    keys = key_pair_make()
    settings.VAPID_PUBLIC_KEY = keys.public_key
    settings.VAPID_PRIVATE_KEY = keys.private_key
    return keys


def test_the_settings_page_registers_the_service_worker_and_offers_the_button(
    live_server, new_context, vapid
):
    base = live_server.url
    violations: list[str] = []
    context = watched_context(new_context, base, violations, make_user("alice"))
    page = context.new_page()
    page.goto(f"{base}/settings/notifications/")

    page.wait_for_selector('[data-webpush-worker="registered"]', state="attached")
    registration = page.evaluate(REGISTRATION)
    assert registration == {"script": f"{base}/sw.js", "scope": f"{base}/"}
    enable = page.get_by_role("button", name="Enable notifications on this device")
    assert enable.is_visible()
    assert page.locator("[data-webpush]").get_attribute("data-public-key") == vapid.public_key
    page.wait_for_selector('[data-webpush-state="disabled"]', state="attached")
    assert violations == []


def test_a_push_shows_the_news_with_the_sites_icon(live_server, new_context):
    base = live_server.url
    violations: list[str] = []
    context = watched_context(new_context, base, violations, make_user("alice"))
    context.grant_permissions(["notifications"], origin=base)
    page = context.new_page()
    devtools = context.new_cdp_session(page)
    registrations: list[str] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(
            r["registrationId"] for r in event["registrations"] if not r["isDeleted"]
        ),
    )
    devtools.send("ServiceWorker.enable")
    page.goto(f"{base}/settings/notifications/")
    page.evaluate(REGISTRATION)
    assert registrations

    news = {
        "title": "Your turn against bob (match 7)",
        "body": "It is your turn.",
        "url": f"{base}/matches/7/",
    }
    devtools.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registrations[-1], "data": json.dumps(news)},
    )
    (shown,) = notifications_shown(page)
    assert shown["title"] == news["title"]
    assert shown["body"] == news["body"]
    assert shown["data"] == {"url": news["url"]}
    assert shown["icon"].startswith(f"{base}/static/games/favicon")
    assert violations == []
