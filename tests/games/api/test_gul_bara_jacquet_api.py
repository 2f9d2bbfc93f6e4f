"""Gul Bara and Jacquet over the API: a match of each is played by its actions, Gul Bara's
climbing double shows as ``climbing`` with the next double as the dice, and Jacquet's
courier rule refuses a second checker off the talon with its reason."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games import services
from games.engine import MatchRules
from tests.games.api.conftest import assert_error

pytestmark = pytest.mark.django_db

TIME = {"kind": "correspondence", "days_per_move": 2}


def start(alice, bob, variant: str):
    for player in (alice, bob):
        Profile.objects.create(user=player, auto_roll=True, auto_play_forced=False)
    return services.match_start(
        first_player=alice,
        second_player=bob,
        match_length=3,
        rated=False,
        time_control=TIME,
        rules=MatchRules.of(variant),
    )


def act(client, match_id: int, seq: int, **body):
    response = client.post(f"/api/matches/{match_id}/actions/", {"seq": seq, **body}, format="json")
    return response


def test_gul_bara_climbs_from_the_fourth_turn_over_the_api(dice, clients, alice, bob):
    dice.add(5, 2, 6, 5, 6, 5, 2, 1, 2, 1, 4, 1, 4, 1, 5, 5, 2, 1)
    match = start(alice, bob, "gul-bara")
    plays = ["24/13", "24/13", "24/21", "24/21", "24/19", "24/19"]
    for turn, play in enumerate(plays):
        player = (alice, bob)[turn % 2]
        state = clients(player).get(f"/api/matches/{match.pk}/").json()
        assert (state["variant"], state["climbing"]) == ("gul-bara", False)
        response = act(clients(player), match.pk, state["seq"], action="move", play=play)
        assert response.status_code == 200, response.content
    state = response.json()
    assert (state["turn"], state["dice"], state["climbing"]) == ("alice", [5, 5], False)
    response = act(clients(alice), match.pk, state["seq"], action="move", play="24/19(4)")
    state = response.json()
    assert (state["phase"], state["turn"], state["dice"]) == ("moving", "alice", [6, 6])
    assert state["climbing"] is True and state["legal_actions"] == ["move", "resign"]
    assert state["last_play"]["play"] == "24/19(4)"
    response = act(clients(alice), match.pk, state["seq"], action="move", play="24/18(4)")
    state = response.json()
    assert (state["turn"], state["dice"], state["climbing"]) == ("bob", [2, 1], False)


def test_jacquets_courier_holds_the_talon_over_the_api(dice, clients, alice, bob):
    dice.add(6, 1, 5, 3)
    match = start(alice, bob, "jacquet")
    state = clients(alice).get(f"/api/matches/{match.pk}/").json()
    assert (state["variant"], state["turn"], state["dice"]) == ("jacquet", "alice", [5, 3])
    assert state["legal_plays"] == ["24/16"]
    response = act(clients(alice), match.pk, state["seq"], action="move", play="24/19 24/21")
    body = assert_error(response, 400)
    assert "courier" in body["message"].lower(), body
    assert clients(alice).get(f"/api/matches/{match.pk}/").json()["seq"] == state["seq"]
