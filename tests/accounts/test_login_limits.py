"""Failed logins are limited per account and per address, alike at allauth's login form, the
admin login and the API's token (the probe's 700 wrong passwords, reduced to a handful)."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.games.api.conftest import assert_error
from tests.games.factories import PASSWORD, make_moderator, make_user

pytestmark = pytest.mark.django_db

WRONG = "not the password"
_addresses = count(1)


def new_address() -> str:
    number = next(_addresses)
    return f"10.0.{number // 250}.{number % 250 + 1}"


@pytest.fixture
def login_limit(settings: Any) -> Any:
    """Five failures an account in five minutes, and many from an address (as allauth reads
    its settings at each attempt, the test's own rates apply)."""

    def set_rate(rate: str) -> None:
        settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "login_failed": rate}

    set_rate("1000/m/ip,5/5m/key")
    return set_rate


def token_login(username: str, password: str, address: str = "127.0.0.1", **headers: str) -> Any:
    return APIClient().post(
        "/api/auth/token/",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
        **headers,
    )


def admin_login(username: str, password: str, address: str = "127.0.0.1") -> Any:
    return Client().post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def form_login(login: str, password: str, address: str = "127.0.0.1") -> Any:
    return Client().post(
        "/accounts/login/", {"login": login, "password": password}, REMOTE_ADDR=address
    )


def assert_admin_refused_for_too_many(response: Any, retry_after: str = "300") -> None:
    assert response.status_code == 429, response.status_code
    assert response["Retry-After"] == retry_after
    page = response.content.decode()
    assert "Too many failed logins to this account or from your address." in page
    assert "Try again in 5 minutes." in page
    assert 'name="password"' in page
    assert "_auth_user_id" not in response.wsgi_request.session


def assert_token_refused_for_too_many(response: Any, retry_after: str = "300") -> None:
    body = assert_error(response, 429, "too_many_attempts")
    assert response["Retry-After"] == retry_after
    assert body["message"] == (
        "Too many failed logins to this account or from your address. Try again in 5 minutes."
    )


@pytest.fixture
def moderator() -> Any:
    return make_moderator("mod", password=PASSWORD, email="mod@example.com")


@pytest.fixture
def player() -> Any:
    return make_user("alice", password=PASSWORD, email="alice@example.com")


def test_the_sixth_wrong_password_for_an_account_is_refused_at_the_token(login_limit, player):
    for _ in range(5):
        assert_error(token_login("alice", WRONG), 400, "invalid_credentials")

    assert_token_refused_for_too_many(token_login("alice", WRONG))
    # The account is closed to guessing, the right password included, until the window ends.
    assert_token_refused_for_too_many(token_login("alice", PASSWORD))


def test_the_sixth_wrong_password_for_an_account_is_refused_at_the_admin(login_limit, moderator):
    for _ in range(5):
        response = admin_login("mod", WRONG)
        assert response.status_code == 200
        assert "correct username and password" in response.content.decode()

    assert_admin_refused_for_too_many(admin_login("mod", WRONG))
    assert_admin_refused_for_too_many(admin_login("mod", PASSWORD))


def test_changing_address_at_each_guess_does_not_reset_the_accounts_count(login_limit, moderator):
    for _ in range(5):
        assert_error(token_login("mod", WRONG, new_address()), 400, "invalid_credentials")

    assert_token_refused_for_too_many(token_login("mod", WRONG, new_address()))
    assert_admin_refused_for_too_many(admin_login("mod", WRONG, new_address()))


def test_the_three_logins_count_one_accounts_failures_together(login_limit, moderator):
    assert admin_login("mod", WRONG).status_code == 200
    assert admin_login("mod", WRONG).status_code == 200
    assert_error(token_login("mod", WRONG), 400, "invalid_credentials")
    assert_error(token_login("mod", WRONG), 400, "invalid_credentials")
    assert form_login("mod", WRONG).status_code == 200

    assert_token_refused_for_too_many(token_login("mod", WRONG))
    assert_admin_refused_for_too_many(admin_login("mod", WRONG))
    assert "Too many failed login attempts" in form_login("mod", PASSWORD).content.decode()


