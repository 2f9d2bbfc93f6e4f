"""Settings for the backgammon service, read from the environment.

With nothing set, the service runs on embedded defaults that need no server: SQLite for the
database and kombu's filesystem transport for the Celery broker. DATABASE_URL and
CELERY_BROKER_URL point it at PostgreSQL and Redis.
"""

import base64
import hashlib
import os
import re
import urllib.parse
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, default: str = "") -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes")


def _env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = _env_flag("DJANGO_DEBUG")

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY must be set when DEBUG is off "
            "(set DJANGO_SECRET_KEY, or DJANGO_DEBUG=1 for local development)."
        )
    SECRET_KEY = "django-insecure-local-development-only"

# Server dice seeds are kept encrypted with this Fernet key (urlsafe base64 of 32 bytes), made by
# python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())".
# Losing it makes the seeds of running matches unreadable: keep it with the database backups.
DICE_SEED_KEY = os.environ.get("DICE_SEED_KEY", "")
if not DICE_SEED_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DICE_SEED_KEY must be set when DEBUG is off (see settings).")
    DICE_SEED_KEY = base64.urlsafe_b64encode(
        hashlib.sha256(f"dice:{SECRET_KEY}".encode()).digest()
    ).decode()
try:
    _dice_key_bytes = base64.urlsafe_b64decode(DICE_SEED_KEY.encode())
except ValueError:
    _dice_key_bytes = b""
if len(_dice_key_bytes) != 32:
    raise ImproperlyConfigured(
        "DICE_SEED_KEY must be a Fernet key (32 bytes, url-safe base64), made by: python -c "
        '"from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"'
    )

ALLOWED_HOSTS = _env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

INSTALLED_APPS = [
    # First, so that `manage.py runserver` is daphne's and serves WebSockets too.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "csp",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "games",
    "accounts",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "backgammon_site.caching.PerViewerCachingMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.presence.ActivityMiddleware",
]

ROOT_URLCONF = "backgammon_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "backgammon_site.wsgi.application"
ASGI_APPLICATION = "backgammon_site.asgi.application"

# Database. ATOMIC_REQUESTS stays off: services open their own transactions and lock the match.
_database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
_is_postgres = _database_url.startswith(("postgres://", "postgresql://", "pgsql://"))
DATABASES = {
    "default": dj_database_url.parse(
        _database_url,
        conn_max_age=60 if _is_postgres else 0,
        conn_health_checks=_is_postgres,
    ),
}
if _is_postgres:
    # Parameters bound by the server, so that psycopg prepares a query on a connection after
    # its second use: PostgreSQL then skips parsing and planning it (half the time of reading
    # a match with its players). Turn it off (DATABASE_PREPARED_STATEMENTS=0) behind a pooler
    # in transaction mode, which cannot keep prepared statements.
    if _env_flag("DATABASE_PREPARED_STATEMENTS", "1"):
        DATABASES["default"].setdefault("OPTIONS", {}).update(
            {"server_side_binding": True, "prepare_threshold": 2}
        )
elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The web process and the Celery worker write to one SQLite file: each transaction takes
    # the write lock when it begins and waits for it, instead of failing mid-way.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"transaction_mode": "IMMEDIATE", "timeout": 20}
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# PostgreSQL: the role the service runs as, which must not own the tables; migrate, run by the
# owner, grants it exactly what it needs (docs/database-role.md). Unset: no grants.
DATABASE_SERVICE_ROLE = os.environ.get("DATABASE_SERVICE_ROLE", "")

