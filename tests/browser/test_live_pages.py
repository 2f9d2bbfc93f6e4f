"""The living pages in a real browser, against the site under daphne in another process
(conftest.site: PostgreSQL and Redis): a move reaches the other player's page and a
spectator's, a chat message the opponent's page, a challenge or the turn passing the lobby, all
by the push (the socket open throughout, so no poll was sent) and without a page load; the
computer's reply arrives by itself, whether an eager task made it inside the request or a
Celery worker made it later; the running clock shows the server's figure after each push; with
its socket refused the lobby polls.

Each test prints the latencies it measured (``push latency ...``) for the lead's report: a
second or less on a quiet machine. They are printed, not asserted: a loaded machine takes
seconds, and what the tests hold is that the push brought the change."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from backgammon_site.celery import app as celery_app
from games import services
from tests.browser.conftest import daphne
from tests.browser.test_casual_play import computer_opponents  # noqa: F401 (a fixture)
from tests.browser.test_csp import play_the_turn, watched_context
from tests.browser.test_push import PUSH_OPEN, bob_moves, polls_sent
from tests.conftest import REPO_ROOT
from tests.games.factories import make_user, migration_made_rows, script_dice, start_match

pytestmark = pytest.mark.django_db(transaction=True)

LIVE = {"kind": "live", "minutes": 8, "increment_seconds": 10}
#: How long a page may take to show a pushed change: a loaded machine's budget, never a target.
BUDGET_MS = 15_000


def machine_load() -> str:
    """The machine's load beside a latency: the browser, daphne and the test share its CPUs."""
    return "(load {:.1f} {:.1f} {:.1f} on {} CPUs)".format(*os.getloadavg(), os.cpu_count())


# Installed before the move: the page notes (in the wall clock's milliseconds) when it first
# shows something newer than it showed, so that pages watched together are timed together.
WATCH_SEQ = """() => {
  const shown = Number(document.getElementById("play-area").dataset.matchSeq);
  window.newerSeqAt = null;
  const look = () => {
    const area = document.getElementById("play-area");
    if (!window.newerSeqAt && area && Number(area.dataset.matchSeq) > shown) {
      window.newerSeqAt = Date.now();
    }
  };
  const everything = {subtree: true, childList: true, attributes: true};
  new MutationObserver(look).observe(document.body, everything);
}"""


def in_a_thread(work):
    """Run ``work`` (a change through the services) in a thread of its own, as from another
    process: Playwright keeps an event loop in the test's thread, where the layer cannot be
    called (test_push.bob_moves)."""

    def run():
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(run).result()


def open_page(new_context, site, user, path, violations):
    page = watched_context(new_context, site, violations, user).new_page()
    page.goto(f"{site}{path}")
    page.wait_for_selector(PUSH_OPEN, state="attached", timeout=10_000)
    page.evaluate("window.samePage = true")
    return page


def assert_pushed(*pages):
    """The pages' sockets are still open, so their polls were cancelled before being sent: what
    they show came by the push."""
    for page in pages:
        assert page.locator(PUSH_OPEN).count() == 1, "the socket closed: a poll may have run"


def seconds_since(page, started: float, mark: str) -> float:
    page.wait_for_function(f"() => window.{mark} !== null", timeout=BUDGET_MS)
    return page.evaluate(f"window.{mark}") / 1000 - started


def assert_same_page(*pages):
    for page in pages:
        assert page.evaluate("window.samePage") is True, "the page was loaded again"


def bob_to_move_in(monkeypatch, time_control=None):
    alice, bob = make_user("alice"), make_user("bob")
    # Opening roll 1 (alice) v 3 (bob): bob moves 3-1 first.
    script_dice(monkeypatch, 1, 3)
    return alice, bob, start_match(alice, bob, time_control=time_control)


@pytest.fixture
def bob_to_move(monkeypatch):
    """A correspondence match, bob to move."""
    return bob_to_move_in(monkeypatch)


@pytest.fixture
def bob_to_move_live(monkeypatch):
    """A live match (8 minutes + 10 seconds), bob to move."""
    return bob_to_move_in(monkeypatch, LIVE)


