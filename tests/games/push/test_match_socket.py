"""The match page's WebSocket (games/consumers.py) over the site's ASGI application and its
configured channel layer: a change of a match reaches the pages open on it, and only those."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.management import get_commands
from django.db import connections

from backgammon_site.asgi import application
from games.push import announce_seq
from tests.games.factories import act, make_user, script_dice, start_match

# The consumer reads the database from the layer's threads: it needs committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

SITE = [(b"origin", b"http://127.0.0.1:8000")]


def run(scenario):
    """Run the async ``scenario`` to its end, in a thread of its own: the browser tests leave
    Playwright's event loop in the tests' thread, where asgiref will not start another."""

    def in_thread():
        try:
            return async_to_sync(scenario)()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as executor:
        return executor.submit(in_thread).result()


def socket(match_id: int, headers: list[tuple[bytes, bytes]] = SITE) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/matches/{match_id}/", headers=headers)


@pytest.fixture
def matches(monkeypatch):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    # Opening rolls 3 (alice) v 1 (bob), then 4 v 2: alice moves 3-1 first in both matches.
    script_dice(monkeypatch, 3, 1, 4, 2)
    return alice, start_match(alice, bob), start_match(alice, carol)


def test_a_move_reaches_the_pages_of_its_match_and_not_another_matchs(matches):
    alice, played, other = matches

    async def scenario():
        watching, elsewhere = socket(played.pk), socket(other.pk)
        assert (await watching.connect())[0] and (await elsewhere.connect())[0]
        assert await watching.receive_json_from(timeout=5) == {"seq": played.seq}
        assert await elsewhere.receive_json_from(timeout=5) == {"seq": other.seq}
        moved = await sync_to_async(act)(played, alice, "move", play="8/5 6/5")
        assert await watching.receive_json_from(timeout=5) == {"seq": moved.seq}
        assert await elsewhere.receive_nothing(timeout=0.5)
        await watching.disconnect()
        await elsewhere.disconnect()
        return moved

    moved = run(scenario)
    assert moved.seq > played.seq


def test_a_page_whose_socket_opens_late_hears_the_seq_it_missed(matches):
    """A move made between the page's answer and its socket's opening is told on opening."""
    alice, played, _ = matches
    moved = act(played, alice, "move", play="8/5 6/5")

    async def scenario():
        late = socket(played.pk)
        assert (await late.connect())[0]
        heard = await late.receive_json_from(timeout=5)
        assert await late.receive_nothing(timeout=0.2)
        await late.disconnect()
        return heard

    assert run(scenario) == {"seq": moved.seq}


def test_no_socket_for_a_match_that_does_not_exist(matches):
    async def scenario():
        connected, code = await socket(999_999).connect()
        return connected, code

    assert run(scenario) == (False, 4404)


def test_no_socket_from_another_sites_page(matches):
    _, played, _ = matches

    async def scenario():
        connected, _ = await socket(played.pk, [(b"origin", b"https://evil.example")]).connect()
        return connected

    assert run(scenario) is False


def test_a_layer_that_cannot_be_reached_is_logged_and_the_action_stands(
    matches, monkeypatch, caplog
):
    alice, played, _ = matches

    class Unreachable:
        async def group_send(self, group, message):
            raise ConnectionError("the layer is away")

    monkeypatch.setattr("games.push.get_channel_layer", lambda: Unreachable())
    with caplog.at_level(logging.WARNING, logger="games.push"):
        moved = act(played, alice, "move", play="8/5 6/5")
    assert moved.seq > played.seq
    assert f"Could not push seq {moved.seq} of match {played.pk}" in caplog.text
    announce_seq(played.pk, moved.seq)  # and again: still no exception


def test_the_development_server_is_daphnes_and_serves_the_sockets():
    """`manage.py runserver` and `manage.py serve` (which calls it) serve WebSockets only as
    daphne's command, which daphne's place first in INSTALLED_APPS gives."""
    assert get_commands()["runserver"] == "daphne"
