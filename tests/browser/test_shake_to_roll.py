"""Rolling by hand on a phone: the Roll button, and a shake of the device that presses it."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from accounts.models import Profile
from games.models import MatchEvent
from tests.browser.test_play_in_browser import sign_up, swapped
from tests.games.factories import act, make_user, script_dice, start_match

pytestmark = pytest.mark.django_db(transaction=True)

SHAKE = """
window.dispatchEvent(new DeviceMotionEvent("devicemotion", {
  acceleration: {x: 18, y: 6, z: 2},
  accelerationIncludingGravity: {x: 18, y: 15.8, z: 2},
  interval: 16,
}));
"""


def test_a_shake_rolls_for_a_player_who_rolls_by_hand(live_server, new_context, monkeypatch):
    base = live_server.url
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    bob_page = sign_up(phone, base, "bob")
    bob = get_user_model().objects.get(username="bob")
    Profile.objects.update_or_create(user=bob, defaults={"auto_roll": False})
    alice = make_user("alice")
    script_dice(monkeypatch, 3, 1, 6, 5)
    match = start_match(alice, bob, length=1)
    match = act(match, alice, "move", play="8/5 6/5")

    bob_page.goto(f"{base}/matches/{match.pk}/")
    assert bob_page.locator('[data-action="roll"]').count() == 1
    bob_page.click("[data-shake-to-roll]")
    # Browsers that ask for permission (iOS Safari, recent Chromium) answer a promise first.
    expect(bob_page.locator("[data-shake]")).to_be_hidden()
    swapped(bob_page, lambda: bob_page.evaluate(SHAKE))

    assert bob_page.locator('[data-action="roll"]').count() == 0
    roll = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert (roll.kind, roll.actor_id, roll.payload["dice"]) == ("roll", bob.pk, [6, 5])
