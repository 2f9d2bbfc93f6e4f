"""The lobby's WebSocket (games/consumers.py LobbyConsumer) and the chat's news on the match
socket, over the site's ASGI application and its channel layer: each change reaches the pages
of the players it concerns, says only that something changed, and reaches nobody else."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from backgammon_site.asgi import application
from games import services
from tests.games.factories import act, make_user, script_dice, start_match
from tests.games.push.test_match_socket import SITE, run, socket

pytestmark = pytest.mark.django_db(transaction=True)

LOBBY = {"type": "lobby"}


def signed_in(user) -> list[tuple[bytes, bytes]]:
    """The headers of a browser ``user`` is signed in on, for lobby_of."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return [*SITE, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode())]


def lobby_of(headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)


@pytest.fixture
def players(monkeypatch):
    # Opening roll 3 (alice) v 1 (bob): alice moves 3-1 first; then bob rolls 5-2.
    script_dice(monkeypatch, 3, 1, 5, 2)
    return make_user("alice"), make_user("bob"), make_user("carol")


@pytest.fixture
def browsers(players):
    """The headers of alice's, bob's and carol's signed-in browsers."""
    return [signed_in(player) for player in players]


async def connected(*sockets: WebsocketCommunicator) -> None:
    for each in sockets:
        assert (await each.connect())[0]


async def closed(*sockets: WebsocketCommunicator) -> None:
    for each in sockets:
        await each.disconnect()


def test_a_challenge_and_its_answer_reach_both_players_lobbies_only(players, browsers):
    alice, bob, carol = players

    async def scenario():
        lobbies = alice_s, bob_s, carol_s = [lobby_of(each) for each in browsers]
        await connected(*lobbies)
        challenge = await sync_to_async(services.challenge_create)(
            challenger=alice, opponent=bob, match_length=3
        )
        assert await alice_s.receive_json_from(timeout=5) == LOBBY
        assert await bob_s.receive_json_from(timeout=5) == LOBBY
        assert await carol_s.receive_nothing(timeout=0.3)
        await sync_to_async(services.challenge_decline)(challenge_id=challenge.pk, user=bob)
        assert await alice_s.receive_json_from(timeout=5) == LOBBY
        assert await bob_s.receive_json_from(timeout=5) == LOBBY
        assert await carol_s.receive_nothing(timeout=0.3)
        await closed(*lobbies)

    run(scenario)


def test_an_open_challenge_is_news_to_every_lobby(players, browsers):
    alice, bob, carol = players

    async def scenario():
        lobbies = [lobby_of(each) for each in browsers]
        await connected(*lobbies)
        challenge = await sync_to_async(services.challenge_create)(
            challenger=alice, opponent=None, match_length=3
        )
        for lobby in lobbies:
            assert await lobby.receive_json_from(timeout=5) == LOBBY
        await sync_to_async(services.challenge_accept)(challenge_id=challenge.pk, user=carol)
        for lobby in lobbies:  # the challenge is taken, and the match started for two of them
            assert await lobby.receive_json_from(timeout=5) == LOBBY
        await closed(*lobbies)

    run(scenario)


def test_the_turn_passing_reaches_the_players_lobbies_and_a_roll_does_not(players, browsers):
    alice, bob, carol = players
    match = start_match(alice, bob)

    async def scenario():
        lobbies = alice_s, bob_s, carol_s = [lobby_of(each) for each in browsers]
        await connected(*lobbies)
        moved = await sync_to_async(act)(match, alice, "move", play="8/5 6/5")
        assert await alice_s.receive_json_from(timeout=5) == LOBBY
        assert await bob_s.receive_json_from(timeout=5) == LOBBY
        assert await carol_s.receive_nothing(timeout=0.3)
        await sync_to_async(act)(moved, bob, "roll")  # still bob's turn: nothing new
        assert await alice_s.receive_nothing(timeout=0.3)
        assert await bob_s.receive_nothing(timeout=0.3)
        await closed(*lobbies)

    run(scenario)


def test_no_lobby_socket_for_a_visitor_who_is_not_signed_in(players):
    async def scenario():
        connected, _ = await lobby_of(SITE).connect()
        return connected

    assert run(scenario) is False


def test_a_chat_message_and_its_hiding_are_news_without_their_text(players):
    alice, bob, _ = players
    match = start_match(alice, bob)
    # A transactional test's flush drops the Moderators group: a superuser moderates here.
    moderator = make_user("mod", is_staff=True, is_superuser=True)
    alices_browser = signed_in(alice)

    async def scenario():
        page = socket(match.pk, alices_browser)
        await connected(page)
        assert await page.receive_json_from(timeout=5) == {"seq": match.seq}
        message = await sync_to_async(services.chat_send)(
            match_id=match.pk, author=alice, text="good luck"
        )
        assert await page.receive_json_from(timeout=5) == {"type": "chat"}
        await sync_to_async(services.chat_hide)(message_id=message.pk, moderator=moderator)
        assert await page.receive_json_from(timeout=5) == {"type": "chat"}
        await closed(page)

    run(scenario)
