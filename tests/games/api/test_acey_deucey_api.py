"""Acey-deucey over the API and on the match page: the checkers waiting to enter, the 1-2's
double named with the action ``name_double`` and its ``number``, refused with a reason when it
is not one."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from games import services
from games.engine import MatchRules
from tests.games.api.conftest import assert_error, footprint

pytestmark = pytest.mark.django_db

TIME = {"kind": "correspondence", "days_per_move": 2}


@pytest.fixture
def one_two(dice, alice, bob):
    """An acey-deucey match: alice won the opening roll and rolled 1-2."""
    Profile.objects.create(user=alice, auto_roll=True)
    dice.add(3, 1, 2, 1)
    return services.match_start(
        first_player=alice,
        second_player=bob,
        match_length=3,
        rated=False,
        time_control=TIME,
        rules=MatchRules.of("acey-deucey"),
    )


def act(client, match_id: int, seq: int, **body):
    return client.post(f"/api/matches/{match_id}/actions/", {"seq": seq, **body}, format="json")


def test_a_one_two_then_a_named_double_over_the_api(one_two, clients, alice, bob):
    state = clients(alice).get(f"/api/matches/{one_two.pk}/").json()
    assert (state["phase"], state["turn"], state["dice"]) == ("moving", "alice", [2, 1])
    assert state["board"]["waiting"] == [15, 15]
    assert state["board_text"].endswith("| 0 0 0 0 15 15")
    assert state["position_id"] is None and state["cube_in_use"] is False
    assert "in/24 in/23" in state["legal_plays"]

    response = act(clients(alice), one_two.pk, state["seq"], action="move", play="in/24 in/23")
    assert response.status_code == 200, response.content
    state = response.json()
    assert (state["phase"], state["turn"], state["dice"]) == ("naming", "alice", None)
    assert state["legal_actions"] == ["name_double", "resign"]
    assert state["board"]["waiting"] == [13, 15]

    response = act(clients(alice), one_two.pk, state["seq"], action="name_double", number=5)
    assert response.status_code == 200, response.content
    state = response.json()
    assert (state["phase"], state["turn"], state["dice"]) == ("moving", "alice", [5, 5])
    assert "in/20(4)" in state["legal_plays"]
    events = clients(bob).get(f"/api/matches/{one_two.pk}/events/").json()
    rows = events["results"] if isinstance(events, dict) else events
    assert {"kind": "name_double", "payload": {"player": 0, "number": 5}}.items() <= {
        "kind": rows[-1]["kind"],
        "payload": rows[-1]["payload"],
    }.items()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"action": "name_double", "number": 7}, "number"),
        ({"action": "name_double", "number": "4"}, "number"),
    ],
)
def test_a_double_named_by_no_number_is_refused_naming_the_field(
    one_two, clients, alice, body, field
):
    state = clients(alice).get(f"/api/matches/{one_two.pk}/").json()
    state = act(clients(alice), one_two.pk, state["seq"], action="move", play="in/24 in/23").json()
    before = footprint()

    body = assert_error(act(clients(alice), one_two.pk, state["seq"], **body), 400, "invalid")

    assert list(body["fields"]) == [field]
    assert footprint() == before


def test_a_double_named_without_its_number_is_refused(one_two, clients, alice):
    state = clients(alice).get(f"/api/matches/{one_two.pk}/").json()
    state = act(clients(alice), one_two.pk, state["seq"], action="move", play="in/24 in/23").json()
    before = footprint()

    response = act(clients(alice), one_two.pk, state["seq"], action="name_double")

    assert response.status_code == 400
    assert "1 to 6" in response.json()["message"]
    assert footprint() == before


def test_naming_a_double_before_the_one_two_is_played_is_refused_with_the_reason(
    one_two, clients, alice
):
    state = clients(alice).get(f"/api/matches/{one_two.pk}/").json()
    before = footprint()

    response = act(clients(alice), one_two.pk, state["seq"], action="name_double", number=4)

    body = assert_error(response, 400, "illegal")
    assert "cannot name a double now: you are to play your 2-1" in body["message"]
    assert footprint() == before


def test_the_page_draws_the_waiting_checkers_and_offers_the_six_doubles(one_two, client, alice):
    client.force_login(alice)
    page = client.get(f"/matches/{one_two.pk}/").content.decode()
    assert page.count('data-point="in"') == 2
    assert 'data-point="in" data-side="mine"' in page
    # A waiting checker may enter: it glows, and a click chooses it (select=26, the engine's IN).
    assert "select=26" in page

    response = client.post(
        f"/matches/{one_two.pk}/act/",
        {"seq": _seq(one_two), "action": "move", "play": "in/24 in/23"},
    )
    assert response.status_code == 302
    page = client.get(f"/matches/{one_two.pk}/").content.decode()
    assert page.count('data-action="name_double"') == 6
    assert 'data-number="6"' in page

    response = client.post(
        f"/matches/{one_two.pk}/act/",
        {"seq": _seq(one_two), "action": "name_double", "number": "3"},
    )
    assert response.status_code == 302
    one_two.refresh_from_db()
    assert one_two.state["dice"] == [3, 3] and one_two.state["dice_named"] is True


def _seq(match) -> int:
    match.refresh_from_db()
    return match.seq


def test_the_rules_page_says_how_it_opens_and_the_one_two(client):
    page = client.get("/rules/acey-deucey/").content.decode()
    assert "All of them start off the board" in page
    assert "the higher begins by rolling both dice" in page
    assert "data-one-two" in page and "name any double you like" in page
    assert page.count('data-point="in"') == 2
    other = client.get("/rules/backgammon/").content.decode()
    assert "data-one-two" not in other and 'data-point="in"' not in other
