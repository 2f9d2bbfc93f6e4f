"""Variants over the API: a challenge names them, the match state says them and draws the board
as text, and an action the variant's rules refuse is a 400 with the engine's reason."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games.models import Challenge
from tests.games.api.conftest import assert_error, footprint

pytestmark = pytest.mark.django_db


def challenged(client, **rules):
    response = client.post(
        "/api/challenges/", {"opponent": "bob", "match_length": 3, **rules}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def accepted(clients, alice, bob, **rules):
    challenge = challenged(clients(alice), **rules)
    response = clients(bob).post(f"/api/challenges/{challenge['id']}/accept/", format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_challenge_says_its_rules_with_the_variants_defaults(clients, alice, bob):
    assert {
        key: challenged(clients(alice))[key] for key in ("variant", "match_format", "cube")
    } == {"variant": "backgammon", "match_format": "points", "cube": True}
    plakoto = challenged(clients(alice), variant="plakoto")
    assert (plakoto["variant"], plakoto["match_format"], plakoto["cube"]) == (
        "plakoto",
        "points",
        False,
    )
    tavli = challenged(clients(alice), variant="tavli", match_format="best_of_three")
    assert (tavli["match_length"], tavli["cube"]) == (3, False)
    listed = clients(bob).get("/api/challenges/?direction=incoming").json()["results"]
    assert {row["variant"] for row in listed} == {"backgammon", "plakoto", "tavli"}


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"variant": None}, "variant"),
        ({"variant": "portes", "match_format": "best_of_three"}, "match_format"),
        ({"variant": "tavli", "match_format": "best_of_five"}, "match_format"),
        ({"variant": "tavli", "match_format": "best_of_three", "cube": True}, "cube"),
    ],
)
def test_a_challenge_to_rules_that_are_not_is_refused_naming_the_field(
    clients, alice, bob, rules, field
):
    before = footprint()

    response = clients(alice).post(
        "/api/challenges/", {"opponent": "bob", "match_length": 3, **rules}, format="json"
    )

    body = assert_error(response, 400, "invalid")
    assert list(body["fields"]) == [field]
    assert body["message"].startswith(f"{field}: ")
    assert footprint() == before
    assert not Challenge.objects.exists()


def test_the_state_of_a_plakoto_match(dice, clients, alice, bob):
    dice.add(5, 3, 6, 5)
    state = accepted(clients, alice, bob, variant="plakoto")

    assert (state["variant"], state["game_variant"], state["match_format"]) == (
        "plakoto",
        "plakoto",
        "points",
    )
    assert state["cube_in_use"] is False
    assert (state["phase"], state["turn"], state["dice"]) == ("moving", "alice", [6, 5])
    assert state["board_seen_by"] == "bob"
    start = "-15 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0"
    assert state["board_text"] == start
    assert state["board"]["points"][0] == -15 and state["board"]["points"][23] == 15
    assert state["board"]["pinned"] == [0] * 24
    assert state["board"]["off"] == [0, 0]
    assert state["pip_counts"] == [360, 360]
    assert (state["position_id"], state["match_id"], state["xgid"]) == (None, None, None)

    mover = clients(alice).get(f"/api/matches/{state['id']}/").json()
    assert mover["board_seen_by"] == "alice"
    assert "24/19 24/18" in mover["legal_plays"]
    dice.add(2, 1)

    response = clients(alice).post(
        f"/api/matches/{state['id']}/actions/",
        {"seq": mover["seq"], "action": "move", "play": "24/19 24/18"},
        format="json",
    )
    assert response.status_code == 200, response.content
    after = clients(bob).get(f"/api/matches/{state['id']}/").json()
    assert after["board_text"] == ("-13 0 0 0 0 -1 -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 15 | 0 0 0 0")
    assert after["pip_counts"] == [360 - 11, 360]


def test_a_tavli_match_states_its_rotation_and_a_portes_position_id(dice, clients, alice, bob):
    dice.add(5, 3, 6, 5)
    state = accepted(clients, alice, bob, variant="tavli", match_format="best_of_three")

    assert (state["variant"], state["game_variant"]) == ("tavli", "portes")
    assert (state["match_format"], state["match_length"]) == ("best_of_three", 3)
    assert state["position_id"] is not None
    assert (state["match_id"], state["xgid"]) == (None, None)
    assert state["games_won"] == [0, 0]


def test_a_nackgammon_match_has_gnubg_ids(dice, clients, alice, bob):
    dice.add(3, 1)
    state = accepted(clients, alice, bob, variant="nackgammon")

    assert state["variant"] == "nackgammon" and state["cube_in_use"] is True
    assert state["position_id"] and state["match_id"] and state["xgid"]


def test_an_action_the_variant_refuses_is_a_400_with_the_engines_reason(dice, clients, alice, bob):
    Profile.objects.create(user=alice, auto_roll=False)
    dice.add(5, 3)
    state = accepted(clients, alice, bob, variant="plakoto")
    assert (state["phase"], state["turn"]) == ("rolling", "alice")
    before = footprint()

    response = clients(alice).post(
        f"/api/matches/{state['id']}/actions/",
        {"seq": state["seq"], "action": "double"},
        format="json",
    )

    body = assert_error(response, 400, "illegal")
    assert "there is no cube in plakoto" in body["message"]
    assert footprint() == before


def test_a_variant_match_has_no_mat_file_yet(dice, clients, alice, bob):
    dice.add(5, 3, 6, 5)
    state = accepted(clients, alice, bob, variant="plakoto")

    response = clients(alice).get(f"/api/matches/{state['id']}/export.mat")

    body = assert_error(response, 400, "mat_unavailable")
    assert "Plakoto" in body["message"]


@pytest.mark.parametrize(
    ("variant", "rolls", "play", "rule"),
    [
        ("fevga", (5, 3, 6, 5), "24/18 24/19", "must pass your opponent's start"),
        ("long-nardi", (6, 5), "24/18 24/19", "only one checker may leave the head"),
    ],
)
def test_a_play_the_variant_refuses_is_a_400_naming_the_rule(
    dice, clients, alice, bob, variant, rolls, play, rule
):
    Profile.objects.create(user=alice, auto_play_forced=False)  # the first play is forced
    dice.add(*rolls)
    state = accepted(clients, alice, bob, variant=variant)
    assert (state["phase"], state["turn"], state["dice"]) == ("moving", "alice", [6, 5])
    before = footprint()

    response = clients(alice).post(
        f"/api/matches/{state['id']}/actions/",
        {"seq": state["seq"], "action": "move", "play": play},
        format="json",
    )

    body = assert_error(response, 400, "illegal")
    assert rule in body["message"] and "Legal plays:" in body["message"]
    assert footprint() == before
