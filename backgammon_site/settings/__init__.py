"""Settings for the backgammon service, read from the environment.

With nothing set, the service runs on embedded defaults that need no server: SQLite for the
database and kombu's filesystem transport for the Celery broker. DATABASE_URL and
CELERY_BROKER_URL point it at PostgreSQL and Redis.
"""

import base64
import hashlib
import os
import re
import shutil
import urllib.parse

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from backgammon_site.settings.api import *  # noqa: F403
from backgammon_site.settings.background import *  # noqa: F403
from backgammon_site.settings.background import CHANNEL_LAYER_APPS
from backgammon_site.settings.environment import (
    BASE_DIR,
    DATABASE_URL,
    DEBUG,
    DISCORD_APP,
    DISCORD_LOGIN,
    ON_POSTGRES,
    SITE_URL,  # noqa: F401 (where the site is seen from: emails' links start with it)
    TRUSTED_PROXY_COUNT,
    VAR_DIR,
    env_flag,
    env_list,
)
from backgammon_site.settings.security import *  # noqa: F403

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

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

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
    "django.contrib.humanize",
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
    *CHANNEL_LAYER_APPS,
]

MIDDLEWARE = [
    # First: the load balancer's /healthz is answered before the HTTPS redirect and host check.
    "backgammon_site.health_check.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "backgammon_site.core.caching.PerViewerCachingMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Once the player is known: their profile's language, else the browser's.
    "accounts.languages.PlayerLocaleMiddleware",
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
# A PostgreSQL connection is kept for a minute (DATABASE_CONN_MAX_AGE seconds): one a web
# process (backgammon_site/asgi.py runs its requests on one thread) or worker process.
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")) if ON_POSTGRES else 0,
        conn_health_checks=ON_POSTGRES,
    ),
}
if ON_POSTGRES:
    # Parameters bound by the server, so that psycopg prepares a query on a connection after
    # its second use: PostgreSQL then skips parsing and planning it (half the time of reading
    # a match with its players). Turn it off (DATABASE_PREPARED_STATEMENTS=0) behind a pooler
    # in transaction mode, which cannot keep prepared statements.
    if env_flag("DATABASE_PREPARED_STATEMENTS", "1"):
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

# The match logs' anchors (games/log/anchors.py, docs/database-role.md): the key that signs
# them, which the database never holds (give it to the anchoring job only), and the directory
# `manage.py anchor_matches` writes them to, where the database roles cannot write.
LOG_ANCHOR_KEY = os.environ.get("LOG_ANCHOR_KEY", "")
LOG_ANCHOR_DIR = os.environ.get("LOG_ANCHOR_DIR", "")

