"""Settings for `manage.py loadtest`'s own gunicorn: the service's settings plus the yardsticks
(games/management/loadtest/floors.py: the bare page, the signed-in page and the floor write).

The yardsticks are what the scenarios are measured against; they exist only here, so the
service's own URLs stay as they are.
"""

from backgammon_site.settings import *  # noqa: F403

ROOT_URLCONF = "backgammon_site.loadtest_urls"
