"""Settings for the backgammon service, read from the environment.

With nothing set, the service runs on embedded defaults that need no server: SQLite for the
database and kombu's filesystem transport for the Celery broker. DATABASE_URL and
CELERY_BROKER_URL point it at PostgreSQL and Redis.
"""

import base64
import hashlib
import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
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
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "games",
    "accounts",
    "ratings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
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

# The cache: Redis when CACHE_URL names one, shared by every process, and the sessions are then
# read from it before the database. Without it each process keeps its own cache (API
# throttling counts per process) and sessions are read from the database.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
elif CACHE_URL:
    raise ImproperlyConfigured("CACHE_URL must be a redis:// or rediss:// URL.")

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

# Email: printed to the console unless EMAIL_BACKEND names a real one, e.g.
# django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER,
# EMAIL_HOST_PASSWORD and EMAIL_USE_TLS.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or "django.core.mail.backends.console.EmailBackend"
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_flag("EMAIL_USE_TLS")
EMAIL_TIMEOUT = 30
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Backgammon <backgammon@localhost>")
# Where the site is seen from outside: the links in emails start with it.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# django-allauth
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
# Signing up from a guest's session keeps the guest's matches (accounts/guests.py).
ACCOUNT_ADAPTER = "accounts.guests.GuestKeepingAccountAdapter"

SOCIALACCOUNT_PROVIDERS: dict[str, dict[str, object]] = {}
_discord_client_id = os.environ.get("DISCORD_CLIENT_ID", "")
_discord_client_secret = os.environ.get("DISCORD_CLIENT_SECRET", "")
if _discord_client_id and _discord_client_secret:
    INSTALLED_APPS.append("allauth.socialaccount.providers.discord")
    SOCIALACCOUNT_PROVIDERS["discord"] = {
        "APP": {"client_id": _discord_client_id, "secret": _discord_client_secret, "key": ""},
        "SCOPE": ["identify", "email"],
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
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": ["active", "finished"],
        "ChallengeStatusEnum": ["open", "accepted", "declined", "cancelled"],
        "ActionEnum": "games.services.ACTIONS",
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
VAR_DIR = BASE_DIR / "var"
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
    }
# The tests run tasks in place (pyproject.toml sets this); the service never does.
CELERY_TASK_ALWAYS_EAGER = _env_flag("CELERY_TASK_ALWAYS_EAGER")
CELERY_TIMEZONE = "UTC"
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": 60.0,
        "options": {"expires": 55},
    },
}
#: Seconds: a deadline closer than this gets a countdown task as soon as it is set; the others
#: are found by the sweep. Keep it well inside the broker's visibility timeout.
DEADLINE_COUNTDOWN_HORIZON = 600
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")

# Notifications: the daily digest goes out at NOTIFICATION_DIGEST_HOUR o'clock UTC.
CELERY_BEAT_SCHEDULE["notification-daily-digest"] = {
    "task": "games.tasks.send_daily_digests",
    "schedule": crontab(hour=int(os.environ.get("NOTIFICATION_DIGEST_HOUR", "7")), minute=0),
}

# Guests (players who never signed up) idle for 30 days go, with their matches.
CELERY_BEAT_SCHEDULE["purge-idle-guests"] = {
    "task": "games.tasks.purge_guests",
    "schedule": crontab(hour=4, minute=30),
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
