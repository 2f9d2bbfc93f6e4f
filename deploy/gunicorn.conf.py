"""gunicorn's settings for the site (games/management/web_server.py passes this file, and so
must any other command that starts gunicorn: docs/deployment.md).

The web server trusts X-Forwarded-For and X-Forwarded-Proto from the proxies named by
TRUSTED_PROXY_COUNT and TRUSTED_PROXY_ADDRESSES only (backgammon_site/settings/environment.py),
never from whichever client happens to connect from the local machine, as gunicorn's and
uvicorn's default (127.0.0.1) would.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backgammon_site.settings.environment import FORWARDED_ALLOW_IPS  # noqa: E402

forwarded_allow_ips = ",".join(FORWARDED_ALLOW_IPS)
