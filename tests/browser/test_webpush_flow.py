"""The web push button's flow in a real Chromium (issue 35, item 4): one button at a time, and
a clear sentence for each refusal: the browser blocks notifications, the push service cannot
be reached, the server refuses. The browser's push service (Google's) is out of this network's
reach, so where a subscription must succeed the page's PushManager is a stand-in that answers
as Chromium does; everything else (the permission, the service worker, the server) is real."""

from __future__ import annotations

import json
from typing import Any

import pytest

from accounts.models import PushSubscription
from backgammon_site.core.vapid import key_pair_make
from tests.games.factories import make_user
from tests.games.notifications.push_service import BrowserKeys

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

ENABLE = '[data-webpush-action="enable"]'
DISABLE = '[data-webpush-action="disable"]'
ENDPOINT = "https://fcm.googleapis.com/fcm/send/flow-test"

STAND_IN_PUSH_MANAGER = """
(subscriptionJson) => {
  let current = null;
  PushManager.prototype.subscribe = async function () {
    current = {
      endpoint: subscriptionJson.endpoint,
      toJSON: () => subscriptionJson,
      unsubscribe: async () => { current = null; return true; },
    };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
}
"""


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> Any:
    keys = key_pair_make()
    settings.VAPID_PUBLIC_KEY = keys.public_key
    settings.VAPID_PRIVATE_KEY = keys.private_key
    return keys


def settings_page(
    live_server, signed_in_context, *, grant: bool, stand_in: bool = False, locale: str = "en-GB"
) -> Any:
    base = live_server.url
    viewport = {"width": 390, "height": 844}
    context = signed_in_context(base, make_user("alice"), viewport=viewport, locale=locale)
    if grant:
        context.grant_permissions(["notifications"], origin=base)
    if stand_in:
        keys = BrowserKeys()
        subscription = {
            "endpoint": ENDPOINT,
            "expirationTime": None,
            "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
        }
        context.add_init_script(f"({STAND_IN_PUSH_MANAGER})({json.dumps(subscription)})")
    page = context.new_page()
    page.goto(f"{base}/settings/notifications/")
    page.wait_for_selector('[data-webpush-state="disabled"]', state="attached", timeout=20_000)
    return page


def buttons_shown(page: Any) -> list[str]:
    return [
        name
        for name, selector in (("enable", ENABLE), ("disable", DISABLE))
        if page.locator(selector).is_visible()
    ]


def said(page: Any) -> tuple[str, str]:
    status = page.locator("[data-webpush-status]")
    return status.get_attribute("data-webpush-said"), status.inner_text()


def test_enable_then_disable_shows_one_button_at_a_time(
    live_server, signed_in_context, screenshots
):
    page = settings_page(live_server, signed_in_context, grant=True, stand_in=True)
    assert buttons_shown(page) == ["enable"]
    assert said(page) == ("off", "Notifications are off for this device.")

    page.click(ENABLE)
    page.wait_for_selector('[data-webpush-state="enabled"]', state="attached", timeout=20_000)
    assert buttons_shown(page) == ["disable"]
    assert said(page) == ("on", "Notifications are on for this device.")
    assert PushSubscription.objects.filter(endpoint=ENDPOINT).exists()
    page.screenshot(path=screenshots / "webpush-enabled-phone-390.png", full_page=True)

    page.click(DISABLE)
    page.wait_for_selector('[data-webpush-state="disabled"]', state="attached", timeout=20_000)
    assert buttons_shown(page) == ["enable"]
    assert not PushSubscription.objects.filter(endpoint=ENDPOINT).exists()


def test_a_browser_that_blocks_notifications_is_told_how_to_allow_them(
    live_server, signed_in_context
):
    page = settings_page(live_server, signed_in_context, grant=False)
    page.click(ENABLE)
    page.wait_for_selector('[data-webpush-state="blocked"]', state="attached", timeout=20_000)
    key, text = said(page)
    assert key == "blocked" and "site settings" in text and "Registration failed" not in text
    assert buttons_shown(page) == []


def test_an_unreachable_push_service_is_said_in_plain_words(
    live_server, signed_in_context, screenshots
):
    page = settings_page(live_server, signed_in_context, grant=True)
    page.click(ENABLE)
    page.wait_for_selector(
        '[data-webpush-state="no-push-service"]', state="attached", timeout=30_000
    )
    key, text = said(page)
    assert key == "no-push-service" and "push service" in text
    assert "Registration failed" not in text
    assert buttons_shown(page) == ["enable"]
    page.screenshot(path=screenshots / "webpush-no-push-service-phone-390.png", full_page=True)


def test_the_sentences_are_in_the_pages_language(live_server, signed_in_context):
    page = settings_page(live_server, signed_in_context, grant=True, locale="el-GR")
    assert page.locator("html").get_attribute("lang") == "el"
    key, text = said(page)
    assert key == "off" and text and text != "Notifications are off for this device."