def test_a_move_reaches_the_other_player_and_a_spectator_by_push(site, new_context, bob_to_move):
    alice, bob, match = bob_to_move
    violations: list[str] = []
    player = open_page(new_context, site, alice, f"/matches/{match.pk}/", violations)
    spectator = open_page(new_context, site, None, f"/matches/{match.pk}/", violations)
    polls = [polls_sent(page) for page in (player, spectator)]
    for page in (player, spectator):
        page.evaluate(WATCH_SEQ)

    started = time.time()
    moved = bob_moves(match, bob)
    latencies = [seconds_since(page, started, "newerSeqAt") for page in (player, spectator)]

    print(f"push latency player={latencies[0]:.2f}s spectator={latencies[1]:.2f}s", machine_load())
    assert polls == [[], []]
    assert_pushed(player, spectator)
    for page in (player, spectator):
        assert page.locator(f'#play-area[data-match-seq="{moved.seq}"]').count() == 1
    assert_same_page(player, spectator)
    assert "alice to roll" in player.inner_text("[data-status]")
    assert violations == []


def test_the_running_clock_shows_the_servers_figure_after_a_push(
    site, new_context, bob_to_move_live
):
    alice, bob, match = bob_to_move_live
    violations: list[str] = []
    context = watched_context(new_context, site, violations, alice)
    # Counts the timers the page's scripts start: a swap must not start another clock.
    context.add_init_script(
        "window.timersStarted = 0; const startTimer = window.setInterval;"
        "window.setInterval = (...args) => { window.timersStarted += 1;"
        " return startTimer(...args); };"
    )
    page = context.new_page()
    page.goto(f"{site}/matches/{match.pk}/")
    page.wait_for_selector(PUSH_OPEN, state="attached", timeout=10_000)
    page.evaluate("window.samePage = true")
    timers = page.evaluate("window.timersStarted")
    # The page's clock drifts far from the server's: bob's shows an hour and more.
    page.evaluate(
        "document.querySelectorAll('[data-countdown]').forEach(clock => {"
        " clock.dataset.countdown = '5000'; delete clock.dataset.shownAt; })"
    )
    page.wait_for_function(
        "() => document.querySelector('[data-clock=bob] dd').textContent.includes('1:23:')"
    )

    bob_moves(match, bob)
    page.wait_for_selector('[data-clock="alice"].running', timeout=BUDGET_MS)
    page.wait_for_timeout(600)

    alice_left = seconds_shown(page, "alice")
    assert 470 <= alice_left <= 480, alice_left  # 8 minutes, her clock just started
    assert seconds_shown(page, "bob") <= 480 + 10  # bob's stopped clock, with the increment
    assert page.evaluate("window.timersStarted") == timers, "a swap started another timer"
    assert_same_page(page)
    assert violations == []


def seconds_shown(page, player: str) -> int:
    text = page.inner_text(f'[data-clock="{player}"] dd').strip()
    minutes, seconds = text.split()[0].split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_a_chat_message_reaches_the_opponents_page_by_push(site, new_context, bob_to_move):
    alice, bob, match = bob_to_move
    violations: list[str] = []
    path = f"/matches/{match.pk}/"
    opponent = open_page(new_context, site, alice, path, violations)
    spectator = open_page(new_context, site, None, path, violations)
    writer = open_page(new_context, site, bob, path, violations)
    arrived = "#chat-messages .chat-text:text('Good luck, alice')"

    writer.fill("#chat-text", "Good luck, alice")
    started = time.monotonic()
    writer.click('[data-action="send-message"]')
    opponent.wait_for_selector(arrived, timeout=BUDGET_MS)
    latency = time.monotonic() - started

    print(f"push latency chat={latency:.2f}s", machine_load())
    assert_pushed(opponent)
    writer.wait_for_selector(arrived)  # the sender's own panel, swapped in by htmx
    assert writer.input_value("#chat-text") == ""
    assert_same_page(opponent, spectator, writer)
    spectator.wait_for_timeout(500)
    assert "Good luck" not in spectator.content()
    assert violations == []


def test_the_lobby_shows_a_new_challenge_and_the_turn_passing_by_push(
    site, new_context, bob_to_move
):
    alice, bob, match = bob_to_move
    carol = make_user("carol")
    violations: list[str] = []
    lobby = open_page(new_context, site, alice, "/", violations)
    assert lobby.locator(f'tr.your-turn[data-match="{match.pk}"]').count() == 0

    started = time.monotonic()
    challenge = in_a_thread(
        lambda: services.challenge_create(challenger=carol, opponent=alice, match_length=3)
    )
    lobby.wait_for_selector(f'#lobby-live [data-challenge="{challenge.pk}"]', timeout=BUDGET_MS)
    challenge_latency = time.monotonic() - started

    started = time.monotonic()
    bob_moves(match, bob)
    lobby.wait_for_selector(f'tr.your-turn[data-match="{match.pk}"]', timeout=BUDGET_MS)
    turn_latency = time.monotonic() - started

    print(
        f"push latency lobby challenge={challenge_latency:.2f}s turn={turn_latency:.2f}s",
        machine_load(),
    )
    assert_pushed(lobby)
    assert "Next match (1 waiting)" in lobby.inner_text("[data-next-match]")
    assert_same_page(lobby)
    assert violations == []


