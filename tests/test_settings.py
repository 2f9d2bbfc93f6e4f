"""The project skeleton: settings from the environment, the Celery app, and the first pages."""

import ast
import os
import secrets
import subprocess
import sys
from typing import Any

import pytest
from cryptography.fernet import Fernet
from django.conf import settings

from backgammon_site.core.vapid import key_pair_make
from games.management.rehearsal.stack import production_environment
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


@pytest.mark.slow
def test_vapid_keys_are_refused_at_start_unless_both_are_a_pair_as_made(run_python):
    pair = key_pair_make()
    alone = run_python(LOAD_SETTINGS, {"VAPID_PUBLIC_KEY": pair.public_key})
    swapped = run_python(
        LOAD_SETTINGS,
        {"VAPID_PUBLIC_KEY": pair.private_key, "VAPID_PRIVATE_KEY": pair.public_key},
    )
    right = run_python(
        LOAD_SETTINGS,
        {"VAPID_PUBLIC_KEY": pair.public_key, "VAPID_PRIVATE_KEY": pair.private_key},
    )

    for refused in (alone, swapped):
        assert refused.returncode != 0
        assert "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together" in refused.stderr
    assert right.returncode == 0, right.stderr


READ_STORES = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.CACHES['default']['BACKEND'], settings.SESSION_ENGINE, "
    "settings.DATABASES['default'].get('OPTIONS', {}).get('server_side_binding'))"
)


@pytest.mark.slow
def test_sessions_are_read_from_redis_first_when_cache_url_names_it(run_python):
    shared = run_python(READ_STORES, {"CACHE_URL": "redis://127.0.0.1:6379/1"})
    database = run_python(READ_STORES, {"CACHE_URL": "db://"})
    local = run_python(READ_STORES, {"CACHE_URL": "locmem://"})
    wrong = run_python(READ_STORES, {"CACHE_URL": "memcached://127.0.0.1:11211"})

    assert shared.returncode == 0, shared.stderr
    assert shared.stdout.split()[:2] == [
        "backgammon_site.core.cache.ResilientRedisCache",
        "django.contrib.sessions.backends.cached_db",
    ]
    for answer, backend in ((database, "db.DatabaseCache"), (local, "locmem.LocMemCache")):
        assert answer.returncode == 0, answer.stderr
        assert answer.stdout.split()[:2] == [
            f"django.core.cache.backends.{backend}",
            "django.contrib.sessions.backends.db",
        ]
    assert wrong.returncode != 0
    assert "CACHE_URL must be redis://HOST:PORT/DB (or rediss://), db://" in wrong.stderr


@pytest.mark.slow
def test_postgresql_prepares_repeated_queries_unless_told_not_to(run_python):
    url = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/backgammon"}
    prepared = run_python(READ_STORES, url)
    unprepared = run_python(READ_STORES, {**url, "DATABASE_PREPARED_STATEMENTS": "0"})
    sqlite = run_python(READ_STORES, {"DATABASE_URL": "sqlite:///x.sqlite3"})

    assert prepared.stdout.split()[2] == "True", prepared.stderr
    assert unprepared.stdout.split()[2] == "None", unprepared.stderr
    assert sqlite.stdout.split()[2] == "None", sqlite.stderr


ASGI_CONNECTIONS = """
import asyncio, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")
from asgiref.testing import ApplicationCommunicator
from django.db.backends.base.base import BaseDatabaseWrapper
from backgammon_site.asgi import application

opened = []
connect = BaseDatabaseWrapper.connect
BaseDatabaseWrapper.connect = lambda self: (opened.append(1), connect(self))[1]

async def get(path):
    scope = {
        "type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
        "query_string": b"", "headers": [(b"host", b"127.0.0.1")], "http_version": "1.1",
        "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000),
        "root_path": "",
    }
    talk = ApplicationCommunicator(application, scope)
    await talk.send_input({"type": "http.request", "body": b""})
    start = await talk.receive_output(20)
    while (await talk.receive_output(20)).get("more_body"):
        pass
    return start["status"]

async def requests():
    return [await get("/players/nobody-at-all/") for _ in range(4)]

print(*asyncio.run(requests()), len(opened))
"""


@pytest.mark.slow
def test_an_asgi_web_server_keeps_one_database_connection_for_all_its_requests(run_python, db):
    # Django's own ASGI handler runs each request on a thread of its own, with a connection of
    # its own that is never reused: under load PostgreSQL ran out of connections.
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("a kept connection is PostgreSQL's (CONN_MAX_AGE); the tests run on SQLite")
    url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    served = run_python(ASGI_CONNECTIONS, {"DATABASE_URL": url, "DATABASE_CONN_MAX_AGE": None})

    assert served.stdout.split() == ["404", "404", "404", "404", "1"], served.stderr


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


# Production with DEBUG off: what the settings refuse, and what they turn on.


