"""Program accounts: a player marks their own account as one a program plays for; it is shown
as a program beside its name and plays unrated matches only (docs/architecture.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Profile, is_program
from accounts.names import player_name
from backgammon_site.core.errors import ApplicationError
from games import services
from games.models import Challenge
from tests.games.factories import start_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def program(alice):
    Profile.objects.update_or_create(user=alice, defaults={"is_program": True})
    alice.refresh_from_db()
    return alice


def test_a_player_marks_their_account_as_a_program_in_the_play_settings(signed_in, alice):
    browser = signed_in(alice)
    page = browser.get(reverse("play-settings")).content.decode()
    assert 'data-preference="is_program"' in page
    browser.post(reverse("play-settings"), {"auto_roll": "on", "is_program": "on"})
    assert is_program(alice)
    assert player_name(alice) == "alice (program)"


def test_a_program_is_shown_as_one_beside_its_name_and_in_the_api(client, program, bob):
    assert player_name(program) == "alice (program)"
    assert player_name(bob) == "bob"
    assert client.get("/api/players/alice/").json()["program"] is True
    assert client.get("/api/players/bob/").json()["program"] is False


def test_a_rated_challenge_from_or_to_a_program_is_refused_and_nothing_is_written(program, bob):
    for challenger, opponent in ((program, bob), (bob, program)):
        with pytest.raises(ApplicationError) as refused:
            services.challenge_create(challenger=challenger, opponent=opponent, rated=True)
        assert refused.value.code == "program_unrated"
    assert not Challenge.objects.exists()
    made = services.challenge_create(challenger=program, opponent=bob, rated=False)
    assert not made.rated


def test_a_program_cannot_accept_a_rated_open_challenge(program, bob):
    open_challenge = services.challenge_create(challenger=bob, opponent=None, rated=True)
    with pytest.raises(ApplicationError) as refused:
        services.challenge_accept(challenge_id=open_challenge.pk, user=program)
    assert refused.value.code == "program_unrated"
    open_challenge.refresh_from_db()
    assert open_challenge.status == Challenge.Status.OPEN and open_challenge.match is None


def test_a_programs_match_is_unrated_however_it_starts(dice, program, bob, carol):
    dice.add(3, 1)
    assert not start_match(bob, program, rated=True).rated
    dice.add(3, 1)
    assert start_match(bob, carol, rated=True).rated
