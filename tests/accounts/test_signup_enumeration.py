"""Signing up and resetting a password never tell whether an address is registered: both
answer alike, and only the address's owner learns, by email, that someone tried."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts.guests import GUEST_KEY
from accounts.models import Profile
from tests.accounts.mailbox import confirmation_path

pytestmark = pytest.mark.django_db

User = get_user_model()
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def sign_up(browser: Client, username: str, email: str) -> Any:
    return browser.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": email,
            "password1": f"{username}-secret-pw-2026",
            "password2": f"{username}-secret-pw-2026",
        },
        follow=True,
    )


def as_seen(response: Any, *told: str) -> tuple[int, list[Any], str]:
    """What the visitor sees: the redirects, the status and the page, with the CSRF token
    and the words they typed themselves left out."""
    page = CSRF_TOKEN.sub("", response.content.decode())
    for words in told:
        page = page.replace(words, "WHAT-YOU-TYPED")
    return response.status_code, response.redirect_chain, page


def mail_to(outbox: list[Any], address: str) -> list[Any]:
    return [message for message in outbox if address in message.to]


def test_signing_up_with_a_registered_address_answers_as_with_a_new_one(alice, mailoutbox):
    users_before = User.objects.count()

    registered = sign_up(Client(), "mallory", "ALICE@example.com")
    new = sign_up(Client(), "newcomer", "newcomer@example.com")

    assert registered.redirect_chain == [(reverse("account_email_verification_sent"), 302)]
    assert as_seen(registered, "alice@example.com") == as_seen(new, "newcomer@example.com")
    assert User.objects.count() == users_before + 1
    assert not User.objects.filter(username="mallory").exists()
    assert User.objects.get(pk=alice.pk).email == "alice@example.com"


def test_the_owner_of_a_registered_address_is_told_that_someone_tried(alice, mailoutbox):
    sign_up(Client(), "mallory", "alice@example.com")
    sign_up(Client(), "newcomer", "newcomer@example.com")

    [warning] = mail_to(mailoutbox, "alice@example.com")
    assert "an account using that email address already exists" in warning.body
    assert reverse("account_reset_password") in warning.body
    assert "/accounts/confirm-email/" not in warning.body
    [welcome] = mail_to(mailoutbox, "newcomer@example.com")
    assert "/accounts/confirm-email/" in welcome.body


def test_a_new_account_signs_in_only_once_its_address_is_verified(mailoutbox):
    browser = Client()
    sign_up(browser, "newcomer", "newcomer@example.com")
    account = User.objects.get(username="newcomer")
    assert "_auth_user_id" not in browser.session

    elsewhere = Client()
    refused = elsewhere.post(
        reverse("account_login"),
        {"login": "newcomer", "password": "newcomer-secret-pw-2026"},
    )
    assert refused["Location"] == reverse("account_email_verification_sent")
    assert "_auth_user_id" not in elsewhere.session

    confirmed = browser.post(confirmation_path(mailoutbox, "newcomer@example.com"))
    assert confirmed.status_code == 302
    assert browser.session["_auth_user_id"] == str(account.pk)


def guest_session(dice: Any) -> tuple[Client, Any]:
    """A visitor playing as a guest: they started a pass-and-play match."""
    browser = Client()
    dice.add(3, 1)
    started = browser.post(
        reverse("pass-and-play"),
        {"match_length": 1, "first_player": "Sam", "second_player": "Robin"},
    )
    assert started.status_code == 302
    return browser, User.objects.get(pk=browser.session[GUEST_KEY])


def test_a_guest_session_cannot_tell_a_registered_address_from_a_new_one(alice, dice, mailoutbox):
    registered_browser, registered_guest = guest_session(dice)
    new_browser, new_guest = guest_session(dice)

    registered = sign_up(registered_browser, "mallory", "alice@example.com")
    new = sign_up(new_browser, "newcomer", "newcomer@example.com")

    assert as_seen(registered, "alice@example.com", registered_guest.username) == as_seen(
        new, "newcomer@example.com", new_guest.username
    )
    # Both sessions play on as their guests; only the new address's guest is now the account
    # that waits for its address to be verified.
    assert registered_browser.session[GUEST_KEY] == registered_guest.pk
    assert new_browser.session[GUEST_KEY] == new_guest.pk
    assert Profile.objects.get(user=registered_guest).is_guest
    assert Profile.objects.get(user=new_guest).is_guest
    assert User.objects.get(pk=new_guest.pk).username == "newcomer"
    assert User.objects.get(pk=registered_guest.pk).username == registered_guest.username


def test_resetting_a_password_answers_alike_for_registered_and_unknown_addresses(alice, mailoutbox):
    reset = reverse("account_reset_password")
    registered = Client().post(reset, {"email": "alice@example.com"}, follow=True)
    unknown = Client().post(reset, {"email": "nobody@example.com"}, follow=True)

    assert registered.redirect_chain == [(reverse("account_reset_password_done"), 302)]
    assert as_seen(registered) == as_seen(unknown)
    [link] = mail_to(mailoutbox, "alice@example.com")
    assert "/accounts/password/reset/key/" in link.body
    [no_account] = mail_to(mailoutbox, "nobody@example.com")
    assert "/accounts/password/reset/key/" not in no_account.body
