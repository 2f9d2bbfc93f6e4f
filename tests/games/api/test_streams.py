"""The event streams for programs (games/api/streams.py) over the site's ASGI application and its
configured channel layer: a player's news and a match's states, pushed as they happen, and
what a reconnecting client missed sent first."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from asgiref.testing import ApplicationCommunicator
from knox.models import AuthToken

from backgammon_site.asgi import application
from games import services
from games.models import Match
from tests.games.factories import act, make_user, start_match
from tests.games.push.test_match_socket import run

# The streams read the database from the layer's threads: they need committed rows.
pytestmark = pytest.mark.django_db(transaction=True)

#: Generous: the answer comes as soon as the change commits; a loaded machine may be slow.
WAIT = 20


class Stream:
    """An SSE response read as a client reads it, one event at a time."""

    def __init__(self, path: str, token: str | None, last_event_id: str | None = None) -> None:
        headers = [(b"host", b"testserver")]
        if token:
            headers.append((b"authorization", f"Token {token}".encode()))
        if last_event_id:
            headers.append((b"last-event-id", last_event_id.encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "GET",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": headers,
            "client": ("127.0.0.1", 5000),
            "server": ("testserver", 80),
        }
        self.communicator = ApplicationCommunicator(application, scope)
        self.buffer = ""
        self.status = 0
        self.headers: dict[bytes, bytes] = {}

    async def open(self) -> int:
        await self.communicator.send_input({"type": "http.request", "body": b""})
        start = await self.communicator.receive_output(WAIT)
        self.status, self.headers = start["status"], dict(start["headers"])
        return self.status

    async def body(self) -> bytes:
        message = await self.communicator.receive_output(WAIT)
        return bytes(message.get("body", b""))

    async def next_event(self) -> dict[str, Any]:
        """The next event (comments and the retry line skipped): id, event and data."""
        while True:
            while "\n\n" not in self.buffer:
                message = await self.communicator.receive_output(WAIT)
                assert message["type"] == "http.response.body", message
                if not message.get("more_body", False) and not message.get("body"):
                    raise EOFError("The stream ended.")
                self.buffer += message["body"].decode()
            frame, self.buffer = self.buffer.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in frame.splitlines() if not line.startswith(":")
            )
            if "event" in fields:
                return {**fields, "data": json.loads(fields["data"])}

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(WAIT)


def token_for(user: Any) -> str:
    return AuthToken.objects.create(user)[1]


@pytest.fixture
def players(monkeypatch):
    from tests.games.factories import script_dice

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    # Alice opens with 3-1 and is to move; then Bob rolls 6-5 (no cube in a 1-point match).
    script_dice(monkeypatch, 3, 1, 6, 5)
    return alice, bob, carol, start_match(alice, bob, length=1)


def test_the_events_tell_a_player_of_their_matches_turns_and_challenges(players):
    alice, bob, carol, match = players
    token = token_for(bob)

    async def scenario():
        stream = Stream("/api/stream/events", token)
        assert await stream.open() == 200
        assert stream.headers[b"Content-Type"] == b"text/event-stream"
        started = await stream.next_event()
        assert (started["event"], started["data"]["match"]) == ("match_started", match.pk)
        moved = await sync_to_async(act)(match, alice, "move", play="8/5 6/5")
        turn = await stream.next_event()
        assert turn["event"] == "your_turn"
        assert turn["data"] == {"match": match.pk, "seq": moved.seq}
        challenge = await sync_to_async(services.challenge_create)(
            challenger=carol, opponent=bob, match_length=3, rated=False
        )
        told = await stream.next_event()
        assert (told["event"], told["data"]["id"]) == ("challenge", challenge.pk)
        assert told["data"]["challenger"] == "carol"
        await stream.close()

    run(scenario)


def test_a_resumed_event_stream_sends_the_match_that_ended_while_away(players):
    alice, bob, _, match = players
    token = token_for(alice)

    async def scenario():
        stream = Stream("/api/stream/events", token)
        await stream.open()
        first = await stream.next_event()
        assert first["event"] == "match_started"
        await stream.close()
        await sync_to_async(act)(match, alice, "resign", points=1)
        await sync_to_async(act)(
            await sync_to_async(Match.objects.get)(pk=match.pk), bob, "accept_resign"
        )
        again = Stream("/api/stream/events", token, last_event_id=first["id"])
        await again.open()
        ended = await again.next_event()
        assert (ended["event"], ended["data"]["match"]) == ("match_ended", match.pk)
        assert ended["data"]["winner"] == "bob"
        await again.close()

    run(scenario)


def test_the_events_need_a_token(players):
    async def scenario():
        for token in (None, "0123abcd"):
            stream = Stream("/api/stream/events", token)
            assert await stream.open() == 401
            body = json.loads(await stream.body())
            assert body["code"] == "not_authenticated" and body["message"]

    run(scenario)


def test_the_match_stream_sends_each_new_seq_and_ends_with_the_match(players):
    alice, bob, _, match = players
    token = token_for(bob)

    async def scenario():
        stream = Stream(f"/api/matches/{match.pk}/stream", token)
        assert await stream.open() == 200
        now = await stream.next_event()
        assert (now["event"], now["id"], now["data"]["seq"]) == ("state", str(match.seq), match.seq)
        assert now["data"]["you"] == 1 and now["data"]["legal_actions"] == []
        moved = await sync_to_async(act)(match, alice, "move", play="8/5 6/5")
        state = await stream.next_event()
        assert state["data"]["seq"] == moved.seq and int(state["id"]) == moved.seq
        assert state["data"]["legal_actions"] == ["move", "resign"]
        resigned = await sync_to_async(act)(moved, bob, "resign", points=1)
        assert (await stream.next_event())["data"]["seq"] == resigned.seq
        ended = await sync_to_async(act)(resigned, alice, "accept_resign")
        last = await stream.next_event()
        assert (last["data"]["seq"], last["data"]["status"]) == (ended.seq, "finished")
        with pytest.raises(EOFError):
            await stream.next_event()

    run(scenario)


def test_a_resumed_match_stream_starts_after_the_seq_it_had(players):
    alice, bob, _, match = players
    token = token_for(bob)

    async def scenario():
        moved = await sync_to_async(act)(match, alice, "move", play="8/5 6/5")
        stream = Stream(f"/api/matches/{match.pk}/stream", token, last_event_id=str(match.seq))
        await stream.open()
        first = await stream.next_event()
        assert first["data"]["seq"] == moved.seq
        await stream.close()

    run(scenario)


def test_no_stream_of_a_match_that_does_not_exist(players):
    token = token_for(players[1])

    async def scenario():
        stream = Stream("/api/matches/999999/stream", token)
        assert await stream.open() == 404
        assert json.loads(await stream.body())["code"] == "not_found"

    run(scenario)


def test_the_streams_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/stream/events", "/api/matches/{id}/stream"):
        answer = schema["paths"][path]["get"]
        assert "text/event-stream" in answer["responses"]["200"]["content"], path
        assert any(p["name"] == "Last-Event-ID" for p in answer["parameters"]), path


def test_a_quiet_stream_sends_keep_alive_comments(players, monkeypatch):
    from games.api import streams

    monkeypatch.setattr(streams, "KEEP_ALIVE", 0.2)
    token = token_for(players[2])

    async def scenario():
        stream = Stream("/api/stream/events", token)
        await stream.open()
        said = b""
        while b": keep-alive" not in said:
            said += await stream.body()
        assert b"event:" not in said
        await stream.close()

    run(scenario)
