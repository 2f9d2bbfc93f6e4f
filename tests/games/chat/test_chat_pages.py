"""The chat panel of the match page: who sees it, sending (alone or with a move), escaping,
the limit, reporting and muting."""

from __future__ import annotations

import pytest

from games import services
from games.models import ChatMessage, ChatMute, ChatReport
from tests.games.chat.conftest import say
from tests.games.factories import reload

pytestmark = pytest.mark.django_db


def page(browser, match):
    response = browser.get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def send(browser, match, text):
    return browser.post(f"/matches/{match.pk}/chat/", {"text": text})


def test_players_see_the_conversation_and_a_form(signed_in, match, alice, bob):
    say(match, alice, "Good luck")
    say(match, bob, "You too")
    for player in (alice, bob):
        html = page(signed_in(player), match)
        assert 'id="chat"' in html
        assert "Good luck" in html and "You too" in html
        assert html.index("Good luck") < html.index("You too")
        assert f'action="/matches/{match.pk}/chat/"' in html


def test_spectators_and_visitors_see_no_messages(client, signed_in, match, alice, carol, moderator):
    say(match, alice, "Only for Bob")
    for browser in (client, signed_in(carol), signed_in(moderator)):
        html = page(browser, match)
        assert "Only for Bob" not in html and 'id="chat"' not in html
        watch = browser.get("/matches/")
        assert watch.status_code == 200 and "Only for Bob" not in watch.content.decode()


def test_a_player_sends_a_message(signed_in, match, alice, bob):
    response = send(signed_in(alice), match, "  Hello Bob  ")
    assert response.status_code == 302 and response["Location"].endswith("#chat")
    assert ChatMessage.objects.get().text == "Hello Bob"
    assert "Hello Bob" in page(signed_in(bob), match)


@pytest.mark.parametrize(
    ("text", "words"), [("", "Write something"), ("x" * 501, "at most 500"), ("a\x00b", "control")]
)
def test_bad_messages_are_refused_with_a_400_and_nothing_is_kept(
    signed_in, match, alice, text, words
):
    response = send(signed_in(alice), match, text)
    assert response.status_code == 400 and words in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_outsiders_cannot_send(client, signed_in, match, carol, moderator):
    response = send(client, match, "hello")
    assert response.status_code == 302 and "/login/" in response["Location"]
    for outsider in (carol, moderator):
        assert send(signed_in(outsider), match, "hello").status_code == 403
    assert not ChatMessage.objects.exists()


def test_hostile_text_is_escaped(signed_in, match, alice, bob):
    hostile = '<script>alert("x")</script> it\'s <b>bold</b> & "quoted"'
    send(signed_in(alice), match, hostile)
    html = page(signed_in(bob), match)
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "it&#x27;s &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;" in html


def test_line_breaks_are_kept_and_escaped(signed_in, match, alice, bob):
    send(signed_in(alice), match, "one<i>\ntwo")
    assert "one&lt;i&gt;<br>two" in page(signed_in(bob), match)


def test_over_the_limit_a_player_gets_429(signed_in, match, alice, chat_rate):
    chat_rate("2/m/user")
    browser = signed_in(alice)
    assert [send(browser, match, f"m{n}").status_code for n in range(2)] == [302, 302]
    refused = send(browser, match, "m2")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "as many messages" in refused.content.decode()
    assert ChatMessage.objects.count() == 2


def test_a_message_travels_with_a_move(signed_in, match, alice, bob):
    browser = signed_in(alice)
    html = browser.get(f"/matches/{match.pk}/?steps=8-3,6-1").content.decode()
    assert 'name="message"' in html
    response = browser.post(
        f"/matches/{match.pk}/act/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5", "message": "Take that"},
    )
    assert response.status_code == 302
    match = reload(match)
    message = ChatMessage.objects.get()
    assert message.text == "Take that" and message.seq == match.seq and message.author == alice


def test_a_refused_move_sends_no_message(signed_in, match, alice, bob):
    for who, play in ((alice, "24/1"), (bob, "8/5 6/5")):
        response = signed_in(who).post(
            f"/matches/{match.pk}/act/",
            {"seq": match.seq, "action": "move", "play": play, "message": "hello"},
        )
        assert response.status_code in (400, 403)
    assert not ChatMessage.objects.exists()
    assert reload(match).seq == match.seq


def test_a_bad_message_with_a_move_refuses_the_move(signed_in, match, alice):
    response = signed_in(alice).post(
        f"/matches/{match.pk}/act/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5", "message": "x" * 501},
    )
    assert response.status_code == 400
    assert reload(match).seq == match.seq and not ChatMessage.objects.exists()


