"""The load test's floors: served by its own URLs only, and each does what it is measured for."""

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from accounts.models import Profile
from games.management.loadtest.floors import FLOOR_KEY_PREFIX
from games.models import IdempotencyRecord
from tests.games.api.conftest import client_for

LOADTEST_URLS = "backgammon_site.loadtest_urls"


@pytest.mark.parametrize(
    "path", ["/loadtest/bare/", "/loadtest/bare-auth/", "/api/loadtest/floor/"]
)
def test_the_service_itself_has_no_floor(path):
    with pytest.raises(Resolver404):
        resolve(path)
    assert resolve(path, urlconf=LOADTEST_URLS)


@pytest.mark.urls(LOADTEST_URLS)
def test_the_signed_in_page_knows_its_visitor(alice):
    client = Client()
    client.force_login(alice)

    response = client.get("/loadtest/bare-auth/")

    assert response.status_code == 200
    assert b"Signed in: alice" in response.content


@pytest.mark.urls(LOADTEST_URLS)
def test_the_floor_write_inserts_one_row_under_the_players_locked_profile(alice):
    Profile.objects.get_or_create(user=alice)
    client = client_for(alice)

    first = client.post("/api/loadtest/floor/", {}, format="json")
    second = client.post("/api/loadtest/floor/", {}, format="json")

    assert (first.status_code, second.status_code) == (201, 201)
    keys = IdempotencyRecord.objects.filter(user=alice).values_list("key", flat=True)
    assert len(keys) == 2 and all(key.startswith(FLOOR_KEY_PREFIX) for key in keys)
    assert client_for(None).post("/api/loadtest/floor/", {}, format="json").status_code == 401
