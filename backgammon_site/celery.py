"""The Celery app: configured from Django's settings (CELERY_*), tasks found in each app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")

app = Celery("backgammon_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
