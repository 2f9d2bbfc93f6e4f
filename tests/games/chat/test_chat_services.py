"""The chat's rules, through the services: who talks, what a message may hold, reports,
mutes and hiding."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError
from django.utils import timezone

from backgammon_site.core.errors import ApplicationError, Forbidden, NotFound
from games import selectors, services
from games.models import ChatMessage, ChatMute, ChatReport, Match
from tests.games.chat.conftest import say
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db


def test_a_message_is_kept_stripped_at_the_matchs_seq(match, alice):
    message = say(match, alice, "  Good luck!\r\nHave fun.  ")
    assert message.text == "Good luck!\nHave fun."
    assert message.seq == match.seq and message.author == alice


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "Write something"),
        ("   \n\t ", "Write something"),
        ("x" * 501, "at most 500 characters"),
        ("nul\x00here", "control characters"),
        ("bell\x07", "control characters"),
        ("tab\there", "control characters"),
        (None, "text"),
        (["a list"], "text"),
    ],
)
def test_empty_too_long_or_control_characters_are_refused_and_nothing_is_kept(
    match, alice, text, words
):
    with pytest.raises(ApplicationError, match=words):
        say(match, alice, text)
    assert not ChatMessage.objects.exists()


def test_exactly_500_characters_is_allowed(match, alice):
    assert len(say(match, alice, "é" * 500).text) == 500


def test_only_the_two_players_talk(match, carol, moderator):
    for outsider in (carol, moderator):
        with pytest.raises(Forbidden):
            say(match, outsider, "hello")
    with pytest.raises(NotFound):
        services.chat_send(match_id=match.pk + 1000, author=carol, text="hello")
    assert not ChatMessage.objects.exists()


def test_a_finished_match_takes_messages_for_a_week(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob, length=1)
    match = act(match, alice, "resign", points=1)
    match = act(match, bob, "accept_resign")
    assert match.status == Match.Status.FINISHED
    assert say(match, bob, "Well played").seq == match.seq
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(days=8))
    with pytest.raises(Forbidden, match="too long ago"):
        say(match, alice, "Still there?")


def test_players_see_every_message_spectators_none(match, alice, bob, carol):
    say(match, alice, "one")
    say(match, bob, "two")
    for player in (alice, bob):
        seen = selectors.chat_for_player(match, player)
        assert [m.text for m in seen["messages"]] == ["one", "two"]
    for outsider in (carol, None):
        assert selectors.chat_for_player(match, outsider)["messages"] == []


def test_a_mute_hides_the_opponent_from_the_muter_only_and_can_be_undone(match, alice, bob):
    say(match, alice, "from alice")
    say(match, bob, "from bob")
    services.chat_mute(match_id=match.pk, player=alice)
    services.chat_mute(match_id=match.pk, player=alice)
    assert ChatMute.objects.count() == 1
    alices = selectors.chat_for_player(match, alice)
    assert alices["muted"] and [m.text for m in alices["messages"]] == ["from alice"]
    bobs = selectors.chat_for_player(match, bob)
    assert not bobs["muted"] and len(bobs["messages"]) == 2
    say(match, bob, "while muted")
    services.chat_unmute(match_id=match.pk, player=alice)
    assert len(selectors.chat_for_player(match, alice)["messages"]) == 3


def test_only_players_mute(match, carol):
    with pytest.raises(Forbidden):
        services.chat_mute(match_id=match.pk, player=carol)
    assert not ChatMute.objects.exists()


def test_a_player_reports_their_opponents_message_once(match, alice, bob, carol):
    message = say(match, bob, "rude words")
    first = services.chat_report(message_id=message.pk, reporter=alice, reason=" rude ")
    again = services.chat_report(message_id=message.pk, reporter=alice, reason="again")
    assert first.pk == again.pk and first.reason == "rude"
    with pytest.raises(ApplicationError, match="your own"):
        services.chat_report(message_id=message.pk, reporter=bob)
    with pytest.raises(NotFound):
        services.chat_report(message_id=message.pk, reporter=carol)
    with pytest.raises(ApplicationError, match="at most 200"):
        services.chat_report(message_id=message.pk, reporter=alice, reason="x" * 201)
    assert ChatReport.objects.count() == 1


def test_a_moderator_hides_a_message_which_stays_recorded(match, alice, bob, moderator):
    message = say(match, bob, "rude words")
    services.chat_report(message_id=message.pk, reporter=alice)
    with pytest.raises(Forbidden):
        services.chat_hide(message_id=message.pk, moderator=alice)
    services.chat_hide(message_id=message.pk, moderator=moderator)
    message.refresh_from_db()
    assert message.hidden_by == moderator and message.hidden_at is not None
    assert message.text == "rude words"
    report = ChatReport.objects.get()
    assert report.handled_by == moderator and report.handled_at is not None
    for player in (alice, bob):
        assert selectors.chat_for_player(match, player)["messages"] == []
    assert [m.pk for m in selectors.chat_conversation(match.pk)] == [message.pk]


def test_a_message_sent_with_a_move_is_kept_with_it(match, alice):
    moved = act(match, alice, "move", play="8/5 6/5", message="Your roll")

    message = ChatMessage.objects.get()
    assert (message.text, message.author, message.seq) == ("Your roll", alice, moved.seq)


@pytest.mark.parametrize("text", ["", "x" * 501, "bell\x07"])
def test_a_refused_message_refuses_its_move(match, alice, text):
    with pytest.raises(ApplicationError):
        act(match, alice, "move", play="8/5 6/5", message=text)

    assert Match.objects.get(pk=match.pk).seq == match.seq
    assert not ChatMessage.objects.exists()


def test_a_move_and_its_message_are_kept_both_or_neither(match, alice, monkeypatch):
    def fail(*args, **kwargs):
        raise IntegrityError("the message could not be kept")

    monkeypatch.setattr("games.services.matches.chat_message_add", fail)

    with pytest.raises(IntegrityError):
        act(match, alice, "move", play="8/5 6/5", message="Your roll")

    assert Match.objects.get(pk=match.pk).seq == match.seq
    assert match.events.count() == match.seq


def test_a_refused_move_keeps_no_message(match, alice):
    with pytest.raises(ApplicationError):
        act(match, alice, "move", play="24/1", message="Your roll")

    assert not ChatMessage.objects.exists()
