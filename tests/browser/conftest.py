"""A real browser: Debian's Chromium, headless, driven by Playwright, against live_server."""

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(__file__).parents[2] / "var" / "screenshots")
)
# Without these, Chromium reaches for Google's servers, which this network refuses.
QUIET_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM}; .ci/run installs Debian's chromium package")
    # Playwright's sync API runs its own event loop; Django refuses ORM calls made from a
    # thread that has one, so the tests' own database work is allowed explicitly.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def new_context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Callable[..., Any]]:
    """Browser contexts that are closed when the test ends, so that no page of an unfinished
    match keeps polling the live server after its test. The site's service worker is blocked
    except in tests marked ``service_worker`` (web push, offline pages): elsewhere it only
    fetches the app shell again in every new context and stands between each page and the
    server."""
    contexts: list[Any] = []
    workers = "allow" if request.node.get_closest_marker("service_worker") else "block"

    def make(**options: Any) -> Any:
        options.setdefault("service_workers", workers)
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@contextmanager
def daphne() -> Iterator[str]:
    """The site's ASGI application under daphne in another process (as channels.testing's
    live server runs it); its base URL. The process is forked: it starts with this one's
    settings, and with whatever the test has patched before it starts."""
    from channels.testing.live import make_application
    from daphne.testing import DaphneProcess
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("the daphne process cannot share an in-memory database (use PostgreSQL)")
    if settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("InMemoryChannelLayer"):
        pytest.skip("a channel layer in memory does not reach another process (set Redis)")
    server = DaphneProcess(
        "127.0.0.1", partial(make_application, static_wrapper=ASGIStaticFilesHandler)
    )
    server.daemon = True
    server.start()
    try:
        if not server.ready.wait(timeout=30):
            raise RuntimeError("daphne did not start within 30 s")
        yield f"http://127.0.0.1:{server.port.value}"
    finally:
        server.terminate()
        server.join(timeout=10)


@pytest.fixture
def site() -> Iterator[str]:
    """The site under daphne in another process, so that a change made in the test's process
    reaches the pages only through the database and the channel layer, as a change made by the
    Celery worker does: this needs PostgreSQL and Redis (.ci/run). Ask for it before anything
    the test patches (scripted dice), which the server would otherwise inherit."""
    with daphne() as base:
        yield base


@pytest.fixture
def signed_in_context(new_context: Callable[..., Any]) -> Callable[..., Any]:
    """A browser context signed in as ``user`` on the site at ``base`` (a session made by
    Django's test client, handed over as the session cookie)."""

    def make(base: str, user: Any, **options: Any) -> Any:
        from django.test import Client

        context = new_context(**options)
        session = Client()
        session.force_login(user)
        cookie = session.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])
        return context

    return make


AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, from the npm package that tests/browser/package.json pins; installed
    with npm on first use when .ci/run has not installed it."""
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("axe-core is not installed and there is no npm to install it")
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--prefix", str(AXE.parents[2])], check=True
        )
    return AXE.read_text()


@pytest.fixture
def signed_in_page(signed_in_context: Callable[..., Any]) -> Callable[..., Any]:
    """A page of a new browser context signed in as ``user`` (see signed_in_context)."""

    def make(base: str, user: Any, **options: Any) -> Any:
        return signed_in_context(base, user, **options).new_page()

    return make
