"""Casual play is limited: visitors who have not signed in start so many matches an hour per
address, signed-in players so many each; over the limit a page says so (429) and nothing is
made, neither an account nor a match."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.models import Match
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

User = get_user_model()
#: The opening roll of each match (3-1: the first player starts), so the computer waits.
OPENING = (3, 1)


@pytest.fixture
def casual_limits(settings: Any) -> None:
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "guest_play": "3/h/ip",
        "casual_play": "2/h/user",
    }


def play_computer(client: Client, address: str = "10.0.0.1") -> Any:
    return client.post(
        reverse("play-computer"), {"match_length": 1, "level": "beginner"}, REMOTE_ADDR=address
    )


def pass_and_play(client: Client, address: str = "10.0.0.1") -> Any:
    return client.post(
        reverse("pass-and-play"),
        {"match_length": 1, "first_player": "Sam", "second_player": "Robin"},
        REMOTE_ADDR=address,
    )


def footprint() -> tuple[int, int]:
    return User.objects.count(), Match.objects.count()


def assert_refused_and_nothing_made(response: Any, before: tuple[int, int]) -> str:
    assert response.status_code == 429, response.status_code
    assert response["Retry-After"] == "3600"
    page = response.content.decode()
    assert "No new match for now" in page
    assert "Try again in 1 hour." in page
    assert "Nothing was started." in page
    assert footprint() == before
    return page


def test_a_visitor_over_the_address_limit_gets_a_page_saying_so_and_nothing_is_made(
    casual_limits, dice
):
    dice.add(*OPENING * 3)
    client = Client()
    for _ in range(3):
        assert play_computer(client).status_code == 302
    before = footprint()

    page = assert_refused_and_nothing_made(play_computer(client), before)
    assert "from your address by visitors who have not signed in" in page
    assert 'href="/accounts/signup/"' in page


def test_new_sessions_and_both_kinds_of_play_count_against_one_address(casual_limits, dice):
    dice.add(*OPENING * 3)
    assert play_computer(Client()).status_code == 302
    assert pass_and_play(Client()).status_code == 302
    assert play_computer(Client()).status_code == 302
    before = footprint()

    assert_refused_and_nothing_made(pass_and_play(Client()), before)
    assert_refused_and_nothing_made(play_computer(Client()), before)
    # Another address has its own count.
    dice.add(*OPENING)
    assert play_computer(Client(), address="10.0.0.2").status_code == 302


def test_a_form_that_does_not_validate_uses_none_of_the_limit(casual_limits, dice):
    client = Client()
    for _ in range(5):
        response = client.post(
            reverse("play-computer"),
            {"match_length": 2, "level": "beginner"},
            REMOTE_ADDR="10.0.0.1",
        )
        assert response.status_code == 400  # the home page again, saying what was wrong
    dice.add(*OPENING * 3)
    for _ in range(3):
        assert play_computer(client).status_code == 302
    assert Match.objects.count() == 3


def test_a_signed_in_player_has_a_limit_of_their_own(casual_limits, dice, alice, signed_in):
    dice.add(*OPENING * 2)
    browser = signed_in(alice)
    assert pass_and_play(browser).status_code == 302
    assert play_computer(browser).status_code == 302
    before = footprint()

    page = assert_refused_and_nothing_made(pass_and_play(browser), before)
    assert "You have started as many casual matches as one player may for now." in page
    assert 'href="/accounts/signup/"' not in page

    # Another player at the same address plays on, and so do guests there.
    dice.add(*OPENING * 2)
    assert play_computer(signed_in(make_user("bea"))).status_code == 302
    assert play_computer(Client()).status_code == 302


def test_a_signed_in_player_does_not_use_up_the_guests_of_their_address(
    casual_limits, dice, alice, bob, signed_in
):
    dice.add(*OPENING * 7)
    for player in (alice, bob):
        browser = signed_in(player)
        assert play_computer(browser).status_code == 302
        assert play_computer(browser).status_code == 302
    for _ in range(3):
        assert play_computer(Client()).status_code == 302
