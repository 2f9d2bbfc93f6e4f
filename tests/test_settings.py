"""The project skeleton: settings from the environment, the Celery app, and the first pages."""

import pytest
from django.conf import settings

from tests.conftest import REPO_ROOT

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


@pytest.mark.slow
def test_the_database_is_the_one_database_url_names_else_sqlite_in_the_repo(run_python):
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "database = settings.DATABASES['default']; print(database['ENGINE'], database['NAME'])"
    )
    postgres = run_python(code, {"DATABASE_URL": "postgres://player@db.example:5432/backgammon"})
    unset = run_python(code, {"DATABASE_URL": None})

    assert postgres.returncode == 0, postgres.stderr
    assert postgres.stdout.split() == ["django.db.backends.postgresql", "backgammon"]
    assert unset.returncode == 0, unset.stderr
    assert unset.stdout.split() == ["django.db.backends.sqlite3", str(REPO_ROOT / "db.sqlite3")]


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


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_dice_seed_key_that_is_no_fernet_key_is_refused_at_start(run_python):
    wrong = run_python(LOAD_SETTINGS, {"DICE_SEED_KEY": "perf-dice-seed"})
    short = run_python(LOAD_SETTINGS, {"DICE_SEED_KEY": "c2hvcnQ="})
    fernet_key = "dGVzdC1vbmx5LWRpY2Utc2VlZC1rZXktMzItYnl0ZXM="
    right = run_python(LOAD_SETTINGS, {"DICE_SEED_KEY": fernet_key})

    for refused in (wrong, short):
        assert refused.returncode != 0
        assert "DICE_SEED_KEY must be a Fernet key" in refused.stderr
    assert right.returncode == 0, right.stderr


READ_STORES = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE, "
    "settings.DATABASES['default'].get('OPTIONS', {}).get('server_side_binding'))"
)


@pytest.mark.slow
def test_sessions_are_read_from_redis_first_when_cache_url_names_it(run_python):
    shared = run_python(READ_STORES, {"CACHE_URL": "redis://127.0.0.1:6379/1"})
    local = run_python(READ_STORES, {"CACHE_URL": None})
    wrong = run_python(READ_STORES, {"CACHE_URL": "memcached://127.0.0.1:11211"})

    assert shared.returncode == 0, shared.stderr
    assert shared.stdout.split()[:2] == [
        "django.core.cache.backends.redis.RedisCache",
        "django.contrib.sessions.backends.cached_db",
    ]
    assert local.returncode == 0, local.stderr
    assert local.stdout.split()[:2] == [
        "django.core.cache.backends.locmem.LocMemCache",
        "django.contrib.sessions.backends.db",
    ]
    assert wrong.returncode != 0
    assert "CACHE_URL must be a redis://" in wrong.stderr


@pytest.mark.slow
def test_postgresql_prepares_repeated_queries_unless_told_not_to(run_python):
    url = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/backgammon"}
    prepared = run_python(READ_STORES, url)
    unprepared = run_python(READ_STORES, {**url, "DATABASE_PREPARED_STATEMENTS": "0"})
    sqlite = run_python(READ_STORES, {"DATABASE_URL": "sqlite:///x.sqlite3"})

    assert prepared.stdout.split()[2] == "True", prepared.stderr
    assert unprepared.stdout.split()[2] == "None", unprepared.stderr
    assert sqlite.stdout.split()[2] == "None", sqlite.stderr


@pytest.mark.slow
def test_the_celery_app_uses_the_broker_celery_broker_url_names_else_folders_in_var(run_python):
    code = (
        "import django; django.setup(); from backgammon_site.celery import app; "
        "print(app.conf.broker_url, app.conf.broker_transport_options.get('data_folder_in'))"
    )
    redis = run_python(code, {"CELERY_BROKER_URL": "redis://127.0.0.1:6379/3"})
    unset = run_python(code, {"CELERY_BROKER_URL": None})

    assert redis.returncode == 0, redis.stderr
    assert redis.stdout.split() == ["redis://127.0.0.1:6379/3", "None"]
    assert unset.returncode == 0, unset.stderr
    assert unset.stdout.split() == ["filesystem://", str(REPO_ROOT / "var" / "celery" / "queue")]


def test_the_service_never_runs_tasks_in_place(run_python):
    code = (
        "import django; django.setup();"
        "from backgammon_site.celery import app;"
        "print(app.conf.task_always_eager, 'sweep-deadlines' in app.conf.beat_schedule)"
    )
    result = run_python(code, {"CELERY_TASK_ALWAYS_EAGER": None})

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "True"]


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
