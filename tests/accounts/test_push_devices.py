"""A player's devices for web push: enabling and disabling them over the API (the settings
page's script does it with the session), the checks on what a browser sends, the settings
page's choices and button, the service worker, and the VAPID keys."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken

from accounts.models import Profile, PushSubscription
from backgammon_site.core.vapid import key_pair_make, site_vapid_keys
from tests.games.factories import make_user
from tests.games.notifications.push_service import BrowserKeys, base64url, unbase64url

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/api/push-subscriptions/"
REMOVE = "/api/push-subscriptions/remove/"
ENDPOINT = "https://fcm.googleapis.com/fcm/send/abc123"


@pytest.fixture(autouse=True)
def vapid(settings: Any) -> Any:
    keys = key_pair_make()
    settings.VAPID_PUBLIC_KEY = keys.public_key
    settings.VAPID_PRIVATE_KEY = keys.private_key
    settings.VAPID_KEYS_FILE = ""
    return keys


def subscription(endpoint: str = ENDPOINT, **keys: Any) -> dict[str, Any]:
    """What a browser's PushSubscription.toJSON() gives."""
    browser = BrowserKeys()
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": browser.p256dh, "auth": browser.auth, **keys},
    }


def post(client: Client, url: str, body: Any, **headers: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", **headers)


def session_with_csrf(user: Any) -> tuple[Client, str]:
    """A signed-in browser that checks CSRF as a real one does, and the token its page gives."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    page = client.get(reverse("notification-settings"))
    return client, page.context["csrf_token"]


# --- Enabling and disabling ---


def test_the_page_script_enables_a_device_with_the_session_and_its_csrf_token(alice):
    client, token = session_with_csrf(alice)
    answer = post(client, SUBSCRIBE, subscription(), HTTP_X_CSRFTOKEN=str(token))
    assert answer.status_code == 201, answer.content
    assert answer.json()["endpoint"] == ENDPOINT
    assert PushSubscription.objects.get().user == alice


def test_without_the_csrf_token_a_session_writes_nothing(alice):
    client, _ = session_with_csrf(alice)
    answer = post(client, SUBSCRIBE, subscription())
    assert answer.status_code == 403
    assert not PushSubscription.objects.exists()


def test_anonymous_visitors_have_no_devices(client):
    answer = post(client, SUBSCRIBE, subscription())
    assert answer.status_code == 401
    assert not PushSubscription.objects.exists()


def test_a_program_enables_one_with_its_token(alice):
    _, token = AuthToken.objects.create(alice)
    answer = post(Client(), SUBSCRIBE, subscription(), HTTP_AUTHORIZATION=f"Token {token}")
    assert answer.status_code == 201


def test_a_player_may_have_several_devices_and_enabling_one_again_renews_its_keys(alice, signed_in):
    client = signed_in(alice)
    assert post(client, SUBSCRIBE, subscription()).status_code == 201
    assert post(client, SUBSCRIBE, subscription(ENDPOINT + "-laptop")).status_code == 201
    renewed = subscription()
    assert post(client, SUBSCRIBE, renewed).status_code == 201
    assert PushSubscription.objects.filter(user=alice).count() == 2
    assert PushSubscription.objects.get(endpoint=ENDPOINT).p256dh == renewed["keys"]["p256dh"]


def test_a_browser_enabled_by_another_player_becomes_theirs(alice, bob, signed_in):
    post(signed_in(alice), SUBSCRIBE, subscription())
    post(signed_in(bob), SUBSCRIBE, subscription())
    assert PushSubscription.objects.get().user == bob


def test_one_device_too_many_is_refused(alice, signed_in, settings):
    settings.WEBPUSH_DEVICES_PER_PLAYER = 2
    client = signed_in(alice)
    for device in ("a", "b"):
        assert post(client, SUBSCRIBE, subscription(f"{ENDPOINT}{device}")).status_code == 201
    answer = post(client, SUBSCRIBE, subscription(f"{ENDPOINT}c"))
    assert answer.status_code == 400
    assert answer.json()["code"] == "too_many_devices"
    assert post(client, SUBSCRIBE, subscription(f"{ENDPOINT}a")).status_code == 201
    assert PushSubscription.objects.count() == 2


def test_disabling_forgets_the_device_and_only_the_players_own(alice, bob, signed_in):
    post(signed_in(alice), SUBSCRIBE, subscription())
    answer = post(signed_in(bob), REMOVE, {"endpoint": ENDPOINT})
    assert answer.status_code == 404
    assert PushSubscription.objects.exists()
    assert post(signed_in(alice), REMOVE, {"endpoint": ENDPOINT}).status_code == 204
    assert not PushSubscription.objects.exists()


def _compressed_point() -> str:
    """A browser's kind of key, but compressed: push encryption takes the uncompressed one."""
    key = ec.generate_private_key(ec.SECP256R1()).public_key()
    return base64url(key.public_bytes(Encoding.X962, PublicFormat.CompressedPoint))


NOT_ON_THE_CURVE = base64url(b"\x04" + b"\x01" * 64)


@pytest.mark.parametrize(
    "body, code",
    [
        ({}, "invalid"),
        ({"endpoint": ENDPOINT}, "invalid"),
        (subscription("http://fcm.googleapis.com/fcm/send/abc"), "invalid_endpoint"),
        (subscription("https://127.0.0.1/push"), "invalid_endpoint"),
        (subscription("https://[::1]/push"), "invalid_endpoint"),
        (subscription("https://localhost/push"), "invalid_endpoint"),
        (subscription("javascript:alert(1)"), "invalid_endpoint"),
        (subscription("not an address"), "invalid_endpoint"),
        (subscription(p256dh="short"), "invalid_key"),
        (subscription(p256dh=NOT_ON_THE_CURVE), "invalid_key"),
        (subscription(p256dh=_compressed_point()), "invalid_key"),
        (subscription(p256dh="!" * 87), "invalid_key"),
        (subscription(auth=base64url(b"x" * 15)), "invalid_key"),
        (subscription(auth="@@@@@@@@@@@@@@@@@@@@@@"), "invalid_key"),
        (subscription(auth=12345), "invalid"),
        ({"endpoint": ENDPOINT, "keys": "p256dh"}, "invalid"),
        ([1, 2], "invalid"),
    ],
)
def test_what_no_browser_sends_is_refused_with_a_reason_and_nothing_written(
    alice, signed_in, body, code
):
    answer = post(signed_in(alice), SUBSCRIBE, body)
    assert answer.status_code == 400, answer.content
    assert answer.json()["code"] == code
    assert answer.json()["message"]
    assert not PushSubscription.objects.exists()


def test_a_body_that_is_no_json_is_refused(alice, signed_in):
    answer = signed_in(alice).post(SUBSCRIBE, "{endpoint", content_type="application/json")
    assert answer.status_code == 400
    assert not PushSubscription.objects.exists()


# --- The settings page ---


def test_the_page_offers_the_push_choice_beside_each_email_choice_and_the_button(
    alice, signed_in, vapid
):
    page = signed_in(alice).get(reverse("notification-settings")).content.decode()
    for kind in ("your_turn", "challenge", "deadline", "match_finished"):
        assert f'name="push_{kind}"' in page
    assert "Enable notifications on this device" in page
    assert f'data-public-key="{vapid.public_key}"' in page
    assert "accounts/webpush.js" in page


def test_the_push_choices_are_saved_apart_from_the_email_choices(alice, signed_in):
    choices = {
        "notify_your_turn": "off",
        "notify_challenge": "immediately",
        "notify_deadline": "digest",
        "notify_match_finished": "immediately",
        "push_your_turn": "on",
        "push_deadline": "on",
    }
    answer = signed_in(alice).post(reverse("notification-settings"), choices)
    assert answer.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert profile.delivery_for("your_turn") == "off"
    assert profile.pushes("your_turn") and profile.pushes("deadline")
    assert not profile.pushes("challenge") and not profile.pushes("match_finished")


def test_without_keys_the_page_says_web_push_is_off(alice, signed_in, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = signed_in(alice).get(reverse("notification-settings")).content.decode()
    assert "data-webpush-off" in page
    assert "Enable notifications on this device" not in page
    assert "webpush.js" not in page


# --- The service worker ---


def test_the_service_worker_is_served_from_the_root_as_javascript_never_cached(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert answer["Cache-Control"] == "no-cache"
    body = answer.content.decode()
    assert "showNotification" in body
    assert "favicon" in body
    assert "notificationclick" in body


def test_the_policy_lets_the_pages_register_the_service_worker(client):
    policy = client.get("/sw.js")["Content-Security-Policy"]
    assert "worker-src 'self'" in policy


# --- VAPID keys ---


def test_vapid_keys_prints_a_key_pair_as_environment_lines(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    public = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), unbase64url(lines["VAPID_PUBLIC_KEY"])
    )
    private = ec.derive_private_key(
        int.from_bytes(unbase64url(lines["VAPID_PRIVATE_KEY"]), "big"), ec.SECP256R1()
    )
    assert private.public_key() == public


def test_on_the_embedded_default_the_keys_are_made_once_and_kept(settings, tmp_path):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_KEYS_FILE = str(tmp_path / "vapid-keys.json")
    first = site_vapid_keys()
    assert first is not None
    assert site_vapid_keys() == first
    assert (tmp_path / "vapid-keys.json").stat().st_mode & 0o777 == 0o600
    assert [path.name for path in tmp_path.iterdir()] == ["vapid-keys.json"]


def test_keys_from_the_environment_come_first(settings, tmp_path, vapid):
    settings.VAPID_KEYS_FILE = str(tmp_path / "vapid-keys.json")
    assert site_vapid_keys() == vapid
    assert not (tmp_path / "vapid-keys.json").exists()


# --- The admin ---


def test_the_admin_lists_the_devices_by_push_service_without_their_keys(alice, signed_in):
    device = PushSubscription.objects.create(
        user=alice, endpoint=ENDPOINT, p256dh=BrowserKeys().p256dh, auth="secret-auth"
    )
    admin = signed_in(make_user("root", is_staff=True, is_superuser=True))
    listing = admin.get("/admin/accounts/pushsubscription/").content.decode()
    assert "fcm.googleapis.com" in listing and "alice" in listing
    page = admin.get(f"/admin/accounts/pushsubscription/{device.pk}/change/").content.decode()
    assert "secret-auth" not in page and device.p256dh not in page
