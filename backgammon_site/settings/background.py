"""Work done away from requests: the Celery broker and its queues, beat's schedule, when news
is sent."""

import os
import urllib.parse

from celery.schedules import crontab

from backgammon_site.settings.environment import ON_POSTGRES, VAR_DIR, env_flag

# Celery. The default broker is kombu's filesystem transport, which needs no server; one
# folder serves as both inbox and outbox so the web process and the worker share a queue.
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
#: Apps the channel layer needs (channels_lite keeps its messages in the database).
CHANNEL_LAYER_APPS: list[str] = []
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
elif not ON_POSTGRES:
    CHANNEL_LAYER_APPS = ["channels_lite"]
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
    # Milliseconds a minute, and the statistics are promised within the minute: not behind
    # an analysis.
    "games.tasks.count_dice": {"queue": "urgent"},
    "games.tasks.bot_act": {"queue": "urgent"},
    "games.tasks.bot_accept_challenge": {"queue": "urgent"},
    "games.tasks.tournament_advance": {"queue": "urgent"},
    "games.tasks.league_advance": {"queue": "urgent"},
    "games.tasks.analyse_match": {"queue": "analysis"},
    "games.tasks.analyse_import": {"queue": "analysis"},
    "games.tasks.send_notification": {"queue": "email"},
    "games.tasks.send_digest": {"queue": "email"},
    # Web pushes go with the emails.
    "games.tasks.push_notification": {"queue": "email"},
}
WORKER_QUEUES = {"urgent": ["urgent"], "background": ["email", "analysis", "celery"]}
# The tests run tasks in place (pyproject.toml sets this); the service never does.
CELERY_TASK_ALWAYS_EAGER = env_flag("CELERY_TASK_ALWAYS_EAGER")
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
# The dice statistics count the rolls of the minute before from the logs
# (games/dice/statistics.py).
CELERY_BEAT_SCHEDULE["count-dice"] = {
    "task": "games.tasks.count_dice",
    "schedule": SWEEP_INTERVAL,
    "options": {"expires": max(SWEEP_INTERVAL - 5, 1)},
}
#: Seconds: a deadline closer than this gets a countdown task as soon as it is set; the others
#: are found by the sweep. Keep it well inside the broker's visibility timeout.
DEADLINE_COUNTDOWN_HORIZON = 600
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat tries again, every few seconds, a task it could not send (backgammon_site/beat.py).
CELERY_BEAT_SCHEDULER = "backgammon_site.beat:RetryingScheduler"
#: `manage.py health` fails when the sweep has not run for this long, or a deadline is this
#: far overdue, or a worker (urgent or background) has not said it is alive for
#: HEALTH_WORKER_LATE seconds (each says so every 10 s: games/clocks/workers.py).
HEALTH_SWEEP_LATE = 180
HEALTH_OVERDUE = 120
HEALTH_WORKER_LATE = 45

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
