"""API tokens (django-rest-knox): made from a username and password, sent as
`Authorization: Token <token>`, revocable, and stored only as a digest."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.games.api.conftest import assert_error, footprint
from tests.games.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def get_token(username: str, password: str = PASSWORD) -> str:
    response = APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["token"]


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_token_is_created_for_a_username_and_password(alice):
    response = APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "expiry"}
    assert isinstance(body["token"], str) and len(body["token"]) >= 32
    assert body["expiry"] is None  # valid until revoked
    assert AuthToken.objects.filter(user=alice).count() == 1


def test_each_sign_in_gets_its_own_token(alice):
    assert get_token("alice") != get_token("alice")
    assert AuthToken.objects.filter(user=alice).count() == 2


@pytest.mark.parametrize(
    ("username", "password"),
    [("alice", "wrong"), ("alice", ""), ("nobody", PASSWORD), ("alice", PASSWORD + " ")],
)
def test_wrong_credentials_are_refused_alike(alice, username, password):
    before = AuthToken.objects.count()

    response = APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json"
    )

    if password == "":
        assert_error(response, 400, "invalid")
    else:
        body = assert_error(response, 400, "invalid_credentials")
        assert body["message"] == "Wrong username or password."
    assert AuthToken.objects.count() == before


@pytest.mark.parametrize(
    "body", [{}, {"username": "alice"}, {"password": PASSWORD}, {"username": None, "password": 1}]
)
def test_a_token_request_missing_fields_is_invalid(alice, body):
    response = APIClient().post("/api/auth/token/", body, format="json")

    error = assert_error(response, 400, "invalid")
    assert error["fields"]
    assert not AuthToken.objects.exists()


def test_an_inactive_user_gets_no_token(db):
    make_user("dormant", password=PASSWORD, is_active=False)

    response = APIClient().post(
        "/api/auth/token/", {"username": "dormant", "password": PASSWORD}, format="json"
    )

    assert_error(response, 400, "invalid_credentials")
    assert not AuthToken.objects.exists()


def test_a_token_stops_working_when_its_user_is_deactivated(alice):
    token = get_token("alice")
    assert with_token(token).get("/api/challenges/").status_code == 200

    get_user_model().objects.filter(pk=alice.pk).update(is_active=False)

    assert_error(with_token(token).get("/api/challenges/"), 401)


def test_the_token_authenticates_requests(dice, alice, bob):
    client = with_token(get_token("alice"))

    assert client.get("/api/challenges/").status_code == 200
    created = client.post("/api/challenges/", {"opponent": "bob"}, format="json")
    assert created.status_code == 201
    assert created.json()["challenger"] == "alice"
    assert_error(APIClient().get("/api/challenges/"), 401, "not_authenticated")


@pytest.mark.parametrize(
    "header",
    [
        "Token",
        "Token ",
        "Token not-a-real-token",
        "Token a b",
        "Bearer x",
        "Token " + "0" * 64,
    ],
)
def test_a_bad_authorization_header_gets_401(alice, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.get("/api/challenges/")

    assert_error(response, 401)


def test_a_revoked_token_gets_401_and_other_tokens_still_work(alice):
    revoked, kept = get_token("alice"), get_token("alice")
    client = with_token(revoked)

    response = client.post("/api/auth/token/revoke/")

    assert response.status_code == 204
    assert_error(client.get("/api/challenges/"), 401)
    assert_error(client.get("/api/matches/?mine=1"), 401)
    assert_error(client.post("/api/auth/token/revoke/"), 401)
    assert with_token(kept).get("/api/challenges/").status_code == 200
    assert AuthToken.objects.filter(user=alice).count() == 1


def test_a_revoked_token_can_no_longer_act(dice, alice, bob):
    from tests.games.api.conftest import opened

    match = opened(dice, alice, bob)
    token = get_token("bob")
    assert with_token(token).post("/api/auth/token/revoke/").status_code == 204
    before = footprint()

    response = with_token(token).post(
        f"/api/matches/{match.pk}/actions/", {"seq": match.seq, "action": "double"}, format="json"
    )

    assert_error(response, 401)
    assert footprint() == before


def test_tokens_are_stored_hashed(alice):
    token = get_token("alice")

    row = AuthToken.objects.get(user=alice)
    stored = {
        field.name: str(getattr(row, field.attname)) for field in AuthToken._meta.concrete_fields
    }
    for name, value in stored.items():
        assert token not in value, name
    assert row.digest != token
    # knox keeps a short prefix to find the row; it is not enough to sign in with.
    assert len(row.token_key) < len(token) // 2
    assert_error(with_token(row.token_key).get("/api/challenges/"), 401)
    assert_error(with_token(row.digest).get("/api/challenges/"), 401)
