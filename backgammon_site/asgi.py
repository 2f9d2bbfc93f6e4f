"""ASGI entry point: `backgammon_site.asgi:application`: the site over HTTP, and the pushed
updates of games/routing.py over WebSockets, for signed-in browsers of the site's own hosts."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")
# Under ASGI each request runs its database work in a thread of its own, which ends with the
# request: a connection kept open for reuse is never reused, and they pile up until PostgreSQL
# refuses more clients (`manage.py rehearsal` ran into it). So one connection a request.
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "0")

# Django is set up before anything that imports models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
