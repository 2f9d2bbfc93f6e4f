"""Confirming the email address in a real browser (issue 35, item 8): in the browser that
signed up, the link signs the new player in and leads to the lobby; in another browser (the
mail opened on a phone, say) it confirms the address and asks to sign in, as allauth does on
purpose: a link that signed in anyone holding it would be a password in the mail."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.accounts.mailbox import confirmation_path

pytestmark = pytest.mark.django_db(transaction=True)


def signed_up(page, base, name):
    page.goto(f"{base}/accounts/signup/")
    page.fill('input[name="username"]', name)
    page.fill('input[name="email"]', f"{name}@example.com")
    page.fill('input[name="password1"]', f"{name}-secret-pw-2026")
    page.fill('input[name="password2"]', f"{name}-secret-pw-2026")
    page.click('form button[type="submit"]')
    page.wait_for_url(f"{base}/accounts/confirm-email/")


def test_the_link_signs_in_the_browser_that_signed_up(live_server, new_context, screenshots):
    base = live_server.url
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    signed_up(page, base, "zoe")
    page.goto(base + confirmation_path(mail.outbox, "zoe@example.com"))
    page.click('form button[type="submit"]')
    page.wait_for_url(f"{base}/")
    assert page.locator('a[href="/players/zoe/"]').count() or "zoe" in page.inner_text("header")
    page.screenshot(path=screenshots / "confirmed-and-signed-in-390.png")


def test_in_another_browser_the_link_confirms_and_asks_to_sign_in(live_server, new_context):
    base = live_server.url
    signed_up(new_context().new_page(), base, "yan")
    phone = new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.goto(base + confirmation_path(mail.outbox, "yan@example.com"))
    phone.click('form button[type="submit"]')
    phone.wait_for_url(f"{base}/accounts/login/")
    assert "yan@example.com" in phone.inner_text(".messages")
    phone.fill('input[name="login"]', "yan")
    phone.fill('input[name="password"]', "yan-secret-pw-2026")
    phone.click('form button[type="submit"]')
    phone.wait_for_url(f"{base}/")
