"""A real browser: Debian's Chromium, headless, driven by Playwright, against live_server."""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

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
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """Browser contexts that are closed when the test ends, so that no page of an unfinished
    match keeps polling the live server after its test."""
    contexts: list[Any] = []

    def make(**options: Any) -> Any:
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
