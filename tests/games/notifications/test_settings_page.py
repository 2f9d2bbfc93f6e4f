"""The page where a player chooses how to hear of each kind of news."""

from __future__ import annotations

import pytest

from accounts.models import Profile

pytestmark = pytest.mark.django_db

URL = "/settings/notifications/"
ALL_AT_ONCE = {
    "notify_your_turn": "immediately",
    "notify_challenge": "immediately",
    "notify_deadline": "immediately",
    "notify_match_finished": "immediately",
}


def choices_of(user):
    profile = Profile.objects.filter(user=user).first() or Profile(user=user)
    return {field: getattr(profile, field) for field in ALL_AT_ONCE}


def test_the_page_needs_a_signed_in_player(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_page_shows_the_defaults_and_the_address(signed_in, alice):
    page = signed_in(alice).get(URL).content.decode()
    assert "alice@example.com" in page
    assert 'aria-current="page">Settings</a>' in page
    for field in ALL_AT_ONCE:
        assert f'name="{field}" value="immediately"' in page
    # Each kind at once by email, and pushed to the player's devices too (once enabled).
    assert page.count("checked") == 8
    for kind in ("your_turn", "challenge", "deadline", "match_finished"):
        assert f'name="push_{kind}" id="id_push_{kind}" checked' in page
    assert choices_of(alice) == ALL_AT_ONCE


def test_a_player_without_an_address_is_told_to_add_one(signed_in, db):
    from tests.games.factories import make_user

    page = signed_in(make_user("dan")).get(URL).content.decode()
    assert "Your account has no email address" in page


def test_choices_are_saved(signed_in, alice):
    browser = signed_in(alice)
    chosen = {**ALL_AT_ONCE, "notify_your_turn": "digest", "notify_deadline": "off"}
    response = browser.post(URL, chosen, follow=True)
    assert response.status_code == 200
    assert "Your notification settings are saved." in response.content.decode()
    assert choices_of(alice) == chosen


@pytest.mark.parametrize(
    "change",
    [
        {"notify_your_turn": "hourly"},
        {"notify_deadline": ""},
        {"notify_match_finished": None},
    ],
    ids=["unknown choice", "empty", "missing"],
)
def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing(signed_in, alice, change):
    browser = signed_in(alice)
    browser.post(URL, {**ALL_AT_ONCE, "notify_challenge": "digest"})
    before = choices_of(alice)
    sent = {**ALL_AT_ONCE, "notify_challenge": "off", **change}
    response = browser.post(URL, {key: value for key, value in sent.items() if value is not None})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Nothing was changed" in page
    if "notify_your_turn" in change:
        assert "Your turn: Choose one of the offered ways: hourly is not one of them." in page
    else:
        assert "Choose how to hear of this." in page
    assert choices_of(alice) == before
