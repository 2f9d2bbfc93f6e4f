"""A tournament page's WebSocket (games/consumers.py TournamentConsumer): the end of one of its
matches and every change of the tournament reach the pages open on it, and no other
tournament's; the page then fetches its live part (``?part=bracket``)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from backgammon_site.asgi import application
from games import services
from games.models import BracketMatch
from tests.games.factories import make_moderator, make_user, script_dice
from tests.games.push.test_match_socket import SITE, run

pytestmark = pytest.mark.django_db(transaction=True)

NEWS = {"type": "tournament"}


def page_of(tournament_id: int) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/tournaments/{tournament_id}/", headers=SITE)


@pytest.fixture
def tournaments(monkeypatch):
    """Two knock-outs of four: the first running, the second signing up."""
    script_dice(monkeypatch, 3, 1, 4, 2)
    moderator = make_moderator("organiser")
    running, waiting = (
        services.tournament_create(creator=moderator, name=name, size=4, start_mode="when_full")
        for name in ("Running", "Waiting")
    )
    for n in range(4):
        services.tournament_sign_up(tournament_id=running.pk, player=make_user(f"p{n}"))
    return moderator, running, waiting


def test_a_match_ending_reaches_its_tournaments_pages_only(tournaments):
    moderator, running, waiting = tournaments
    pairing = BracketMatch.objects.filter(tournament=running, round=1, slot=0).get()
    winner = pairing.first.player

    def award():
        services.match_award(
            match_id=pairing.match_id, moderator=moderator, winner=winner, reason="test"
        )

    async def scenario():
        watching, elsewhere = page_of(running.pk), page_of(waiting.pk)
        assert (await watching.connect())[0] and (await elsewhere.connect())[0]
        await sync_to_async(award)()
        assert await watching.receive_json_from(timeout=5) == NEWS
        assert await elsewhere.receive_nothing(timeout=0.5)
        await sync_to_async(services.tournament_sign_up)(
            tournament_id=waiting.pk, player=await sync_to_async(make_user)("late")
        )
        assert await elsewhere.receive_json_from(timeout=5) == NEWS
        await watching.disconnect()
        await elsewhere.disconnect()

    run(scenario)


def test_no_socket_for_a_tournament_that_does_not_exist(tournaments):
    async def scenario():
        return await page_of(999_999).connect()

    assert run(scenario) == (False, 4404)


def test_the_live_part_alone(tournaments):
    _, running, _ = tournaments
    text = Client().get(f"/tournaments/{running.pk}/?part=bracket").content.decode()
    assert text.lstrip().startswith('<div id="tournament-live"')
    assert "data-bracket" in text and "<html" not in text
    page = Client().get(f"/tournaments/{running.pk}/").content.decode()
    assert f'data-push-path="/ws/tournaments/{running.pk}/"' in page
    assert 'data-push-news="tournament"' in page