# The cache, which API throttling and rate limits count in, so every process must share it:
# Redis (CACHE_URL=redis://... or rediss://...; sessions are then read from it before the
# database) or Django's database cache (CACHE_URL=db:// or db://TABLE, made by `manage.py
# createcachetable`). CACHE_URL=locmem:// gives each process a cache of its own: only in debug
# mode (its default) and under pytest (which sets PYTEST_VERSION), never in production.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    # Django's Redis cache that carries on, as a cache of misses, while Redis is unreachable
    # (backgammon_site/cache.py): pages and moves do not depend on it.
    CACHES = {
        "default": {
            "BACKEND": "backgammon_site.cache.ResilientRedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
elif CACHE_URL.startswith("db://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": CACHE_URL.removeprefix("db://").strip("/") or "django_cache",
        }
    }
elif (CACHE_URL == "locmem://" and (DEBUG or "PYTEST_VERSION" in os.environ)) or (
    DEBUG and not CACHE_URL
):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
elif CACHE_URL and CACHE_URL != "locmem://":
    raise ImproperlyConfigured(
        "CACHE_URL must be redis://HOST:PORT/DB (or rediss://), db:// or db://TABLE for "
        "Django's database cache, or locmem:// for a cache in each process (debug and tests "
        "only)."
    )
else:
    raise ImproperlyConfigured(
        "With DEBUG off, CACHE_URL must name a cache every process shares, for the rate limits "
        "are counted in it. Set CACHE_URL=redis://HOST:6379/1 (or rediss://), or CACHE_URL=db:// "
        "for Django's database cache and run `manage.py createcachetable` once."
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

SITE_ID = 1

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves static files from the app itself, in development and production alike.
# With finders it needs no collectstatic; STATIC_ROOT only has to exist.
STATIC_ROOT.mkdir(exist_ok=True)
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Email: EMAIL_URL names an SMTP server, smtp+tls://USER:PASSWORD@HOST:587 (STARTTLS),
# smtp+ssl://...:465 (TLS from the start) or smtp://HOST:25 (plain), with the user name and
# password percent-encoded; EMAIL_BACKEND names any other backend by its dotted path (or the
# class that sends through EMAIL_URL's server). With neither, debug mode prints emails on the
# console; with DEBUG off the service refuses to start, for password-reset links must not
# land in the server's log unless someone chose so (EMAIL_BACKEND=...console.EmailBackend).
EMAIL_URL = os.environ.get("EMAIL_URL", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "")
EMAIL_TIMEOUT = 30
if EMAIL_URL:
    _email = urllib.parse.urlsplit(EMAIL_URL)
    _email_security = {"smtp": None, "smtp+tls": "tls", "smtp+ssl": "ssl"}
    try:
        _email_port = _email.port
    except ValueError:
        _email_port = -1
    if _email.scheme not in _email_security or not _email.hostname or _email_port == -1:
        raise ImproperlyConfigured(
            "EMAIL_URL must look like smtp+tls://USER:PASSWORD@HOST:587 (or smtp+ssl://, or "
            "smtp:// for plain SMTP), with special characters percent-encoded."
        )
    EMAIL_BACKEND = EMAIL_BACKEND or "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = _email.hostname
    EMAIL_PORT = _email_port or {"smtp": 25, "smtp+tls": 587, "smtp+ssl": 465}[_email.scheme]
    EMAIL_HOST_USER = urllib.parse.unquote(_email.username or "")
    EMAIL_HOST_PASSWORD = urllib.parse.unquote(_email.password or "")
    EMAIL_USE_TLS = _email_security[_email.scheme] == "tls"
    EMAIL_USE_SSL = _email_security[_email.scheme] == "ssl"
elif not EMAIL_BACKEND:
    if not DEBUG:
        raise ImproperlyConfigured(
            "EMAIL_URL or EMAIL_BACKEND must be set when DEBUG is off. Set "
            "EMAIL_URL=smtp+tls://USER:PASSWORD@HOST:587 (smtp+ssl:// for port 465, smtp:// "
            "without TLS), or EMAIL_BACKEND to the dotted path of an email backend."
        )
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Backgammon <backgammon@localhost>")
# Where the site is seen from outside: the links in emails start with it.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# The service's name in emails and allauth's pages; django.contrib.sites' Site 1 is kept to
# SITE_URL and SITE_NAME after every migrate (accounts/site.py).
SITE_NAME = os.environ.get("SITE_NAME", "Backgammon")

# django-allauth
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
# Sign-up never tells whether an address is registered: every sign-up answers "check your
# email", and the owner of an address already registered is emailed that someone tried. For
# that an account signs in only once its address is verified (allauth's enumeration
# prevention works for sign-up only so); following the link signs in the session that signed
# up.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# Signing up from a guest's session keeps the guest's matches (accounts/guests.py).
ACCOUNT_ADAPTER = "accounts.guests.GuestKeepingAccountAdapter"

# Limits counted in the cache by allauth's rate limiter (accounts/limits.py), each a list of
# "AMOUNT/WINDOW/PER" (PER: ip, user, or key: the account name typed at a login). Failed
# logins count the same at allauth's form, the admin login and the API's token; casual matches
# count per address for visitors who have not signed in and per player for those who have.
_RATE = r"\d+/\d*(\.\d+)?[smhd](/(ip|user|key))?"
ACCOUNT_RATE_LIMITS = {
    "login_failed": os.environ.get("LOGIN_FAILED_RATE", "10/m/ip,5/5m/key"),
    "guest_play": os.environ.get("GUEST_PLAY_RATE", "10/h/ip"),
    "casual_play": os.environ.get("CASUAL_PLAY_RATE", "60/h/user"),
    # Asking for analyses (each queues minutes of CPU at most once: games/computer/analysis.py).
    "analysis_request": os.environ.get("ANALYSIS_REQUEST_RATE", "20/h/user"),
    # Chat messages between the players of a match (games/services/chat.py).
    "chat_message": os.environ.get("CHAT_MESSAGE_RATE", "20/m/user,300/h/user"),
}
for _action, _rates in ACCOUNT_RATE_LIMITS.items():
    if not re.fullmatch(rf"{_RATE}(,{_RATE})*", _rates.replace(" ", "")):
        raise ImproperlyConfigured(
            f"The {_action} rate {_rates!r} is not a list of AMOUNT/WINDOW/PER, e.g. 10/h/ip."
        )
# Behind proxies that append to X-Forwarded-For, how many of them to trust: the address those
# limits count is the one the outermost trusted proxy saw.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))

SOCIALACCOUNT_PROVIDERS: dict[str, dict[str, object]] = {}
_discord_client_id = os.environ.get("DISCORD_CLIENT_ID", "")
_discord_client_secret = os.environ.get("DISCORD_CLIENT_SECRET", "")
_discord_login = bool(_discord_client_id and _discord_client_secret)
if _discord_login:
    INSTALLED_APPS.append("allauth.socialaccount.providers.discord")
    SOCIALACCOUNT_PROVIDERS["discord"] = {
        "APP": {"client_id": _discord_client_id, "secret": _discord_client_secret, "key": ""},
        "SCOPE": ["identify", "email"],
    }

# The browser's defences. With DEBUG off the site is taken to be served over HTTPS: cookies
# go over HTTPS only, plain http is redirected to it, and HSTS tells browsers to use nothing
# else. DJANGO_HTTPS=0 turns that off for a production-shaped run on plain http on this
# machine (the tests, the load test); nothing public should run so.
_https = _env_flag("DJANGO_HTTPS", "0" if DEBUG else "1")
SESSION_COOKIE_SECURE = _https
CSRF_COOKIE_SECURE = _https
SECURE_SSL_REDIRECT = _https
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if _https else 0
# Both are promises about every subdomain and to browsers' preload lists, hard to take back:
# set them once the whole domain is served over HTTPS.
SECURE_HSTS_INCLUDE_SUBDOMAINS = _env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = _env_flag("DJANGO_HSTS_PRELOAD")
# Behind a proxy that ends TLS, requests arrive over http: X-Forwarded-Proto says what the
# browser used. Only a proxy that always sets that header (replacing the client's) may be
# trusted with it, and only when the service cannot be reached but through it; otherwise any
# client sending "X-Forwarded-Proto: https" over plain http passes for secure (no redirect,
# and the CSRF checks believe an https origin).
if _env_flag("DJANGO_BEHIND_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
_site = urllib.parse.urlsplit(SITE_URL)
CSRF_TRUSTED_ORIGINS = [
    f"{_site.scheme}://{_site.netloc}",
    *_env_list("DJANGO_CSRF_TRUSTED_ORIGINS", ""),
]
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Content-Security-Policy (django-csp): scripts and styles from the site's own files only (an
# inline script needs request.csp_nonce; the board's SVG is styled by classes, so style
# attributes stay refused), images also as data: URLs, connections to the site itself and its
# WebSocket push. The API's docs pages add what they need (backgammon_site/urls.py).
_push_origin = f"{'wss' if _site.scheme == 'https' else 'ws'}://{_site.netloc}"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF, _push_origin],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        # Logging in with Discord posts here, then is redirected there.
        "form-action": [SELF, *(["https://discord.com"] if _discord_login else [])],
    }
}

