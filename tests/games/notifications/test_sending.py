"""How notifications are emailed: the bodies, retries when the mail server fails, and the
daily digest (with a frozen clock)."""

from __future__ import annotations

import datetime as dt
from smtplib import SMTPException, SMTPServerDisconnected

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from accounts.models import Profile
from games import services
from games.models import Notification
from games.notifications.mail import a_match_of
from games.tasks import send_daily_digests, send_digest, send_notification
from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db


def choose(user, **choices):
    Profile.objects.update_or_create(user=user, defaults=choices)


def html_of(email):
    ((body, mimetype),) = email.alternatives
    assert mimetype == "text/html"
    return body


# --- Bodies ---


def test_both_bodies_give_the_position_in_words_and_the_link(dice, alice, bob, committed):
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)
    with committed():
        match = act(match, alice, "move", play="8/5 6/5")
    email = mail.outbox[-1]
    assert email.to == ["bob@example.com"]
    assert email.from_email == settings.DEFAULT_FROM_EMAIL
    link = f"https://backgammon.example/matches/{match.pk}/"
    words = [
        "It is your turn in your match against alice.",
        "alice v bob, a 5-point match, game 1.",
        "Score: alice 0, bob 0.",
        "bob is to roll or double.",
        "The cube is at 1 in the middle.",
        "Pip counts: alice 163, bob 167.",
        "Last play: alice played 3-1: 8/5 6/5.",
    ]
    for body in (email.body, html_of(email)):
        for line in words:
            assert line in body
        assert link in body
        assert "https://backgammon.example/settings/notifications/" in body
    assert f'href="{link}"' in html_of(email)


def test_the_dice_of_a_roll_are_in_words(dice, alice, bob, committed):
    dice.add(3, 1)
    match = start_match(alice, bob)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "double")
    dice.add(6, 5)
    with committed():
        match = act(match, alice, "take")  # bob cannot redouble: the server rolls for him
    body = mail.outbox[-1].body
    assert mail.outbox[-1].to == ["bob@example.com"]
    assert "bob rolled 6-5 and is to play it." in body
    assert "The cube is at 2, owned by alice." in body


def test_a_challenge_email_names_the_terms_and_links_to_the_lobby(alice, bob, committed):
    with committed():
        services.challenge_create(
            challenger=alice,
            opponent=bob,
            match_length=7,
            rated=False,
            time_control={"kind": "correspondence", "days_per_move": 3, "reserve_days": 10},
        )
    email = mail.outbox[-1]
    for body in (email.body, html_of(email)):
        assert "alice challenges you to a 7-point match, unrated, 3 days a move + 10 days" in body
        assert "https://backgammon.example/#challenges-to-you" in body


# --- Retries ---


class FlakyBackend(EmailBackend):
    """The locmem backend behind a mail server that drops the first ``failures`` connections."""

    failures = 0
    attempts = 0

    def send_messages(self, messages):
        type(self).attempts += 1
        if type(self).attempts <= type(self).failures:
            raise SMTPServerDisconnected("the mail server went away")
        return super().send_messages(messages)


@pytest.fixture
def flaky_mail(settings):
    settings.EMAIL_BACKEND = f"{__name__}.FlakyBackend"
    FlakyBackend.attempts = 0
    FlakyBackend.failures = 2
    return FlakyBackend


def test_a_failing_mail_server_is_retried_and_the_email_sent_once(
    dice, alice, bob, committed, flaky_mail
):
    dice.add(3, 1)
    with committed():
        start_match(alice, bob)
    assert flaky_mail.attempts == 3
    assert len(mail.outbox) == 1
    notification = Notification.objects.get()
    assert notification.status == "sent"
    assert send_notification(notification.pk) == "done already"
    assert len(mail.outbox) == 1


def test_the_digest_is_retried_too(alice, bob, committed, flaky_mail, clock):
    choose(bob, notify_challenge="digest")
    with committed():
        services.challenge_create(challenger=alice, opponent=bob)
    with committed():
        send_daily_digests.delay()
    assert flaky_mail.attempts == 3
    assert len(mail.outbox) == 1
    assert Notification.objects.get().status == "sent"


def test_a_mail_server_down_for_good_leaves_the_news_pending(dice, alice, bob, flaky_mail):
    flaky_mail.failures = 100
    dice.add(3, 1)
    match = start_match(alice, bob)  # not committed: no task has run
    notification = Notification.objects.create(
        user=alice, kind="your_turn", key="k", delivery="immediately", match=match, seq=0
    )
    result = send_notification.apply(args=[notification.pk])
    assert result.failed()
    assert isinstance(result.result, SMTPServerDisconnected)
    assert flaky_mail.attempts == 1 + send_notification.max_retries
    notification.refresh_from_db()
    assert notification.status == "pending" and notification.sent_at is None
    assert mail.outbox == []


