"""``/healthz`` answers the load balancer with the production settings on (issue 34, finding
3): no redirect to HTTPS, no refusal of a Host that is not the site's, while every other path
gets both."""

from __future__ import annotations

import pytest


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["backgammon.example.com"]


@pytest.mark.parametrize("host", ["10.0.0.11:8000", "localhost", "backgammon.example.com"])
def test_the_health_check_answers_200_over_plain_http_whatever_the_host(client, production, host):
    response = client.get("/healthz", HTTP_HOST=host)

    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Cache-Control"] == "no-store"
    assert client.head("/healthz", HTTP_HOST=host).status_code == 200


def test_every_other_path_is_still_redirected_or_refused(client, production):
    assert client.get("/sw.js", HTTP_HOST="10.0.0.11:8000").status_code == 400
    redirected = client.get("/sw.js", HTTP_HOST="backgammon.example.com")
    assert redirected.status_code == 301
    assert redirected["Location"] == "https://backgammon.example.com/sw.js"
    assert client.get("/healthz/", HTTP_HOST="backgammon.example.com").status_code == 301


def test_the_health_check_takes_no_other_method(client, production):
    response = client.post("/healthz", HTTP_HOST="10.0.0.11:8000")

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