def test_with_its_socket_refused_the_lobby_follows_by_polling(site, new_context):
    alice, carol = make_user("alice"), make_user("carol")
    violations: list[str] = []
    context = watched_context(new_context, site, violations, alice)
    refused: list[str] = []
    context.route_web_socket(
        "**/ws/**", lambda socket: (refused.append(socket.url), socket.close())
    )
    lobby = context.new_page()
    lobby.goto(f"{site}/")
    lobby.wait_for_selector("#lobby-live")
    lobby.evaluate("window.samePage = true")

    challenge = in_a_thread(
        lambda: services.challenge_create(challenger=carol, opponent=alice, match_length=3)
    )
    lobby.wait_for_selector(f'#lobby-live [data-challenge="{challenge.pk}"]', timeout=20_000)

    assert_same_page(lobby)
    assert refused, "the lobby never tried its socket"
    assert lobby.locator(PUSH_OPEN).count() == 0
    assert violations == []


# --- The computer's reply ---


def beginner_bot():
    migration_made_rows()
    return get_user_model().objects.get(username="BeginnerBot")


def human_moves_and_the_computer_replies(new_context, site, human, match):
    """The human plays their opening move by clicking; the computer's reply then appears on
    their page by itself. Returns the seconds from Done to the reply."""
    violations: list[str] = []
    page = open_page(new_context, site, human, f"/matches/{match.pk}/", violations)
    play_the_turn(page)
    done = time.monotonic()
    page.wait_for_selector('[data-action="roll"], [data-action="take"]', timeout=60_000)
    reply = time.monotonic() - done
    assert_same_page(page)
    assert violations == []
    match.refresh_from_db()
    assert match.to_act_id == human.pk and match.seq > 2
    assert page.locator(f'#play-area[data-match-seq="{match.seq}"]').count() == 1
    return reply


def test_the_computers_reply_made_inside_the_request_appears_without_a_reload(
    site,
    new_context,
    monkeypatch,
    computer_opponents,  # noqa: F811
):
    human = make_user("alice")
    script_dice(monkeypatch, 3, 1)  # the human's 3-1 opens; the server's dice are its own
    match = start_match(human, beginner_bot())
    reply = human_moves_and_the_computer_replies(new_context, site, human, match)
    print(f"push latency computer (eager task) reply={reply:.2f}s")


@pytest.fixture
def site_queueing_tasks(monkeypatch):
    """The site under daphne, queueing its tasks on the broker for a worker instead of running
    them in place (the tests' default), as the web process does in production."""
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://") or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL and CELERY_BROKER_URL), as in CI")
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    with daphne() as base:
        yield base


@pytest.fixture
def urgent_worker(site_queueing_tasks, tmp_path: Path):
    """A Celery worker process on the urgent queue (the computer's moves), on the test's
    database and broker."""
    database = connection.settings_dict
    log = tmp_path / "worker.log"
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "backgammon_site.celery", "worker"]
        + ["--pool=solo", "-Q", "urgent", "--without-gossip", "--without-mingle"]
        + ["--without-heartbeat", "--loglevel=INFO", "--hostname=live-pages@%h"],
        cwd=REPO_ROOT,
        env={
            **os.environ,
            "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:"
            f"{database['PORT']}/{database['NAME']}",
            "CELERY_TASK_ALWAYS_EAGER": "0",
        },
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text():
            assert worker.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the worker did not start within a minute"
            time.sleep(0.2)
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
        print(log.read_text()[-2000:])


def test_the_computers_reply_made_by_a_worker_appears_without_a_reload(
    site_queueing_tasks,
    urgent_worker,
    new_context,
    monkeypatch,
    computer_opponents,  # noqa: F811
):
    human = make_user("alice")
    script_dice(monkeypatch, 3, 1)
    match = start_match(human, beginner_bot())
    reply = human_moves_and_the_computer_replies(new_context, site_queueing_tasks, human, match)
    print(f"push latency computer (worker) reply={reply:.2f}s")
