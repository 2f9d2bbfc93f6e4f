"""Web push: news is pushed to each of the player's devices at the email's moment, under the
same attention rules, once; encrypted for the device and signed with the site's VAPID key.

The push service is a local HTTP server (push_service.py); the devices' keys are made by the
test, which decrypts each push as the browser would.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.core import mail
from django.utils import timezone

from accounts.models import NewsPush, Profile, PushSubscription
from backgammon_site.core.vapid import VapidKeys, key_pair_make
from games import tasks
from games.clocks import sweep
from games.models import Notification
from games.notifications.attention import record_match_open
from games.notifications.webpush import push_news
from tests.games.factories import act, make_user, start_match
from tests.games.notifications.push_service import (
    BrowserKeys,
    PushService,
    running_push_service,
    unbase64url,
)

pytestmark = pytest.mark.django_db

SUBJECT = "mailto:operator@backgammon.example"


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> VapidKeys:
    keys = key_pair_make()
    settings.VAPID_PUBLIC_KEY = keys.public_key
    settings.VAPID_PRIVATE_KEY = keys.private_key
    settings.VAPID_KEYS_FILE = ""
    settings.VAPID_SUBJECT = SUBJECT
    return keys


@pytest.fixture
def push_service() -> Any:
    yield from running_push_service()


def choose(user: Any, **choices: Any) -> None:
    Profile.objects.update_or_create(user=user, defaults=choices)


def alice_plays_to_bob(dice: Any, alice: Any, bob: Any, committed: Any) -> Any:
    """A match where alice has played her opening 3-1: bob's turn."""
    dice.add(3, 1)
    with committed():
        match = start_match(alice, bob)
    with committed():
        return act(match, alice, "move", play="8/5 6/5")


def turn_emails_to(user: Any) -> list[Any]:
    return [e for e in mail.outbox if e.to == [user.email] and e.subject.startswith("Your turn")]


def verified_claims(token: str, public_key: str) -> dict[str, Any]:
    """The claims of a VAPID JWT (ES256), after checking its signature with ``public_key``."""
    header, payload, signature = token.split(".")
    raw = unbase64url(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unbase64url(public_key))
    key.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{payload}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    assert json.loads(unbase64url(header))["alg"] == "ES256"
    return json.loads(unbase64url(payload))


# --- The acceptance test: delivered, signed, and decrypted ---


def test_a_turn_is_pushed_to_the_players_device_signed_and_encrypted_for_it(
    dice, alice, bob, committed, push_service: PushService, vapid: VapidKeys
):
    phone = push_service.subscribe(bob)

    match = alice_plays_to_bob(dice, alice, bob, committed)

    (push,) = push_service.pushes_to(phone)
    scheme, _, parameters = push.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    vapid_header = dict(part.strip().split("=", 1) for part in parameters.split(","))
    assert vapid_header["k"] == vapid.public_key
    claims = verified_claims(vapid_header["t"], vapid.public_key)
    assert claims["aud"] == push_service.origin
    assert claims["sub"] == SUBJECT
    assert push.headers["content-encoding"] == "aes128gcm"
    assert int(push.headers["ttl"]) > 0

    news = json.loads(push_service.browsers[phone.pk].decrypt(push.body))
    assert news == {
        "title": f"Your turn against alice (match {match.pk})",
        "body": "It is your turn in your match against alice.",
        "url": f"https://backgammon.example/matches/{match.pk}/",
    }
    assert NewsPush.objects.get(notification__user=bob).devices == 1
    phone.refresh_from_db()
    assert phone.last_success_at is not None
    assert len(turn_emails_to(bob)) == 1  # the email goes too


def test_each_device_of_the_player_gets_the_push_and_nobody_else(
    dice, alice, bob, carol, committed, push_service
):
    phone, laptop = push_service.subscribe(bob, "phone"), push_service.subscribe(bob, "laptop")
    elsewhere = push_service.subscribe(carol)
    alice_plays_to_bob(dice, alice, bob, committed)
    for device in (phone, laptop):
        (push,) = push_service.pushes_to(device)
        assert json.loads(push_service.browsers[device.pk].decrypt(push.body))["title"]
    assert push_service.pushes_to(elsewhere) == []


