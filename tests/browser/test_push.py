"""Pushed updates in a real browser: the other player's move, made in another process, appears
on the open match page by the push (no poll sent), swapped in without a page load; with its
WebSocket refused the page still follows the match by polling, and swaps in the change the
same way.

The site runs under daphne in a process of its own (as channels.testing's live server does), so
the move reaches the page only through the channel layer, as a bot's move or a timeout made by
the Celery worker would: this needs a database and a channel layer that two processes share
(.ci/run: PostgreSQL and Redis)."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections

from tests.browser.test_csp import watched_context
from tests.games.factories import act, make_user, script_dice, start_match

pytestmark = pytest.mark.django_db(transaction=True)

PUSH_OPEN = "html[data-push=open]"


@pytest.fixture
def bob_to_move(monkeypatch):
    alice, bob = make_user("alice"), make_user("bob")
    # Opening roll 1 (alice) v 3 (bob): bob moves 3-1 first.
    script_dice(monkeypatch, 1, 3)
    return alice, bob, start_match(alice, bob)


def seq_shown(seq: int) -> str:
    return f'#play-area[data-match-seq="{seq}"]'


def polls_sent(page) -> list[str]:
    """The match page's polls (``/poll/``) that ``page`` sends from now on: none while its
    socket is open."""
    sent: list[str] = []
    page.on("request", lambda request: "/poll/" in request.url and sent.append(request.url))
    return sent


def bob_moves(match, bob):
    """bob's move through the services, from a thread of its own as from another process:
    Playwright keeps an event loop in the test's thread, where the layer cannot be called."""

    def move():
        try:
            return act(match, bob, "move", play="8/5 6/5")
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(move).result()


def test_the_other_players_move_is_pushed_to_the_open_page(site, new_context, bob_to_move):
    """The move comes by the push, not the poll: no poll is sent while the socket is open. The
    time it took is printed (a second or less on a quiet machine; seconds on a loaded one)."""
    alice, bob, match = bob_to_move
    violations: list[str] = []
    page = watched_context(new_context, site, violations, alice).new_page()
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector(PUSH_OPEN, state="attached", timeout=10_000)
    page.evaluate("window.samePage = true")
    polls = polls_sent(page)

    started = time.monotonic()
    moved = bob_moves(match, bob)
    page.wait_for_selector(seq_shown(moved.seq), state="attached", timeout=15_000)
    latency = time.monotonic() - started

    print(f"pushed move shown after {latency * 1000:.0f} ms")
    assert polls == []
    assert page.evaluate("window.samePage") is True, "the page was loaded again"
    assert page.locator(PUSH_OPEN).count() == 1
    assert violations == []


def test_with_its_socket_refused_the_page_follows_the_match_by_polling(
    site, new_context, bob_to_move
):
    alice, bob, match = bob_to_move
    violations: list[str] = []
    context = watched_context(new_context, site, violations, alice)
    refused: list[str] = []
    context.route_web_socket(
        "**/ws/**", lambda socket: (refused.append(socket.url), socket.close())
    )
    page = context.new_page()
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector("#play-area")
    page.evaluate("window.samePage = true")

    moved = bob_moves(match, bob)
    page.wait_for_selector(seq_shown(moved.seq), state="attached", timeout=10_000)

    assert page.evaluate("window.samePage") is True, "the page was loaded again"
    assert refused, "the page never tried its socket"
    assert page.locator(PUSH_OPEN).count() == 0
    assert violations == []
