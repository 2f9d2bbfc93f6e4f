"""The account pages (allauth's log in, sign up and log out) in the site's style and words:
"Log in", "Log out" and "Sign up" everywhere, never "sign in"."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.messages import get_messages
from django.urls import reverse

from accounts.models import Profile
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SIGN_IN = re.compile(r"sign[ -]?in|sign[ -]?out", re.IGNORECASE)


def main_of(html: str) -> str:
    return html.split("<main")[1].split("</main>")[0]


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/"])
def test_the_entrance_pages_say_log_in_and_sign_up(client, url):
    html = client.get(url).content.decode()
    main = main_of(html)
    assert not SIGN_IN.search(html), SIGN_IN.search(html)
    assert 'class="account-form' in main and 'class="field"' in main
    assert 'class="button primary" type="submit"' in main
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
    assert title in ("Log in · Backgammon", "Sign up · Backgammon")


def test_the_log_out_page_and_message_say_log_out(signed_in, alice):
    browser = signed_in(alice)
    assert not SIGN_IN.search(browser.get("/accounts/logout/").content.decode())
    response = browser.post("/accounts/logout/")
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert said == ["You have logged out."]


def test_logging_in_greets_the_player_by_the_name_they_chose(client, alice):
    Profile.objects.update_or_create(user=alice, defaults={"display_name": "Alice L"})
    EmailAddress.objects.update_or_create(
        user=alice, email=alice.email, defaults={"verified": True, "primary": True}
    )
    response = client.post(
        reverse("account_login"), {"login": "alice", "password": PASSWORD}, follow=True
    )
    said = [str(message) for message in get_messages(response.wsgi_request)]
    assert "You are logged in as Alice L." in said


def test_a_refused_sign_up_shows_each_problem_by_its_field(client):
    response = client.post(
        reverse("account_signup"),
        {"username": "", "email": "not-an-address", "password1": "x", "password2": "y"},
    )
    assert response.status_code == 200
    main = main_of(response.content.decode())
    for name in ("username", "email"):
        field = main.split(f'data-field="{name}"')[1].split("</div>")[0]
        assert 'role="alert"' in field, name
    assert main.count('class="field invalid"') >= 2


def test_the_password_help_is_described_by_an_element_that_exists(client):
    main = main_of(client.get(reverse("account_signup")).content.decode())
    for described in re.findall(r'aria-describedby="([^"]+)"', main):
        assert f'id="{described}"' in main
