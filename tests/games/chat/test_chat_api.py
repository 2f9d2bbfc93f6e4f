"""The chat over the REST API: the permission matrix, sending (alone or with a move), the
limit, reporting, muting, and the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import ChatMessage, ChatMute, ChatReport
from tests.games.api.conftest import assert_error, client_for
from tests.games.chat.conftest import say
from tests.games.factories import reload

pytestmark = pytest.mark.django_db


def chat(match):
    return f"/api/matches/{match.pk}/chat/"


def test_players_read_the_chat_in_order(match, alice, bob):
    say(match, alice, "one")
    say(match, bob, "<b>two</b>")
    for player in (alice, bob):
        response = client_for(player).get(chat(match))
        assert response.status_code == 200
        body = response.json()
        assert [m["text"] for m in body["messages"]] == ["one", "<b>two</b>"]
        assert [m["author"] for m in body["messages"]] == ["alice", "bob"]
        assert body["muted"] is False
        assert set(body["messages"][0]) == {"id", "author", "text", "seq", "created_at"}


def test_spectators_get_403_and_visitors_401(match, alice, carol, moderator):
    say(match, alice, "private")
    for outsider in (carol, moderator):
        assert_error(client_for(outsider).get(chat(match)), 403, "forbidden")
        assert_error(client_for(outsider).post(chat(match), {"text": "hi"}, format="json"), 403)
        assert_error(client_for(outsider).post(f"/api/matches/{match.pk}/mute/"), 403)
    assert_error(client_for(None).get(chat(match)), 401)
    assert_error(client_for(None).post(chat(match), {"text": "hi"}, format="json"), 401)
    assert_error(client_for(alice).get(f"/api/matches/{match.pk + 99}/chat/"), 404)
    assert ChatMessage.objects.count() == 1 and not ChatMute.objects.exists()


def test_a_player_sends_a_message(match, alice):
    response = client_for(alice).post(chat(match), {"text": " hello "}, format="json")
    assert response.status_code == 201
    assert response.json()["text"] == "hello" and response.json()["seq"] == match.seq
    assert ChatMessage.objects.get().text == "hello"


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, "a\x00b", "\x1b[31m", 5, None])
def test_bad_messages_get_400_and_nothing_is_kept(match, alice, text):
    response = client_for(alice).post(chat(match), {"text": text}, format="json")
    assert_error(response, 400)
    assert not ChatMessage.objects.exists()


def test_over_the_limit_429_with_retry_after(match, alice, chat_rate):
    chat_rate("2/m/user")
    api = client_for(alice)
    codes = [api.post(chat(match), {"text": f"m{n}"}, format="json").status_code for n in range(2)]
    assert codes == [201, 201]
    response = api.post(chat(match), {"text": "m3"}, format="json")
    assert_error(response, 429, "too_many_attempts")
    assert int(response["Retry-After"]) > 0
    assert ChatMessage.objects.count() == 2


def test_a_message_travels_with_a_move(match, alice):
    response = client_for(alice).post(
        f"/api/matches/{match.pk}/actions/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5", "message": "Your roll"},
        format="json",
    )
    assert response.status_code == 200, response.content
    message = ChatMessage.objects.get()
    assert (
        message.text == "Your roll" and message.seq == reload(match).seq == response.json()["seq"]
    )


def test_a_refused_action_sends_no_message(match, alice, bob):
    api = client_for(alice)
    actions = f"/api/matches/{match.pk}/actions/"
    body = {"seq": match.seq, "action": "move", "play": "8/5 6/5"}
    assert_error(
        api.post(actions, {**body, "seq": match.seq - 1, "message": "hi"}, format="json"), 409
    )
    assert_error(api.post(actions, {**body, "play": "24/1", "message": "hi"}, format="json"), 400)
    assert_error(client_for(bob).post(actions, {**body, "message": "hi"}, format="json"), 400)
    refused = assert_error(api.post(actions, {**body, "message": "x" * 501}, format="json"), 400)
    assert "at most 500 characters" in str(refused)
    assert_error(api.post(actions, {**body, "message": 7}, format="json"), 400)
    assert reload(match).seq == match.seq and not ChatMessage.objects.exists()


def test_a_blank_message_with_a_move_is_no_message(match, alice):
    response = client_for(alice).post(
        f"/api/matches/{match.pk}/actions/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5", "message": "  "},
        format="json",
    )
    assert response.status_code == 200 and not ChatMessage.objects.exists()


def test_reporting_over_the_api(match, alice, bob, carol):
    theirs = say(match, bob, "rude")
    url = f"/api/chat/{theirs.pk}/report/"
    response = client_for(alice).post(url, {"reason": "insults"}, format="json")
    assert response.status_code == 201 and response.json()["reason"] == "insults"
    assert_error(client_for(bob).post(url, {}, format="json"), 400, "own_message")
    assert_error(client_for(carol).post(url, {}, format="json"), 404)
    assert_error(client_for(None).post(url, {}, format="json"), 401)
    assert_error(client_for(alice).post(url, {"reason": 3}, format="json"), 400)
    assert_error(client_for(alice).post("/api/chat/999999/report/", {}, format="json"), 404)
    assert ChatReport.objects.get().reporter == alice


def test_mute_and_unmute_over_the_api(match, alice, bob):
    say(match, bob, "chatter")
    api = client_for(alice)
    mute = f"/api/matches/{match.pk}/mute/"
    assert api.post(mute).json() == {"muted": True}
    body = api.get(chat(match)).json()
    assert body == {"messages": [], "muted": True}
    assert len(client_for(bob).get(chat(match)).json()["messages"]) == 1
    assert api.delete(mute).json() == {"muted": False}
    assert len(api.get(chat(match)).json()["messages"]) == 1


def test_the_schema_documents_the_chat(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert {"get", "post"} <= set(paths["/api/matches/{match_id}/chat/"])
    assert "429" in paths["/api/matches/{match_id}/chat/"]["post"]["responses"]
    assert "post" in paths["/api/chat/{message_id}/report/"]
    assert {"post", "delete"} <= set(paths["/api/matches/{match_id}/mute/"])
    action = schema["components"]["schemas"]["ActionRequestRequest"]["properties"]
    assert "message" in action
