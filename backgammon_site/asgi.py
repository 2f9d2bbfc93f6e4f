"""ASGI entry point: `backgammon_site.asgi:application`: the site over HTTP, and the pushed
updates of games/routing.py over WebSockets, for signed-in browsers of the site's own hosts.

Served in production by gunicorn with uvicorn's workers (games/management/web_server.py)."""

import os
from typing import Any

import django
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon_site.settings")


class OneThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler, with every request's synchronous part (middleware, views) on the
    process's one thread for synchronous code rather than on a thread of its own.

    Django keeps a database connection per thread: a thread per request opens a connection
    per request and leaves it to be collected, which runs PostgreSQL out of connections
    under load, and loses the persistent connection and its prepared statements (Django
    ticket 33497). On one thread the process keeps one connection, as a synchronous worker
    does; the server's processes give the concurrency."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP connections only, not {scope['type']}.")
        await self.handle(scope, receive, send)


# Django is set up before anything that imports models.
django.setup(set_prefix=False)
django_application = OneThreadASGIHandler()

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
