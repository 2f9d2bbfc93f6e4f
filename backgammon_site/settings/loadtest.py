"""Settings for `manage.py loadtest`'s own gunicorn: the service's settings plus one bare page.

The bare page is the yardstick the scenarios are measured against; it exists only here, so the
service's own URLs stay as they are.
"""

from backgammon_site.settings import *  # noqa: F403

ROOT_URLCONF = "backgammon_site.loadtest_urls"
