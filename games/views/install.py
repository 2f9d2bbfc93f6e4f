"""The site as an app installed on a phone's home screen: the web app manifest, the service
worker (web push, and the pages kept for offline use) and the page it shows offline."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from backgammon_site.core.caching import viewer_independent

# The site.css colours the installed app opens with: the page's background and the header's.
BACKGROUND_COLOUR = "#f6f3ec"
THEME_COLOUR = "#7a2e1d"
ICONS = (
    {"src": "games/icons/icon-192.png", "sizes": "192x192", "type": "image/png"},
    {"src": "games/icons/icon-512.png", "sizes": "512x512", "type": "image/png"},
    {
        "src": "games/icons/maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
)
# What every page needs, kept by the service worker when it installs.
APP_SHELL = (
    "games/site.css",
    "games/htmx-2.0.11.min.js",
    "games/menu.js",
    "games/install.js",
    "games/favicon.svg",
    *(icon["src"] for icon in ICONS),
)


@cache
def app_shell_version() -> str:
    """A digest of the app shell's files: a new one makes a new worker, which keeps them anew."""
    digest = hashlib.sha256()
    for name in APP_SHELL:
        found = finders.find(name)
        digest.update(name.encode())
        if isinstance(found, str):
            with open(found, "rb") as file:
                digest.update(file.read())
    return digest.hexdigest()[:12]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the name, the icons and the lobby the installed app opens on."""
    home = reverse("home")
    return JsonResponse(
        {
            "id": home,
            "name": settings.SITE_NAME,
            "short_name": settings.SITE_NAME,
            "description": _("Correspondence backgammon: a match a move at a time."),
            "start_url": home,
            "scope": home,
            "display": "standalone",
            "background_color": BACKGROUND_COLOUR,
            "theme_color": THEME_COLOUR,
            "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
        },
        content_type="application/manifest+json",
    )


@require_GET
@viewer_independent
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from the root so that it may serve the whole site; never
    cached, so that browsers see a new version at once."""
    context = {
        "icon": static("games/favicon.svg"),
        "site_name": settings.SITE_NAME,
        "version": app_shell_version(),
        # JSON is JavaScript: the addresses as they are, with the offline page's.
        "app_shell": json.dumps([*(static(name) for name in APP_SHELL), reverse("offline")]),
        "offline_page": reverse("offline"),
        "static_url": settings.STATIC_URL,
    }
    response = render(
        request, "games/sw.js", context, content_type="text/javascript; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the installed app shows for a page it cannot reach and has not kept."""
    return render(request, "games/offline.html")