# The cache, which API throttling and rate limits count in, so every process must share it:
# Redis (CACHE_URL=redis://... or rediss://...; sessions are then read from it before the
# database) or Django's database cache (CACHE_URL=db:// or db://TABLE, made by `manage.py
# createcachetable`). CACHE_URL=locmem:// gives each process a cache of its own: only in debug
# mode (its default) and under pytest (which sets PYTEST_VERSION), never in production.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    # Django's Redis cache that carries on, as a cache of misses, while Redis is unreachable
    # (backgammon_site/core/cache.py): pages and moves do not depend on it.
    CACHES = {
        "default": {
            "BACKEND": "backgammon_site.core.cache.ResilientRedisCache",
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

# The languages pages are written in (locale/), each named in itself: a player's profile
# chooses one, else the browser's Accept-Language or the footer's switch; English otherwise.
# The API answers in English (accounts/languages.py).
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("el", "Ελληνικά"),
    ("ru", "Русский"),
    ("tr", "Türkçe"),
    ("fa", "فارسی"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
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
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
# allauth names a player (its messages, its pages) as every page does: by the name they chose.
ACCOUNT_USER_DISPLAY = "accounts.names.player_name"

# Limits counted in the cache by allauth's rate limiter (accounts/limits.py), each a list of
# "AMOUNT/WINDOW/PER" (PER: ip, user, or key: the account name typed at a login). Casual
# matches count per address for visitors who have not signed in and per player for those who
# have.
_RATE = r"\d+/\d*(\.\d+)?[smhd](/(ip|user|key))?"
ACCOUNT_RATE_LIMITS = {
    # Failed logins are counted in the database instead (LOGIN_FAILURE_LIMITS below).
    "login_failed": "",
    "guest_play": os.environ.get("GUEST_PLAY_RATE", "10/h/ip"),
    "casual_play": os.environ.get("CASUAL_PLAY_RATE", "60/h/user"),
    # Asking for analyses (each queues minutes of CPU at most once: games/computer/analysis.py).
    "analysis_request": os.environ.get("ANALYSIS_REQUEST_RATE", "20/h/user"),
    # Chat messages between the players of a match (games/services/chat.py).
    "chat_message": os.environ.get("CHAT_MESSAGE_RATE", "20/m/user,300/h/user"),
}
for _action, _rates in ACCOUNT_RATE_LIMITS.items():
    if _rates and not re.fullmatch(rf"{_RATE}(,{_RATE})*", _rates.replace(" ", "")):
        raise ImproperlyConfigured(
            f"The {_action} rate {_rates!r} is not a list of AMOUNT/WINDOW/PER, e.g. 10/h/ip."
        )
# Failed logins at allauth's form, the admin login and the API's token, counted in the
# database (accounts/failed_logins.py), so alike in every process and while the cache is away:
# per account name typed and address (key+ip), per address (ip), and per account name (key).
# The last is a ceiling above what one address can reach within its own limits, so that a
# stranger guessing from one address never locks the owner out (docs/deployment.md).
LOGIN_FAILURE_LIMITS = os.environ.get("LOGIN_FAILED_RATE", "5/15m/key+ip,20/15m/ip,50/15m/key")
_FAILURE_RATE = r"\d+/\d*(\.\d+)?[smhd]/(key\+ip|ip|key)"
if not re.fullmatch(rf"{_FAILURE_RATE}(,{_FAILURE_RATE})*", LOGIN_FAILURE_LIMITS.replace(" ", "")):
    raise ImproperlyConfigured(
        f"The login_failed rate {LOGIN_FAILURE_LIMITS!r} (LOGIN_FAILED_RATE) is not a list of "
        "AMOUNT/WINDOW/PER with PER key+ip, ip or key, e.g. 5/15m/key+ip,20/15m/ip,50/15m/key."
    )
# The limits count the address the outermost trusted proxy saw (TRUSTED_PROXY_COUNT).
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT

SOCIALACCOUNT_PROVIDERS: dict[str, dict[str, object]] = {}
if DISCORD_LOGIN:
    INSTALLED_APPS.append("allauth.socialaccount.providers.discord")
    SOCIALACCOUNT_PROVIDERS["discord"] = {
        "APP": {"client_id": DISCORD_APP[0], "secret": DISCORD_APP[1], "key": ""},
        "SCOPE": ["identify", "email"],
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
# after every game: each match is one result, weighted by its length, against the opponent's
# rating before it.
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
    # The rating period, in days. Each full period since a player's last rated match widens
    # their deviation as a period without games does (step 6 of Glicko-2): at read time, on
    # the leaderboard, profiles and the API, and before their next rated match.
    # A correspondence match takes about a week, so a steady player gets about one period per
    # match, as in Glicko-2 proper; from the floor, about 90 idle weeks make a rating
    # provisional again.
    "PERIOD_DAYS": 7,
    # The match length whose result moves a rating exactly as Glicko-2 moves it for one game.
    # A match of n points magnifies the players' difference in strength by sqrt(n / 5), as
    # FIBS's formula does with sqrt(n) (docs/ratings.md). 5 is the default length, so a rating
    # difference keeps its meaning for the commonest match, and ratings made before lengths
    # counted keep theirs too.
    "REFERENCE_MATCH_LENGTH": 5,
}

# Web push notifications (games/notifications/webpush.py, backgammon_site/core/vapid.py): pushes are
# signed with the VAPID key pair made by `manage.py vapid_keys`. Without the keys, DEBUG (the
# embedded default) makes a pair once into VAPID_KEYS_FILE in the var dir; with DEBUG off, web
# push is off. VAPID_SUBJECT is how push services reach the site's operator.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_KEYS_FILE = str(VAR_DIR / "vapid-keys.json") if DEBUG else ""
if VAPID_PUBLIC_KEY or VAPID_PRIVATE_KEY:
    try:
        _vapid_lengths = tuple(
            len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4)))
            for key in (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY)
        )
    except ValueError:
        _vapid_lengths = ()
    if _vapid_lengths != (65, 32):
        raise ImproperlyConfigured(
            "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together, as the lines "
            "`manage.py vapid_keys` prints."
        )
_operator_address = DEFAULT_FROM_EMAIL.rsplit("<", 1)[-1].rstrip(">").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT") or f"mailto:{_operator_address}"
#: Seconds a push service has to answer one push.
WEBPUSH_TIMEOUT = 10
#: How many devices a player may have take notifications.
WEBPUSH_DEVICES_PER_PLAYER = 10

# Analysis (games/computer/analysis.py, docs/bots.md). bgsage searches MATCH_ANALYSIS_PLIES
# (default 2); GNU Backgammon, the second opinion, is the program GNUBG_PATH names (by default
# the gnubg found on PATH or where Debian installs it; empty: analyses are bgsage's alone) and
# analyses GNUBG_ANALYSIS_PLIES deep, in gnubg's count (its usual 2-ply).
GNUBG_PATH = os.environ.get(
    "GNUBG_PATH", shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games") or ""
)
GNUBG_ANALYSIS_PLIES = int(os.environ.get("GNUBG_ANALYSIS_PLIES", "2"))

# Tournaments (games/services/tournaments.py, docs/tournaments.md). Moderators create them; with
# this on, any signed-up player may too.
TOURNAMENTS_OPEN_TO_PLAYERS = env_flag("TOURNAMENTS_OPEN_TO_PLAYERS")

# Droppers (games/services/droppers.py): a player who lost more than this share of the matches
# they finished in the last `days` days on time (once they have finished `min_matches`) may not
# enter tournaments or leagues, nor make or accept open challenges.
DROPPER_LIMIT = {"share": 0.2, "min_matches": 5, "days": 90}
