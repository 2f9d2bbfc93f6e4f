"""What a match's socket tells whom: the chat's news reaches the players' pages only, never a
spectator's; a casual match's socket opens for its own browser only."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client

from games import services
from tests.games.factories import act, make_user, script_dice, start_match
from tests.games.push.test_lobby_socket import signed_in
from tests.games.push.test_match_socket import SITE, run, socket
from tests.games.views.test_casual_play import OPENING_THEN_TURNS, start_pass_and_play

pytestmark = pytest.mark.django_db(transaction=True)


def browser_of(client: Client) -> list[tuple[bytes, bytes]]:
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [*SITE, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())]


def test_the_chat_is_news_to_the_players_pages_and_not_to_spectators(monkeypatch):
    script_dice(monkeypatch, 3, 1, 5, 2)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = start_match(alice, bob)
    alices_browser, carols_browser = signed_in(alice), signed_in(carol)

    async def scenario():
        player, spectator, watching_carol = (
            socket(match.pk, alices_browser),
            socket(match.pk),
            socket(match.pk, carols_browser),
        )
        for page in (player, spectator, watching_carol):
            assert (await page.connect())[0]
            assert await page.receive_json_from(timeout=5) == {"seq": match.seq}
        await sync_to_async(services.chat_send)(match_id=match.pk, author=bob, text="good luck")
        assert await player.receive_json_from(timeout=5) == {"type": "chat"}
        assert await spectator.receive_nothing(timeout=0.5)
        assert await watching_carol.receive_nothing(timeout=0.1)
        moved = await sync_to_async(act)(match, alice, "move", play="8/5 6/5")
        for page in (player, spectator, watching_carol):
            assert await page.receive_json_from(timeout=5) == {"seq": moved.seq}
            await page.disconnect()

    run(scenario)


def test_a_casual_matchs_socket_opens_for_its_own_browser_only(monkeypatch):
    script_dice(monkeypatch, *OPENING_THEN_TURNS)
    table = Client()
    match = start_pass_and_play(table)
    own, strangers = browser_of(table), (SITE, signed_in(make_user("carol")))

    async def scenario():
        page = socket(match.pk, own)
        assert (await page.connect())[0]
        await page.disconnect()
        return [await socket(match.pk, headers).connect() for headers in strangers]

    assert run(scenario) == [(False, 4404), (False, 4404)]