# --- The player's choices ---


def test_push_on_and_email_off_still_pushes(dice, alice, bob, committed, push_service):
    choose(bob, notify_your_turn="off")
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert len(push_service.pushes_to(phone)) == 1
    assert turn_emails_to(bob) == []
    assert Notification.objects.get(user=bob).status == Notification.Status.SKIPPED


def test_a_player_without_email_address_gets_the_push(dice, alice, bob, committed, push_service):
    bob.email = ""
    bob.save()
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert len(push_service.pushes_to(phone)) == 1


def test_push_off_for_the_kind_sends_the_email_only(dice, alice, bob, committed, push_service):
    choose(bob, push_your_turn=False)
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert push_service.pushes_to(phone) == []
    assert len(turn_emails_to(bob)) == 1
    assert not NewsPush.objects.exists()


def test_both_off_records_no_news(dice, alice, bob, committed, push_service):
    choose(bob, notify_your_turn="off", push_your_turn=False)
    push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert not Notification.objects.filter(user=bob).exists()
    assert push_service.pushes == []


def test_email_off_and_no_device_records_no_news(dice, alice, bob, committed):
    choose(bob, notify_your_turn="off")
    alice_plays_to_bob(dice, alice, bob, committed)
    assert not Notification.objects.filter(user=bob).exists()


def test_digest_email_and_push_push_at_once_and_leave_the_email_for_the_digest(
    dice, alice, bob, committed, push_service
):
    choose(bob, notify_your_turn="digest")
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert len(push_service.pushes_to(phone)) == 1
    assert turn_emails_to(bob) == []
    notification = Notification.objects.get(user=bob)
    assert notification.status == Notification.Status.PENDING
    assert notification.delivery == Notification.Delivery.DIGEST


