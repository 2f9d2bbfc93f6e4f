"""The settings mypy's Django plugin loads: the local development ones (DJANGO_DEBUG=1).

mypy runs without an environment (CI calls it with no arguments), and with DEBUG off the settings
refuse to load without a secret key, a dice seed key, a shared cache and an email backend; the
plugin needs only the apps and models, which DEBUG does not change.
"""

import os

os.environ.setdefault("DJANGO_DEBUG", "1")

from backgammon_site.settings import *  # noqa: E402, F403
