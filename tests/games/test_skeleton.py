"""The project skeleton: settings from the environment, the Celery app, and the first pages."""

import os

import pytest
from django.conf import settings

from backgammon_site import celery_app

LOAD_SETTINGS = (
    "import django; django.setup(); "
    "from django.conf import settings; print('DEBUG', settings.DEBUG)"
)


@pytest.mark.django_db
def test_home_page_says_backgammon_and_links_to_login_and_signup(client):
    response = client.get("/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Backgammon" in page
    assert 'href="/accounts/login/"' in page
    assert 'href="/accounts/signup/"' in page


def test_database_follows_database_url():
    engine = settings.DATABASES["default"]["ENGINE"]

    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        assert engine == "django.db.backends.postgresql"
    else:
        assert engine == "django.db.backends.sqlite3"


def test_atomic_requests_stay_off():
    assert not settings.DATABASES["default"]["ATOMIC_REQUESTS"]


def test_secret_key_is_required_when_debug_is_off(run_python):
    result = run_python(LOAD_SETTINGS, env={"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": None})

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_settings_load_with_a_secret_key_and_debug_off(run_python):
    result = run_python(
        LOAD_SETTINGS, env={"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "a-real-secret"}
    )

    assert result.returncode == 0, result.stderr
    assert "DEBUG False" in result.stdout


def test_debug_runs_without_a_secret_key(run_python):
    result = run_python(LOAD_SETTINGS, env={"DJANGO_DEBUG": "1", "DJANGO_SECRET_KEY": None})

    assert result.returncode == 0, result.stderr
    assert "DEBUG True" in result.stdout


def test_discord_login_is_offered_only_when_its_credentials_are_set(run_python):
    code = (
        "import django; django.setup(); from django.apps import apps; "
        "print('discord', apps.is_installed('allauth.socialaccount.providers.discord'))"
    )
    credentials = {"DISCORD_CLIENT_ID": "client-id", "DISCORD_CLIENT_SECRET": "client-secret"}
    without = {"DISCORD_CLIENT_ID": None, "DISCORD_CLIENT_SECRET": None}

    with_discord = run_python(code, env=credentials)
    without_discord = run_python(code, env=without)

    assert with_discord.returncode == 0, with_discord.stderr
    assert "discord True" in with_discord.stdout
    assert without_discord.returncode == 0, without_discord.stderr
    assert "discord False" in without_discord.stdout


def test_celery_app_takes_its_broker_url_from_settings():
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL
    # The site queues its tasks; tests/conftest.py runs them eagerly during each test only.
    assert settings.CELERY_TASK_ALWAYS_EAGER is False


@pytest.mark.django_db
def test_admin_login_page_responds(client):
    assert client.get("/admin/login/").status_code == 200


@pytest.mark.django_db
def test_allauth_login_page_responds(client):
    assert client.get("/accounts/login/").status_code == 200


def test_api_schema_is_served(client):
    response = client.get("/api/schema/")

    assert response.status_code == 200
    assert b"openapi" in response.content