def test_a_player_reports_the_opponents_message(signed_in, match, alice, bob):
    mine = say(match, alice, "hello")
    theirs = say(match, bob, "rude")
    browser = signed_in(alice)
    html = page(browser, match)
    assert f"/chat/{theirs.pk}/report/" in html and f"/chat/{mine.pk}/report/" not in html
    response = browser.post(f"/matches/{match.pk}/chat/{theirs.pk}/report/")
    assert response.status_code == 302
    assert ChatReport.objects.get().message == theirs
    assert browser.post(f"/matches/{match.pk}/chat/{mine.pk}/report/").status_code == 400
    assert ChatReport.objects.count() == 1


def test_outsiders_cannot_report(client, signed_in, match, bob, carol):
    message = say(match, bob, "rude")
    url = f"/matches/{match.pk}/chat/{message.pk}/report/"
    assert client.post(url).status_code == 302
    assert signed_in(carol).post(url).status_code == 404
    assert (
        signed_in(bob).post(f"/matches/{match.pk}/chat/{message.pk + 99}/report/").status_code
        == 404
    )
    assert not ChatReport.objects.exists()


def test_mute_toggle(signed_in, match, alice, bob, carol):
    say(match, bob, "chatter")
    browser = signed_in(alice)
    assert "Mute opponent" in page(browser, match)
    assert browser.post(f"/matches/{match.pk}/chat/mute/", {"mute": "on"}).status_code == 302
    html = page(browser, match)
    assert "chatter" not in html and "Unmute bob" in html
    assert "chatter" in page(signed_in(bob), match)
    assert "muted" not in page(signed_in(bob), match)
    assert browser.post(f"/matches/{match.pk}/chat/mute/", {"mute": "maybe"}).status_code == 400
    assert (
        signed_in(carol).post(f"/matches/{match.pk}/chat/mute/", {"mute": "on"}).status_code == 403
    )
    assert browser.post(f"/matches/{match.pk}/chat/mute/", {"mute": "off"}).status_code == 302
    assert "chatter" in page(browser, match)
    assert not ChatMute.objects.exists()


def test_over_the_limit_a_move_with_a_message_is_refused_whole(signed_in, match, alice, chat_rate):
    chat_rate("1/m/user")
    browser = signed_in(alice)
    send(browser, match, "first")
    response = browser.post(
        f"/matches/{match.pk}/act/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5", "message": "second"},
    )
    assert response.status_code == 429 and response["Retry-After"]
    assert reload(match).seq == match.seq and ChatMessage.objects.count() == 1


def messages_fragment(browser, match):
    """What a push swaps in: the chat's fragment, as its view gives it to this browser."""
    return browser.get(f"/matches/{match.pk}/chat/messages/")


def test_the_pushed_fragment_is_the_players_chat_without_the_layout(signed_in, match, alice, bob):
    say(match, alice, "<b>Good luck</b>")
    response = messages_fragment(signed_in(bob), match)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert 'id="chat-messages"' in html and "&lt;b&gt;Good luck&lt;/b&gt;" in html


def test_the_pushed_fragment_gives_spectators_and_visitors_nothing(
    client, signed_in, match, alice, carol, moderator
):
    say(match, alice, "Only for Bob")
    for browser in (client, signed_in(carol), signed_in(moderator)):
        response = messages_fragment(browser, match)
        assert response.status_code == 204 and response.content == b""


def test_the_pushed_fragment_leaves_out_a_muted_opponent_and_hidden_messages(
    signed_in, match, alice, bob, moderator
):
    say(match, alice, "Muted words")
    hidden = say(match, bob, "Hidden words")
    services.chat_hide(message_id=hidden.pk, moderator=moderator)
    services.chat_mute(match_id=match.pk, player=bob)
    html = messages_fragment(signed_in(bob), match).content.decode()
    assert "Muted words" not in html and "Hidden words" not in html
    assert "Muted words" in messages_fragment(signed_in(alice), match).content.decode()


def test_sent_from_the_page_by_htmx_the_answer_is_the_chat_panel(signed_in, match, alice, bob):
    response = signed_in(alice).post(
        f"/matches/{match.pk}/chat/", {"text": "Nice roll"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html and 'id="play-area"' not in html
    assert 'id="chat"' in html and "Nice roll" in html
    assert ChatMessage.objects.get().text == "Nice roll"


def test_refused_by_htmx_the_panel_says_why_and_keeps_the_text(signed_in, match, alice):
    response = signed_in(alice).post(
        f"/matches/{match.pk}/chat/", {"text": "x" * 501}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert response.status_code == 400 and 'role="alert"' in html
    assert "at most 500 characters" in html and "x" * 501 in html
    assert not ChatMessage.objects.exists()
