"""The installable site's own files: the manifest, the service worker and the offline page."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'src="/static/games/install.js"' in html
    assert re.search(r"<p [^>]*data-offline-note hidden>", html)


def test_the_manifest_opens_the_lobby_standalone_with_png_icons(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        assert finders.find(icon["src"].removeprefix("/static/"))


def test_the_worker_keeps_the_app_shell_and_the_offline_page(client):
    body = client.get("/sw.js").content.decode()
    shell = json.loads(re.search(r"const APP_SHELL = (\[.*\]);", body).group(1))
    for name in ("site.css", "htmx-2.0.11.min.js", "install.js", "icon-192.png", "icon-512.png"):
        assert any(url.endswith(f"/{name}") for url in shell)
    assert "/offline/" in shell
    assert re.search(r'const SHELL = "shell-[0-9a-f]{12}";', body)


@pytest.mark.parametrize("path", ["/manifest.webmanifest", "/offline/", "/sw.js"])
def test_a_post_is_refused(client, path):
    assert client.post(path).status_code == 405


def test_the_offline_page_says_so_and_leads_to_the_lobby(client):
    answer = client.get("/offline/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "You are offline" in html
    assert 'href="/"' in html