# Django REST framework and the OpenAPI schema
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.token_auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["backgammon_site.api_toolkit.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "1200/minute"),
    },
    # The API's throttles count the same address as the limits above, never a raw
    # X-Forwarded-For that any client can write.
    "NUM_PROXIES": ALLAUTH_TRUSTED_PROXY_COUNT,
    "EXCEPTION_HANDLER": "backgammon_site.api_errors.api_exception_handler",
}
# API tokens (django-rest-knox): stored hashed, sent as "Authorization: Token <token>", valid
# until the player revokes them.
REST_KNOX = {"AUTH_HEADER_PREFIX": "Token", "TOKEN_TTL": None}
# Requests larger than this are refused before they are read (a move is a few dozen bytes).
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon API",
    "DESCRIPTION": "Correspondence backgammon: matches, challenges and their event logs.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    # No validator badge: it would send the schema's address to swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": ["active", "finished"],
        "ChallengeStatusEnum": ["open", "accepted", "declined", "cancelled"],
        "ActionEnum": "games.services.ACTIONS",
        "AnalysisStatusEnum": "games.models.MatchAnalysis.Status",
    },
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "tokenAuth": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": 'Send "Token <token>" from POST /api/auth/token/.',
            }
        }
    },
    "SECURITY": [{"tokenAuth": []}],
}

