"""The page where a player creates and revokes API tokens."""

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_page_needs_a_signed_in_player(client):
    response = client.get("/settings/api-tokens/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_created_token_is_shown_once_and_works_until_revoked(client, alice):
    client.force_login(alice)
    assert "You have no API tokens" in client.get("/settings/api-tokens/").content.decode()

    response = client.post("/settings/api-tokens/new/", follow=True)
    page = response.content.decode()
    token = page.split("data-new-token>")[1].split("<")[0]
    assert len(token) == 64
    again = client.get("/settings/api-tokens/").content.decode()
    assert token not in again and token[:8] in again

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/challenges/").status_code == 200

    key = AuthToken.objects.get(user=alice).token_key
    response = client.post("/settings/api-tokens/revoke/", {"token_key": key}, follow=True)
    assert "revoked" in response.content.decode()
    assert api.get("/api/challenges/").status_code == 401


def test_a_player_cannot_revoke_someone_elses_token(client, alice, bob):
    instance, _ = AuthToken.objects.create(bob)
    client.force_login(alice)
    response = client.post(
        "/settings/api-tokens/revoke/", {"token_key": instance.token_key}, follow=True
    )
    assert "no such token" in response.content.decode()
    assert AuthToken.objects.filter(user=bob).count() == 1


def test_revoking_needs_post(client, alice):
    client.force_login(alice)
    assert client.get("/settings/api-tokens/revoke/").status_code == 405


def test_the_settings_page_leads_to_every_setting(client, django_user_model):
    user = django_user_model.objects.create_user("dora", password="pw-dora-2026")
    client.force_login(user)

    page = client.get("/settings/").content.decode()

    for link in ("/settings/notifications/", "/settings/vacation/", "/settings/api-tokens/"):
        assert f'href="{link}"' in page
    assert "Off; 4 days available." in page
    assert 'aria-current="page">Settings</a>' in page