def test_without_vapid_keys_web_push_is_off(dice, alice, bob, committed, push_service, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert push_service.pushes == []
    assert len(turn_emails_to(bob)) == 1


# --- Attention and idempotency ---


@pytest.fixture
def queued_pushes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The push tasks queued, left for the test to run."""
    queued: list[int] = []
    monkeypatch.setattr(
        tasks.push_notification, "apply_async", lambda args, **options: queued.append(args[0])
    )
    return queued


def test_no_push_for_a_turn_while_the_player_has_the_match_open(
    dice, alice, bob, committed, push_service, queued_pushes
):
    phone = push_service.subscribe(bob)
    match = alice_plays_to_bob(dice, alice, bob, committed)
    (notification_id,) = queued_pushes
    record_match_open(bob, match.pk)
    assert push_news(notification_id) == "skipped"
    assert push_service.pushes_to(phone) == []
    # Decided once: however the task comes again, the player who saw it is not pushed to.
    assert push_news(notification_id, now=timezone.now() + timedelta(hours=1)) == "done already"
    assert NewsPush.objects.get().outcome == NewsPush.Outcome.SKIPPED


def test_a_redelivered_task_pushes_nothing_twice(
    dice, alice, bob, committed, push_service, queued_pushes
):
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    (notification_id,) = queued_pushes
    assert tasks.push_notification(notification_id) == "pushed to 1 of 1"
    assert tasks.push_notification(notification_id) == "done already"
    assert len(push_service.pushes_to(phone)) == 1
    assert NewsPush.objects.count() == 1


def test_news_no_longer_true_is_not_pushed(
    dice, alice, bob, committed, push_service, queued_pushes
):
    phone = push_service.subscribe(bob)
    match = alice_plays_to_bob(dice, alice, bob, committed)
    (notification_id,) = queued_pushes
    dice.add(5, 2)
    with committed():
        match = act(match, bob, "roll")
        act(match, bob, "move", play="13/8 6/4")
    assert push_news(notification_id) == "skipped"
    assert push_service.pushes_to(phone) == []


def test_the_sweep_pushes_again_news_whose_push_task_was_lost(
    dice, alice, bob, committed, push_service, queued_pushes, monkeypatch
):
    choose(bob, notify_your_turn="digest")  # no email task: only the push was queued
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert len(queued_pushes) == 1  # ... and lost with the broker
    queued_pushes.clear()
    emails: list[int] = []
    monkeypatch.setattr(
        tasks.send_notification, "apply_async", lambda args, **options: emails.append(args[0])
    )
    notification = Notification.objects.get(user=bob)
    later = notification.created_at + sweep.news_patience() + timedelta(seconds=30)

    assert sweep.news_resent(later - timedelta(minutes=1), later) == 1
    assert sweep.news_resent(later, later + timedelta(minutes=1)) == 0  # once
    assert queued_pushes == [notification.pk]
    assert emails == []
    assert tasks.push_notification(notification.pk) == "pushed to 1 of 1"
    assert len(push_service.pushes_to(phone)) == 1


# --- Failures ---


@pytest.mark.parametrize("gone", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_forgotten(
    dice, alice, bob, committed, push_service, gone
):
    push_service.answer = gone
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    assert len(push_service.pushes_to(phone)) == 1
    assert not PushSubscription.objects.filter(pk=phone.pk).exists()
    assert len(turn_emails_to(bob)) == 1


def test_another_failure_is_recorded_on_the_device_and_the_email_still_goes(
    dice, alice, bob, committed, push_service, caplog
):
    push_service.answer = 500
    phone = push_service.subscribe(bob)
    alice_plays_to_bob(dice, alice, bob, committed)
    phone.refresh_from_db()
    assert phone.last_failure_at is not None
    assert "500" in phone.last_failure
    assert phone.last_success_at is None
    assert NewsPush.objects.get().devices == 0
    assert len(turn_emails_to(bob)) == 1
    assert "Push to subscription" in caplog.text


def test_an_unreachable_push_service_is_a_failure_like_any_other(dice, alice, bob, committed):
    closed = PushService()  # never started, and closed: nothing listens on its port
    endpoint = f"{closed.origin}/push/nowhere"
    closed.server.server_close()
    browser = BrowserKeys()
    phone = PushSubscription.objects.create(
        user=bob, endpoint=endpoint, p256dh=browser.p256dh, auth=browser.auth
    )
    alice_plays_to_bob(dice, alice, bob, committed)
    phone.refresh_from_db()
    assert "ConnectionError" in phone.last_failure
    assert len(turn_emails_to(bob)) == 1


def test_a_tournament_match_is_told_as_the_player_chose_for_challenges(
    alice, bob, carol, moderator, committed, push_service
):
    """Found merging tournaments with web push: the kind has no choice of its own."""
    from games import services

    dave = make_user("dave")
    choose(alice, notify_challenge="off", push_challenge=False)
    choose(bob, notify_challenge="off", push_challenge=True)
    alice_phone, bob_phone = push_service.subscribe(alice), push_service.subscribe(bob)
    tournament = services.tournament_create(
        creator=moderator,
        name="Four",
        size=4,
        start_mode="when_full",
        match_length=1,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 0},
    )
    for player in (alice, bob, carol, dave):
        with committed():
            services.tournament_sign_up(tournament_id=tournament.pk, player=player)

    def tournament_news(device: Any) -> list[dict[str, Any]]:
        told = [
            json.loads(push_service.browsers[device.pk].decrypt(push.body))
            for push in push_service.pushes_to(device)
        ]
        return [news for news in told if "in Four has started" in news["title"]]

    assert len(tournament_news(bob_phone)) == 1
    assert tournament_news(alice_phone) == []
    told_by_email = [e.subject for e in mail.outbox if e.to in ([alice.email], [bob.email])]
    assert not [subject for subject in told_by_email if "in Four has started" in subject]
