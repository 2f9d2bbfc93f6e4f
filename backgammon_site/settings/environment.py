"""What every settings module reads first: where the project is, and the environment."""

import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_flag(name: str, default: str = "") -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG")
# var/ holds what the service writes at run time (beat's schedule, the filesystem broker, the
# embedded default's VAPID keys): made here, whatever the broker, so that beat never dies for
# want of a folder.
VAR_DIR = Path(os.environ.get("DJANGO_VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)
# Where the site is seen from outside: the links in emails start with it.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

#: Discord's client id and secret, when logging in with Discord is on.
DISCORD_APP = (os.environ.get("DISCORD_CLIENT_ID", ""), os.environ.get("DISCORD_CLIENT_SECRET", ""))
DISCORD_LOGIN = all(DISCORD_APP)

# The database: DATABASE_URL, else SQLite in the repository.
DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
ON_POSTGRES = DATABASE_URL.startswith(("postgres://", "postgresql://", "pgsql://"))
# Behind proxies that append to X-Forwarded-For, how many of them to trust: the address that
# rate limits and throttles count is the one the outermost trusted proxy saw.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
# The addresses the web server takes X-Forwarded-For and X-Forwarded-Proto from (gunicorn's and
# uvicorn's forwarded_allow_ips, set by deploy/gunicorn.conf.py): the proxies'
# (TRUSTED_PROXY_ADDRESSES, the local machine's by default) when there are proxies to trust,
# else none, so that a client's own header never becomes its address.
FORWARDED_ALLOW_IPS = (
    env_list("TRUSTED_PROXY_ADDRESSES", "127.0.0.1,::1") if TRUSTED_PROXY_COUNT > 0 else []
)