# Celery. The default broker is kombu's filesystem transport, which needs no server; one
# folder serves as both inbox and outbox so the web process and the worker share a queue.
# var/ holds what the service writes at run time (beat's schedule, the filesystem broker):
# made here, whatever the broker, so that beat never dies for want of a folder.
VAR_DIR = Path(os.environ.get("DJANGO_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "filesystem://"
if CELERY_BROKER_URL.startswith("filesystem://"):
    _celery_queue_dir = VAR_DIR / "celery" / "queue"
    _celery_processed_dir = VAR_DIR / "celery" / "processed"
    _celery_control_dir = VAR_DIR / "celery" / "control"
    for _folder in (_celery_queue_dir, _celery_processed_dir, _celery_control_dir):
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_celery_queue_dir),
        "data_folder_out": str(_celery_queue_dir),
        "processed_folder": str(_celery_processed_dir),
        "control_folder": str(_celery_control_dir),
    }
else:
    # A task not acknowledged within this many seconds (its worker died) is delivered again;
    # workers look for such tasks every CELERY_RESTORE_INTERVAL seconds.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
        "unacked_restore_interval": int(os.environ.get("CELERY_RESTORE_INTERVAL", "60")),
        "unacked_restore_throttle": 1,
        # A worker takes from its queues in the order it lists them (-Q urgent,...), not in
        # turn: deadlines and bot moves first.
        "queue_order_strategy": "priority",
        # A web request whose broker is unreachable waits this long at most to say so.
        "socket_connect_timeout": 2,
    }
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        # kombu's Redis transport with one fix: a worker that loses Redis reconnects instead of
        # exiting (backgammon_site/broker.py).
        CELERY_BROKER_TRANSPORT = "backgammon_site.broker:Transport"
# The channel layer carries a match's news (games/receivers.py) from whichever process acted (a
# web request, the Celery worker's bot move or timeout) to the match's open pages
# (games/consumers.py). With Redis as the broker: Redis, in its own database (CHANNELS_REDIS_URL,
# or the broker's server with database 3). On the embedded default (SQLite): the SQLite file,
# polled by each open page's connection, which crosses processes as the broker does with no
# server to run. Otherwise (PostgreSQL without Redis) each process's memory: a page hears only
# what its own process did, and polling (templates/games/_play_area.html) finds the rest.
CHANNELS_REDIS_URL = os.environ.get("CHANNELS_REDIS_URL", "")
if not CHANNELS_REDIS_URL and CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    CHANNELS_REDIS_URL = urllib.parse.urlsplit(CELERY_BROKER_URL)._replace(path="/3").geturl()
if CHANNELS_REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # A change whose push finds Redis away waits a second at most to say so. A read may
            # take longer: each open page's connection waits up to 5 s for its next message
            # (channels_redis's brpop_timeout), and a shorter timeout drops the page's socket.
            "CONFIG": {
                "hosts": [
                    {
                        "address": CHANNELS_REDIS_URL,
                        "socket_connect_timeout": 1,
                        "socket_timeout": 10,
                    }
                ]
            },
        }
    }
elif DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    INSTALLED_APPS.append("channels_lite")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_lite.layers.core.SQLiteChannelLayer",
            "CONFIG": {"database": "default"},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# A worker whose broker goes away tries again for ever, from the start as after a loss.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Sending a task while the broker is down fails within a second or two; the action that sent