def test_retries_back_off_and_survive_a_lost_worker():
    for task in (send_notification, send_digest):
        assert task.autoretry_for == (SMTPException, OSError)
        assert task.retry_backoff and task.max_retries
        assert task.acks_late and task.reject_on_worker_lost


# --- The daily digest ---


def test_the_digest_runs_every_day_from_celery_beat():
    entry = settings.CELERY_BEAT_SCHEDULE["notification-daily-digest"]
    assert entry["task"] == "games.tasks.send_daily_digests"
    assert entry["schedule"] == crontab(hour=7, minute=0)


def test_the_digest_gathers_the_news_into_one_email_and_never_resends_it(
    dice, alice, bob, carol, committed, clock
):
    for player in (alice, bob):
        choose(player, notify_your_turn="digest", notify_challenge="digest")
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)  # 09:30: alice's turn
    clock.advance(hours=2)
    with committed():
        services.challenge_create(challenger=carol, opponent=alice, match_length=3)  # 11:30
    clock.advance(hours=1)
    with committed():
        match = act(match, alice, "move", play="8/5 6/5")  # 12:30: bob's turn
    assert mail.outbox == []
    assert Notification.objects.filter(status="pending").count() == 3

    clock.set(dt.datetime(2026, 12, 2, 7, 0, tzinfo=dt.UTC))
    with committed():
        assert send_daily_digests() == 2
    assert sorted(email.to[0] for email in mail.outbox) == ["alice@example.com", "bob@example.com"]
    to_alice = next(email for email in mail.outbox if email.to == ["alice@example.com"])
    # Alice's turn was played before the digest: only the challenge is still news for her.
    assert to_alice.subject == "Backgammon: your daily digest (1 item)"
    assert "carol challenges you to a 3-point match" in to_alice.body
    assert "Your turn" not in to_alice.body and "your turn" not in to_alice.body
    to_bob = next(email for email in mail.outbox if email.to == ["bob@example.com"])
    assert "It is your turn in your match against alice." in to_bob.body
    assert f"https://backgammon.example/matches/{match.pk}/" in html_of(to_bob)
    statuses = dict(Notification.objects.values_list("key", "status"))
    assert statuses == {
        f"your_turn:match:{match.pk}:turn:0": "skipped",
        f"your_turn:match:{match.pk}:turn:3": "sent",
        f"challenge:{Notification.objects.get(kind='challenge').challenge_id}": "sent",
    }
    assert set(Notification.objects.filter(status="sent").values_list("sent_at", flat=True)) == {
        clock.now
    }

    # Run again (twice delivered, or the next day with nothing new): nothing more is sent.
    with committed():
        send_daily_digests()
        send_digest(alice.pk)
    clock.advance(days=1)
    with committed():
        assert send_daily_digests() == 0
    assert len(mail.outbox) == 2


def test_news_after_a_digest_goes_in_the_next_one(alice, bob, carol, committed, clock):
    choose(bob, notify_challenge="digest")
    with committed():
        services.challenge_create(challenger=alice, opponent=bob)
    clock.set(dt.datetime(2026, 12, 2, 7, 0, tzinfo=dt.UTC))
    with committed():
        send_daily_digests()
    clock.advance(hours=3)
    with committed():
        services.challenge_create(challenger=carol, opponent=bob)
    clock.set(dt.datetime(2026, 12, 3, 7, 0, tzinfo=dt.UTC))
    with committed():
        send_daily_digests()
    first, second = mail.outbox
    assert "alice challenges you" in first.body and "carol" not in first.body
    assert "carol challenges you" in second.body and "alice" not in second.body.split("--")[0]
    created = list(Notification.objects.order_by("pk").values_list("created_at", "sent_at"))
    assert created == [
        (
            dt.datetime(2026, 12, 1, 9, 30, tzinfo=dt.UTC),
            dt.datetime(2026, 12, 2, 7, 0, tzinfo=dt.UTC),
        ),
        (
            dt.datetime(2026, 12, 2, 10, 0, tzinfo=dt.UTC),
            dt.datetime(2026, 12, 3, 7, 0, tzinfo=dt.UTC),
        ),
    ]


def test_immediate_news_is_not_held_for_the_digest(dice, alice, bob, committed):
    choose(alice, notify_challenge="digest")
    dice.add(3, 1)
    with committed():
        start_match(alice, bob)
        send_daily_digests()
    assert len(mail.outbox) == 1
    assert "Your turn" in mail.outbox[0].subject


@pytest.mark.parametrize(
    ("length", "words"),
    [
        (1, "a 1-point match"),
        (8, "an 8-point match"),
        (11, "an 11-point match"),
        (25, "a 25-point match"),
    ],
)
def test_match_lengths_read_well(length, words):
    assert a_match_of(length) == words
