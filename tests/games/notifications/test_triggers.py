"""Which news is recorded and emailed: each kind once, one email per turn, the players'
preferences, and nobody without an address."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.test import override_settings

from accounts.models import Profile
from games import services
from games.clocks import sweep
from games.models import Notification
from games.notifications.news import deadline_approaching
from games.signals import challenge_created, match_changed
from games.tasks import send_notification
from tests.games.factories import act, make_moderator, make_user, reload, start_match

pytestmark = pytest.mark.django_db


def emails_to(user):
    return [email for email in mail.outbox if email.to == [user.email]]


def subjects_to(user):
    return [email.subject for email in emails_to(user)]


def choose(user, **choices):
    Profile.objects.update_or_create(user=user, defaults=choices)


@pytest.fixture
def alice_to_play(dice, alice, bob, committed):
    """A match alice starts with an opening 3-1 (alice has been told it is her turn)."""
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)
    return match


# --- Your turn ---


def test_a_player_is_told_once_when_the_match_comes_to_wait_for_them(
    dice, alice, bob, alice_to_play, committed
):
    assert subjects_to(alice) == [f"Your turn against bob (match {alice_to_play.pk})"]
    assert emails_to(bob) == []

    with committed():
        match = act(alice_to_play, alice, "move", play="8/5 6/5")
    assert subjects_to(bob) == [f"Your turn against alice (match {match.pk})"]
    assert len(emails_to(alice)) == 1  # nothing about her own play


def test_a_roll_and_the_play_after_it_are_one_turn(dice, alice, bob, alice_to_play, committed):
    with committed():
        match = act(alice_to_play, alice, "move", play="8/5 6/5")
    assert reload(match).to_act == bob  # bob may double, so he rolls himself
    dice.add(6, 5)
    with committed():
        match = act(match, bob, "roll")
    with committed():
        match = act(reload(match), bob, "move", play="24/13")
    assert len(emails_to(bob)) == 1
    assert Notification.objects.filter(user=bob, kind="your_turn").count() == 1


def test_a_double_taken_hands_the_doubler_a_new_turn(dice, alice, bob, alice_to_play, committed):
    dice.add(4, 2)
    with committed():
        match = act(alice_to_play, alice, "move", play="8/5 6/5")
    with committed():
        match = act(match, bob, "double")
    assert len(emails_to(alice)) == 2  # the opening turn, then the double to answer
    with committed():
        match = act(match, alice, "take")  # bob cannot double again: the server rolls for him
    assert len(emails_to(bob)) == 2  # his first turn, and the turn after the take
    assert reload(match).to_act == bob
    keys = list(Notification.objects.filter(user=bob).order_by("seq").values_list("key", flat=True))
    assert keys == [f"your_turn:match:{match.pk}:turn:3", f"your_turn:match:{match.pk}:turn:5"]


def test_the_same_turn_is_never_emailed_twice(alice, bob, alice_to_play, committed):
    match = reload(alice_to_play)
    with committed():
        for _ in range(2):
            match_changed.send(
                type(match),
                match_id=match.pk,
                seq=match.seq,
                to_act_id=alice.pk,
                deadline=match.deadline,
            )
    notification = Notification.objects.get(user=alice)
    assert send_notification(notification.pk) == "done already"
    assert send_notification.delay(notification.pk).get() == "done already"
    assert len(emails_to(alice)) == 1
    notification.refresh_from_db()
    assert notification.status == "sent" and notification.sent_at is not None


def test_a_turn_already_played_is_not_emailed(dice, alice, bob, committed):
    dice.add(3, 1)
    match = start_match(alice, bob)  # not committed: the signal has not run yet
    act(match, alice, "move", play="8/5 6/5")
    with committed():
        match_changed.send(type(match), match_id=match.pk, seq=2, to_act_id=alice.pk, deadline=None)
    assert emails_to(alice) == []
    assert Notification.objects.get(user=alice).status == "skipped"


# --- Challenges ---


def test_a_challenged_player_is_told_and_the_challenger_is_not(alice, bob, committed):
    with committed():
        challenge = services.challenge_create(challenger=alice, opponent=bob, match_length=3)
    assert subjects_to(bob) == ["alice challenges you to a 3-point match"]
    assert emails_to(alice) == []
    with committed():
        challenge_created.send(type(challenge), challenge_id=challenge.pk)
    assert len(mail.outbox) == 1


def test_an_open_challenge_tells_nobody(alice, bob, carol, committed):
    with committed():
        services.challenge_create(challenger=alice, opponent=None)
    assert mail.outbox == []
    assert not Notification.objects.exists()


# --- Finished matches ---


def test_a_finished_match_is_told_to_the_player_who_did_not_end_it(dice, alice, bob, committed):
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob, length=1)
        match = act(match, alice, "resign", points=1)
    with committed():
        match = act(match, bob, "accept_resign")
    assert reload(match).status == "finished"
    assert subjects_to(alice)[-1] == f"Match {match.pk} finished: alice v bob"
    for body in (emails_to(alice)[-1].body, emails_to(alice)[-1].alternatives[0][0]):
        assert "bob won the match, 0-1." in body
        assert "Last game: bob won game 1 by resignation (1 point)." in body
        assert f"https://backgammon.example/matches/{match.pk}/" in body
    finished = Notification.objects.filter(kind="match_finished")
    assert [notice.user for notice in finished] == [alice]


def test_a_match_a_moderator_ends_is_told_to_both_players(dice, alice, bob, committed):
    dice.add(3, 1)
    moderator = make_moderator("mod")
    with committed():
        match = start_match(alice, bob)
        services.match_abort(match_id=match.pk, moderator=moderator, reason="a test")
    assert Notification.objects.filter(kind="match_finished").count() == 2
    assert "ended without a winner" in emails_to(bob)[-1].body


# --- Deadlines ---


def test_a_deadline_approaching_is_sent_once_after_the_sweep_commits(
    alice, bob, committed, clock, dice
):
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)  # 1 day a move + 8 days reserve
    clock.now = match.warn_at
    with committed():
        sweep.sweep()
    with committed():
        sweep.sweep()
        deadline_approaching(reload(match))

    assert Notification.objects.filter(kind="deadline").count() == 1
    email = mail.outbox[-1]
    assert email.subject == f"12 hours left for your decision against bob (match {match.pk})"
    assert "Decide by Thu 10 Dec 2026, 09:30 UTC or lose on time" in email.body


def test_a_deadline_rolled_back_with_the_sweep_is_not_sent(alice, bob, alice_to_play, committed):
    with committed(), pytest.raises(RuntimeError), transaction.atomic():
        deadline_approaching(reload(alice_to_play))
        raise RuntimeError("the sweep failed")
    assert len(mail.outbox) == 1
    assert not Notification.objects.filter(kind="deadline").exists()


# --- Preferences and addresses ---


def test_off_records_nothing(dice, alice, bob, committed):
    choose(alice, notify_your_turn="off")
    dice.add(3, 1)
    with committed():
        start_match(alice, bob)
    assert mail.outbox == []
    assert not Notification.objects.exists()


def test_digest_waits_for_the_digest(dice, alice, bob, committed):
    choose(bob, notify_challenge="digest")
    with committed():
        services.challenge_create(challenger=alice, opponent=bob)
    assert mail.outbox == []
    assert Notification.objects.get().status == "pending"


def test_each_kind_follows_its_own_choice(dice, alice, bob, committed):
    choose(alice, notify_your_turn="off", notify_deadline="immediately")
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)
        deadline_approaching(reload(match))
    assert [n.kind for n in Notification.objects.all()] == ["deadline"]
    assert len(emails_to(alice)) == 1


@pytest.mark.parametrize(
    "who", [{"email": ""}, {"email": "dan@example.com", "is_active": False}], ids=str
)
def test_no_email_to_a_player_without_an_address_or_no_longer_active(dice, alice, who, committed):
    dan = make_user("dan", email="dan@example.com")
    dice.add(1, 3)  # dan starts
    with committed():
        start_match(alice, dan)
        services.challenge_create(challenger=alice, opponent=dan)
        get_user_model().objects.filter(pk=dan.pk).update(**who)  # before the news is recorded
    assert mail.outbox == []
    assert not Notification.objects.exists()


# --- What the signal says ---


@pytest.fixture
def changes():
    """The details of every match_changed sent while the test runs."""
    sent: list[dict] = []

    def keep(sender, **details):
        sent.append({k: v for k, v in details.items() if k != "signal"})

    match_changed.connect(keep, dispatch_uid="test.keep")
    yield sent
    match_changed.disconnect(dispatch_uid="test.keep")


def test_the_signal_says_who_acted_and_whether_the_match_is_over(
    dice, alice, bob, alice_to_play, changes, committed, django_assert_max_num_queries
):
    match = reload(alice_to_play)
    with committed():
        match = act(match, alice, "move", play="8/5 6/5")
    dice.add(4, 2)
    with committed():
        match = act(match, bob, "roll")

    passed_on, rolled = changes
    assert passed_on["acted_by"] == alice.pk and passed_on["to_act_id"] == bob.pk
    assert rolled["acted_by"] == bob.pk and rolled["to_act_id"] == bob.pk
    assert not passed_on["finished"] and not rolled["finished"]
    assert passed_on["bot_to_act"] is False and rolled["bot_to_act"] is False
    # Bob's own roll is no news, and no bot is to act: the receivers answer without a query
    # (but for the push to the match's open pages, a query where the channel layer is the
    # database, the embedded default's: left out here).
    in_memory = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    with override_settings(CHANNEL_LAYERS=in_memory), django_assert_max_num_queries(0):
        match_changed.send(type(match), **rolled)
    moderator = make_moderator("mod")
    with committed():
        services.match_abort(match_id=match.pk, moderator=moderator, reason="test")
    assert changes[-1]["finished"] and changes[-1]["acted_by"] == moderator.pk