# it has committed, and the minute sweep finds the follow-up it missed.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# Queues by urgency. "urgent": deadlines, clocks and the computer's moves; "analysis": the
# analyses, each seconds to minutes of CPU; "email": mail; "celery" (the default): daily chores.
# `manage.py serve` and docs/deployment.md give the urgent queue a worker of its own, so that
# nothing queued on the others can make a deadline late.
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_ROUTES = {
    "games.tasks.enforce_deadline": {"queue": "urgent"},
    "games.tasks.sweep_deadlines": {"queue": "urgent"},
    "games.tasks.bot_act": {"queue": "urgent"},
    "games.tasks.bot_accept_challenge": {"queue": "urgent"},
    "games.tasks.analyse_match": {"queue": "analysis"},
    "games.tasks.analyse_import": {"queue": "analysis"},
    "games.tasks.send_notification": {"queue": "email"},
    "games.tasks.send_digest": {"queue": "email"},
}
WORKER_QUEUES = {"urgent": ["urgent"], "background": ["email", "analysis", "celery"]}
# The tests run tasks in place (pyproject.toml sets this); the service never does.
CELERY_TASK_ALWAYS_EAGER = _env_flag("CELERY_TASK_ALWAYS_EAGER")
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
#: Seconds between sweeps (60; the integration tests shorten it).
SWEEP_INTERVAL = float(os.environ.get("SWEEP_INTERVAL", "60"))
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": SWEEP_INTERVAL,
        "options": {"expires": max(SWEEP_INTERVAL - 5, 1)},
    },
}
#: Seconds: a deadline closer than this gets a countdown task as soon as it is set; the others
#: are found by the sweep. Keep it well inside the broker's visibility timeout.
DEADLINE_COUNTDOWN_HORIZON = 600
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
#: `manage.py health` fails when the sweep has not run for this long, or a deadline is this
#: far overdue.
HEALTH_SWEEP_LATE = 180
HEALTH_OVERDUE = 120

# Notifications: "your turn" and "match finished" emails wait NOTIFICATION_DELAY seconds, and
# are dropped if the player opened the match meanwhile or used the site in the last
# NOTIFICATION_AWAY_AFTER seconds (games/notifications/attention.py).
NOTIFICATION_DELAY = int(os.environ.get("NOTIFICATION_DELAY", "300"))
NOTIFICATION_AWAY_AFTER = int(os.environ.get("NOTIFICATION_AWAY_AFTER", "300"))
# The daily digest goes out at NOTIFICATION_DIGEST_HOUR o'clock UTC.
CELERY_BEAT_SCHEDULE["notification-daily-digest"] = {
    "task": "games.tasks.send_daily_digests",
    "schedule": crontab(hour=int(os.environ.get("NOTIFICATION_DIGEST_HOUR", "7")), minute=0),
}

# Guests (players who never signed up) idle for 30 days go, with their matches.
CELERY_BEAT_SCHEDULE["purge-idle-guests"] = {
    "task": "games.tasks.purge_guests",
    "schedule": crontab(hour=4, minute=30),
}

# Idempotency-Key records are replayed for a day; older ones go daily.
CELERY_BEAT_SCHEDULE["purge-idempotency-records"] = {
    "task": "games.tasks.purge_idempotency_records",
    "schedule": crontab(hour=4, minute=45),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}

# Ratings (Glicko-2, ratings/glicko2.py), updated after every rated match as lichess updates
# after every game: each match is one result against the opponent's rating before it.
RATINGS = {
    # How far the volatility may move; Glickman suggests 0.3 to 1.2. Backgammon is luckier than
    # chess, so one match is weaker evidence that a player's strength changed: a low tau
    # (lichess, rating chess game by game, uses 0.75) keeps a lucky streak from inflating it.
    "TAU": 0.5,
    # A new player: Glickman's defaults. 350 is also the cap below, so a newcomer is exactly as
    # uncertain as someone long gone (lichess starts at 500 with a cap of 500); from 350 about
    # ten rated matches against established players bring the deviation under 110.
    "NEW_RATING": 1500.0,
    "NEW_DEVIATION": 350.0,
    "NEW_VOLATILITY": 0.06,
    # However long a player stays away, no more uncertain than a new player.
    "MAX_DEVIATION": 350.0,
    # However much a player plays, never so certain that new results stop moving the rating
    # (lichess's floor is 45 too).
    "MIN_DEVIATION": 45.0,
    # Above this deviation a rating is provisional: marked as such, and left off the
    # leaderboard. 110 is lichess's threshold.
    "PROVISIONAL_DEVIATION": 110.0,
    # The rating period, in days. Before a rated match, each full period since the player's
    # last one widens their deviation as a period without games does (step 6 of Glicko-2).
    # A correspondence match takes about a week, so a steady player gets about one period per
    # match, as in Glicko-2 proper; from the floor, about 90 idle weeks make a rating
    # provisional again.
    "PERIOD_DAYS": 7,
}
