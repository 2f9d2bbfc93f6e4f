"""Event streams for programs, as Server-Sent Events on the ASGI server: a player's news
(``GET /api/stream/events``) and a match's states (``GET /api/matches/<id>/stream``).

A stream joins the channel-layer groups that games/push.py already tells of each change, and
on each message (and at each keep-alive, should a message be lost) reads what to send from the
database. Nothing lives only in the web process: a client that reconnects with Last-Event-ID,
to this process or another, is first sent what it missed."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET
from rest_framework import exceptions

from accounts.token_auth import TokenAuthentication
from games import selectors
from games.api.matches import state_data
from games.api.serializers import ChallengeSerializer
from games.models import Match, Player
from games.push import match_group, player_group
from games.selectors.streams import stream_news

logger = logging.getLogger(__name__)

#: Seconds between keep-alive comments, when nothing else is sent.
KEEP_ALIVE = 15.0
#: How far before a resumed stream's Last-Event-ID it looks for matches that ended: a match's
#: end is stamped inside its transaction, which may commit after a later-stamped read.
RESUME_MARGIN = timedelta(minutes=5)


@require_GET
async def player_events(request: HttpRequest) -> HttpResponseBase:
    """The caller's news: ``challenge``, ``match_started``, ``your_turn`` and ``match_ended``."""
    player = await sync_to_async(_token_user)(request, required=True)
    if isinstance(player, HttpResponse):
        return player
    since = _resumed_at(request.headers.get("Last-Event-ID", ""))
    ended_since = since - RESUME_MARGIN if since else datetime.now(UTC)

    def news() -> list[tuple[str, str, dict[str, Any]]]:
        return _player_news(player, ended_since=ended_since)

    return _event_stream(_player_stream(player, news))


@require_GET
async def match_states(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """The match's state at each new seq, as the caller may see it; ends with the match."""
    viewer = await sync_to_async(_token_user)(request, required=False)
    if isinstance(viewer, HttpResponse):
        return viewer
    if not await sync_to_async(_may_watch)(viewer, match_id):
        return _error(404, "not_found", f"There is no match {match_id}.")
    last = request.headers.get("Last-Event-ID", "")
    seen = int(last) if last.isdigit() else -1
    return _event_stream(_match_stream(viewer, match_id, seen))


async def _player_stream(
    player: Player, news: Callable[[], list[tuple[str, str, dict[str, Any]]]]
) -> AsyncIterator[str]:
    sent: set[str] = set()
    async for woken_by_news in _wakes(player_group(player.pk)):
        cursor = _cursor(datetime.now(UTC))
        told = False
        for key, kind, data in await sync_to_async(news)():
            if key not in sent:
                sent.add(key)
                told = True
                yield _frame(kind, data, cursor)
        if not told and not woken_by_news:
            yield KEEP_ALIVE_COMMENT


async def _match_stream(viewer: Player | None, match_id: int, seen: int) -> AsyncIterator[str]:
    async for woken_by_news in _wakes(match_group(match_id)):
        state = await sync_to_async(_match_state)(viewer, match_id)
        if state is not None and state["seq"] > seen:
            seen = state["seq"]
            yield _frame("state", state, str(seen))
        elif not woken_by_news:
            yield KEEP_ALIVE_COMMENT
        if state is None or state["status"] == Match.Status.FINISHED:
            return


async def _wakes(group: str) -> AsyncIterator[bool]:
    """True at once and at each change the group hears of; False after KEEP_ALIVE seconds
    of silence (the stream reads the database then too, should a message have been lost).

    The layer is read by a task of its own that is never waited for when the stream ends:
    a receive cancelled inside channels_redis's blocking pop may not return until Redis
    answers, and the client that went away must not wait for it."""
    layer = get_channel_layer()
    assert layer is not None  # the settings always name one
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    news: asyncio.Queue[None] = asyncio.Queue()

    async def listen() -> None:
        while True:
            await layer.receive(channel)
            news.put_nowait(None)

    listening = asyncio.ensure_future(listen())
    try:
        yield True
        while True:
            try:
                await asyncio.wait_for(news.get(), KEEP_ALIVE)
            except TimeoutError:
                yield False
            else:
                while not news.empty():
                    news.get_nowait()
                yield True
    finally:
        listening.cancel()
        try:
            await layer.group_discard(group, channel)
        except Exception:
            logger.warning("Could not leave %s", group, exc_info=True)


def _player_news(player: Player, *, ended_since: datetime) -> list[tuple[str, str, dict[str, Any]]]:
    """(key, event, data) for everything the player's stream has to say now; a stream sends
    each key once."""
    challenges, active, ended = stream_news(player, ended_since=ended_since)
    news: list[tuple[str, str, dict[str, Any]]] = [
        (f"challenge-{challenge.pk}", "challenge", ChallengeSerializer(challenge).data)
        for challenge in challenges
    ]
    for match in active:
        news.append((f"started-{match.pk}", "match_started", _outline(match)))
        if match.to_act_id == player.pk:
            turn = {"match": match.pk, "seq": match.seq}
            news.append((f"turn-{match.pk}-{match.seq}", "your_turn", turn))
    news.extend((f"ended-{match.pk}", "match_ended", _outline(match)) for match in ended)
    return news


def _outline(match: Match) -> dict[str, Any]:
    return {
        "match": match.pk,
        "seq": match.seq,
        "status": match.status,
        "players": [match.first_player.get_username(), match.second_player.get_username()],
        "winner": match.winner.get_username() if match.winner else None,
        "match_length": match.match_length,
        "variant": match.variant,
        "rated": match.rated,
    }


def _match_state(viewer: Player | None, match_id: int) -> dict[str, Any] | None:
    match = selectors.match_with_players(match_id, readers=_readers(viewer))
    return None if match is None else state_data(selectors.match_view(match, viewer))


def _may_watch(viewer: Player | None, match_id: int) -> bool:
    return selectors.match_outline(match_id, readers=_readers(viewer)) is not None


def _readers(viewer: Player | None) -> set[int]:
    return {viewer.pk} if viewer is not None else set()


def _token_user(request: HttpRequest, *, required: bool) -> Any:
    """The player the request's token signs in, None without a token unless ``required``;
    a 401 response for a bad token, or a missing one that is required."""
    try:
        found = TokenAuthentication().authenticate(request)
    except exceptions.AuthenticationFailed as refusal:
        return _error(401, "not_authenticated", str(refusal.detail))
    if found is None:
        if not required:
            return None
        return _error(401, "not_authenticated", "Send your token: Authorization: Token <token>.")
    return found[0]


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"code": code, "message": message}, status=status)