def read_settings(*names: str) -> str:
    """Code that imports the settings module alone and prints ``names``, one a line."""
    shown = ", ".join(f"repr(getattr(s, {name!r}, None))" for name in names)
    return f"from backgammon_site import settings as s; print(*[{shown}], sep='\\n')"


PRODUCTION = {
    "DJANGO_DEBUG": "0",
    "DJANGO_HTTPS": None,
    "CACHE_URL": "redis://127.0.0.1:6379/1",
    "EMAIL_URL": "smtp+tls://mailer@smtp.example.com:587",
    "EMAIL_BACKEND": None,
}


def test_with_debug_off_the_service_refuses_to_start_without_a_shared_cache(run_python):
    refused = run_python(read_settings("CACHES"), {**PRODUCTION, "CACHE_URL": None})

    assert refused.returncode != 0
    assert (
        "ImproperlyConfigured: With DEBUG off, CACHE_URL must name a cache every process "
        "shares, for the rate limits are counted in it. Set CACHE_URL=redis://HOST:6379/1 (or "
        "rediss://), or CACHE_URL=db:// for Django's database cache and run `manage.py "
        "createcachetable` once."
    ) in refused.stderr


def test_a_cache_in_each_process_is_for_debug_and_tests_only(run_python):
    production = run_python(
        read_settings("CACHES"), {**PRODUCTION, "CACHE_URL": "locmem://", "PYTEST_VERSION": None}
    )
    assert production.returncode != 0
    assert "CACHE_URL must name a cache every process shares" in production.stderr


def test_a_database_cache_is_shared_and_debug_alone_falls_back_to_a_cache_in_each_process(
    run_python,
):
    database = run_python(read_settings("CACHES"), {**PRODUCTION, "CACHE_URL": "db://game_cache"})
    debug = run_python(read_settings("CACHES"), {"DJANGO_DEBUG": "1", "CACHE_URL": None})

    assert database.returncode == 0, database.stderr
    assert ast.literal_eval(database.stdout)["default"] == {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "game_cache",
    }
    assert debug.returncode == 0, debug.stderr
    assert ast.literal_eval(debug.stdout)["default"]["BACKEND"].endswith("locmem.LocMemCache")


def test_with_debug_off_the_service_refuses_to_start_without_a_real_email_backend(run_python):
    refused = run_python(read_settings("EMAIL_BACKEND"), {**PRODUCTION, "EMAIL_URL": None})

    assert refused.returncode != 0
    assert (
        "ImproperlyConfigured: EMAIL_URL or EMAIL_BACKEND must be set when DEBUG is off. Set "
        "EMAIL_URL=smtp+tls://USER:PASSWORD@HOST:587 (smtp+ssl:// for port 465, smtp:// "
        "without TLS), or EMAIL_BACKEND to the dotted path of an email backend."
    ) in refused.stderr


def test_the_console_prints_emails_only_in_debug_or_when_named(run_python):
    console = "django.core.mail.backends.console.EmailBackend"
    debug = run_python(
        read_settings("EMAIL_BACKEND"),
        {"DJANGO_DEBUG": "1", "EMAIL_URL": None, "EMAIL_BACKEND": None},
    )
    named = run_python(
        read_settings("EMAIL_BACKEND"), {**PRODUCTION, "EMAIL_URL": None, "EMAIL_BACKEND": console}
    )

    assert debug.returncode == 0, debug.stderr
    assert named.returncode == 0, named.stderr
    assert debug.stdout.strip() == named.stdout.strip() == repr(console)


SMTP_SETTINGS = (
    "EMAIL_BACKEND",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp+tls://bg%40example.com:p%40ss%3Aw%2Frd@smtp.example.com:2525",
            ["smtp.example.com", 2525, "bg@example.com", "p@ss:w/rd", True, False],
        ),
        ("smtp+tls://smtp.example.com", ["smtp.example.com", 587, "", "", True, False]),
        ("smtp+ssl://u:p@smtp.example.com", ["smtp.example.com", 465, "u", "p", False, True]),
        ("smtp://localhost", ["localhost", 25, "", "", False, False]),
    ],
)
def test_email_url_names_the_smtp_server_its_login_and_its_tls(run_python, url, expected):
    result = run_python(read_settings(*SMTP_SETTINGS), {**PRODUCTION, "EMAIL_URL": url})

    assert result.returncode == 0, result.stderr
    told = [ast.literal_eval(line) for line in result.stdout.splitlines()]
    assert told == ["django.core.mail.backends.smtp.EmailBackend", *expected]


@pytest.mark.parametrize(
    "url", ["smtps://smtp.example.com", "smtp+tls://:587", "smtp://smtp.example.com:port"]
)
def test_an_email_url_that_names_no_smtp_server_is_refused(run_python, url):
    result = run_python(read_settings("EMAIL_HOST"), {**PRODUCTION, "EMAIL_URL": url})

    assert result.returncode != 0
    assert (
        "ImproperlyConfigured: EMAIL_URL must look like smtp+tls://USER:PASSWORD@HOST:587 (or "
        "smtp+ssl://, or smtp:// for plain SMTP), with special characters percent-encoded."
    ) in result.stderr


