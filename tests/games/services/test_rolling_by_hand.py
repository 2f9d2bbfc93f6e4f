"""Rolling by hand (issue 11, item 3): the preference "roll for me when I cannot double"."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games.log.integrity import log_problems
from tests.games.factories import act, kinds_of, reload, start_match, state_of


def one_point_match_to_bob(dice, alice, bob, *then: int):
    """A 1-point match (the cube is dead): alice opened 3-1 and played; bob is to roll, and
    the server's next dice are ``then``."""
    dice.add(3, 1, *then)
    match = start_match(alice, bob, length=1)
    return act(match, alice, "move", play="8/5 6/5")


@pytest.mark.parametrize("with_profile", [False, True])
def test_the_server_rolls_for_a_player_who_cannot_double_by_default(dice, alice, bob, with_profile):
    if with_profile:
        Profile.objects.create(user=bob, auto_roll=True)
    match = one_point_match_to_bob(dice, alice, bob, 6, 5)
    state = state_of(reload(match))
    assert state.phase == "moving" and state.turn == 1
    assert kinds_of(match)[-2:] == ["move", "roll"]


def test_the_server_waits_for_a_player_who_rolls_by_hand(dice, alice, bob, signed_in):
    Profile.objects.create(user=bob, auto_roll=False)
    match = reload(one_point_match_to_bob(dice, alice, bob))
    state = state_of(match)
    assert (state.phase, state.turn, match.to_act) == ("rolling", 1, bob)
    assert state.legal_actions(1) == ("roll", "resign")
    page = signed_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-action="roll"' in page and 'data-action="double"' not in page
    assert "data-shake-to-roll" in page and "games/shake.js" in page

    dice.add(6, 5)
    match = act(match, bob, "roll")
    events = list(match.events.order_by("-seq")[:1])
    assert (events[0].kind, events[0].actor_id) == ("roll", bob.pk)
    assert state_of(reload(match)).phase == "moving"
    assert log_problems(reload(match)) == []


def test_rolling_by_hand_is_each_players_own_choice(dice, alice, bob):
    Profile.objects.create(user=alice, auto_roll=False)
    match = one_point_match_to_bob(dice, alice, bob, 6, 5)
    assert state_of(reload(match)).phase == "moving"  # bob's roll was made for him


def test_the_play_settings_page_saves_the_preference(alice, signed_in):
    browser = signed_in(alice)
    page = browser.get("/settings/").content.decode()
    assert "/settings/play/" in page and "Roll for me when I cannot double: on" in page
    page = browser.get("/settings/play/").content.decode()
    assert "Roll for me when I cannot double" in page

    response = browser.post("/settings/play/", {"auto_play_forced": "on"})

    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.auto_roll, profile.auto_play_forced) == (False, True)