def _resumed_at(last_event_id: str) -> datetime | None:
    """The moment a player's stream had reached, from its Last-Event-ID (microseconds since
    the epoch); None when there is none or it is not one of ours."""
    if not last_event_id.isdigit() or len(last_event_id) > 20:
        return None
    try:
        return datetime.fromtimestamp(int(last_event_id) / 1_000_000, UTC)
    except (OverflowError, ValueError, OSError):
        return None


def _cursor(moment: datetime) -> str:
    return str(int(moment.timestamp() * 1_000_000))


KEEP_ALIVE_COMMENT = ": keep-alive\n\n"


def _event_stream(frames: AsyncIterator[str]) -> StreamingHttpResponse:
    async def opened() -> AsyncIterator[str]:
        yield "retry: 3000\n\n"
        async for frame in frames:
            yield frame

    response = StreamingHttpResponse(opened(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _frame(kind: str, data: dict[str, Any], event_id: str) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def document_streams(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's post-processing hook: the two streams are async Django views, which
    it does not see, so their paths are written here."""
    error = {"$ref": "#/components/schemas/Error"}
    unauthorised = {"description": "No token, or a bad one.", "content": _json(error)}
    resume = {
        "name": "Last-Event-ID",
        "in": "header",
        "required": False,
        "schema": {"type": "string"},
        "description": "The id of the last event you had: the stream sends what you missed first.",
    }
    result["paths"]["/api/stream/events"] = {
        "get": {
            "operationId": "stream_events",
            "summary": "Your news as Server-Sent Events: challenge, match_started, your_turn "
            "and match_ended",
            "description": (
                "Each event's data is JSON: challenge: the Challenge; match_started and "
                "match_ended: {match, seq, status, players, winner, match_length, variant, "
                "rated}; your_turn: {match, seq}, the seq to act at. On connecting, the open "
                "challenges to you, your active matches and the decisions they wait for are "
                "sent first; with Last-Event-ID also the matches that ended since (one may be "
                "told twice). A comment every 15 s keeps the connection open."
            ),
            "tags": ["stream"],
            "parameters": [resume],
            "responses": {
                "200": {"description": "The stream.", "content": {"text/event-stream": {}}},
                "401": unauthorised,
            },
        }
    }
    result["paths"]["/api/matches/{id}/stream"] = {
        "get": {
            "operationId": "matches_stream",
            "summary": "A match's state at each new seq, as Server-Sent Events (event: state)",
            "description": (
                "Each event's id is the seq and its data the MatchState you may see (as GET "
                "/api/matches/{id}/). The current state comes first (after Last-Event-ID's "
                "seq, if sent); the stream ends after the match's last state."
            ),
            "tags": ["stream"],
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
                resume,
            ],
            "responses": {
                "200": {"description": "The stream.", "content": {"text/event-stream": {}}},
                "401": unauthorised,
                "404": {"description": "No such match.", "content": _json(error)},
            },
        }
    }
    return result


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}