HTTPS_SETTINGS = (
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_PROXY_SSL_HEADER",
)


def test_with_debug_off_the_site_is_served_over_https_unless_told_otherwise(run_python):
    production = run_python(read_settings(*HTTPS_SETTINGS), PRODUCTION)
    plain_http = run_python(read_settings(*HTTPS_SETTINGS), {**PRODUCTION, "DJANGO_HTTPS": "0"})
    debug = run_python(read_settings(*HTTPS_SETTINGS), {"DJANGO_DEBUG": "1", "DJANGO_HTTPS": None})

    for result in (production, plain_http, debug):
        assert result.returncode == 0, result.stderr
    secure = ["True", "True", "True", "31536000", "False", "False", "None"]
    assert production.stdout.split() == secure
    assert plain_http.stdout.split() == debug.stdout.split()
    assert debug.stdout.split() == ["False", "False", "False", "0", "False", "False", "None"]


def test_the_proxy_is_trusted_to_say_https_only_when_the_service_is_behind_one(run_python):
    behind = {
        **PRODUCTION,
        "DJANGO_BEHIND_PROXY": "1",
        "DJANGO_HSTS_SECONDS": "600",
        "DJANGO_HSTS_INCLUDE_SUBDOMAINS": "1",
        "DJANGO_HSTS_PRELOAD": "yes",
    }
    result = run_python(read_settings(*HTTPS_SETTINGS), behind)

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "True",
        "True",
        "True",
        "600",
        "True",
        "True",
        "('HTTP_X_FORWARDED_PROTO', 'https')",
    ]


def test_forms_may_post_from_the_sites_own_origin_and_the_listed_ones(run_python):
    environment = {
        **PRODUCTION,
        "SITE_URL": "https://backgammon.example.com/play/",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://www.example.com, https://bg.example.org",
    }
    result = run_python(read_settings("CSRF_TRUSTED_ORIGINS"), environment)

    assert result.returncode == 0, result.stderr
    assert ast.literal_eval(result.stdout) == [
        "https://backgammon.example.com",
        "https://www.example.com",
        "https://bg.example.org",
    ]


@pytest.mark.slow
def test_the_production_environment_passes_the_deploy_checks():
    environment = production_environment()
    vapid = key_pair_make()
    made_once = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DICE_SEED_KEY": Fernet.generate_key().decode(),
        "VAPID_PUBLIC_KEY": vapid.public_key,
        "VAPID_PRIVATE_KEY": vapid.private_key,
    }
    for name, value in environment.items():
        assert not value.startswith("<") or name in made_once, f"{name} has no value to check"
    environment.update(made_once)
    bare = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env={**bare, **environment},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_production_environment_turns_every_protection_on():
    environment = production_environment()

    assert environment["SITE_URL"].startswith("https://")
    assert "DJANGO_DEBUG" not in environment and "DJANGO_HTTPS" not in environment
    assert environment["CACHE_URL"].startswith(("redis://", "rediss://", "db://"))
    assert environment["EMAIL_URL"].startswith(("smtp+tls://", "smtp+ssl://"))


def policy_of(response: Any) -> dict[str, str]:
    """The response's Content-Security-Policy, directive by directive."""
    directives = (part.strip() for part in response["Content-Security-Policy"].split(";"))
    return dict(directive.split(" ", 1) for directive in directives if directive)


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_and_refuse_framing(client):
    response = client.get("/")

    assert policy_of(response) == {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self' ws://127.0.0.1:8000",
        "object-src": "'none'",
        "base-uri": "'self'",
        "frame-ancestors": "'none'",
        "form-action": "'self'",
        "worker-src": "'self'",
    }
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert "<script>" not in response.content.decode()


def test_the_swagger_ui_styles_its_page_with_the_nonce_of_its_policy(client):
    page = client.get("/api/docs/")
    script = client.get("/api/docs/?script=")

    nonce = policy_of(page)["style-src"].removeprefix("'self' 'nonce-").removesuffix("'")
    html = page.content.decode()
    assert f'<style nonce="{nonce}">' in html
    assert "<script>" not in html and '<script src="/api/docs/?script=' in html
    assert script.status_code == 200 and b"SwaggerUIBundle" in script.content


def test_redoc_alone_may_write_styles_and_start_a_worker_from_a_blob(client):
    page = client.get("/api/redoc/")

    policy = policy_of(page)
    assert policy["style-src"] == "'self' 'unsafe-inline'"
    assert policy["worker-src"] == "'self' blob:"
    assert policy["script-src"] == "'self'"
    html = page.content.decode()
    assert "<script>" not in html and "fonts.googleapis.com" not in html