def test_one_address_guessing_many_accounts_is_stopped_by_the_address_limit(login_limit):
    login_limit("4/m/ip,5/5m/key")
    for name in ("ann", "ben", "cat", "dan", "eve"):
        make_user(name, password=PASSWORD)
    for name in ("ann", "ben", "cat", "dan"):
        assert_error(token_login(name, WRONG, "10.9.9.9"), 400, "invalid_credentials")

    assert_token_refused_for_too_many(token_login("eve", WRONG, "10.9.9.9"), retry_after="300")
    assert admin_login("eve", WRONG, "10.9.9.9").status_code == 429
    # Another address is not held back: eve signs in from it.
    assert token_login("eve", PASSWORD, "10.1.1.1").status_code == 201


def test_a_forged_forwarded_for_header_does_not_make_a_new_address(login_limit):
    login_limit("3/m/ip,5/5m/key")
    for name in ("ann", "ben", "cat", "dan"):
        make_user(name, password=PASSWORD)
    for name in ("ann", "ben", "cat"):
        forged = {"HTTP_X_FORWARDED_FOR": new_address()}
        assert_error(token_login(name, WRONG, "10.9.9.9", **forged), 400)

    forged = {"HTTP_X_FORWARDED_FOR": new_address()}
    assert token_login("dan", WRONG, "10.9.9.9", **forged).status_code == 429


def test_an_unaffected_account_still_signs_in_while_another_is_locked(login_limit, player):
    make_user("bob", password=PASSWORD)
    moderator = make_moderator("mod", password=PASSWORD)
    for _ in range(6):
        token_login("alice", WRONG)
    assert_token_refused_for_too_many(token_login("alice", PASSWORD))

    assert token_login("bob", PASSWORD).status_code == 201
    response = admin_login("mod", PASSWORD)
    assert response.status_code == 302 and response["Location"] == "/admin/"
    assert response.wsgi_request.session["_auth_user_id"] == str(moderator.pk)


def test_a_success_neither_counts_nor_clears_the_accounts_failures(login_limit, player):
    """As allauth's form: a success takes back its own count only, so logins of one's own
    slipped between guesses do not reset the count."""
    for _ in range(4):
        token_login("alice", WRONG)
    for _ in range(3):
        assert token_login("alice", PASSWORD).status_code == 201

    assert_error(token_login("alice", WRONG), 400, "invalid_credentials")
    assert_token_refused_for_too_many(token_login("alice", WRONG))


def test_requests_that_name_no_address_count_as_one_address(login_limit):
    login_limit("2/m/ip,5/5m/key")
    make_user("ann", password=PASSWORD)
    assert token_login("ann", PASSWORD, address="").status_code == 201
    for _ in range(2):
        assert_error(token_login("ann", WRONG, address=""), 400, "invalid_credentials")

    assert token_login("ann", PASSWORD, address="").status_code == 429
    assert token_login("ann", PASSWORD).status_code == 201


def test_the_token_requests_anonymous_throttle_counts_the_address_not_the_header(
    login_limit, settings, monkeypatch, player
):
    rates = {"anon": "3/minute", "user": "5/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    for _ in range(3):
        token_login("alice", PASSWORD, HTTP_X_FORWARDED_FOR=new_address())

    response = token_login("alice", PASSWORD, HTTP_X_FORWARDED_FOR=new_address())
    assert_error(response, 429, "throttled")


def test_a_rate_that_is_not_one_refuses_to_start(run_python):
    result = run_python(
        "import django; django.setup()",
        {"DJANGO_DEBUG": "1", "LOGIN_FAILED_RATE": "five a minute"},
    )

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "login_failed" in result.stderr
