"""The cube as drawn: centred, offered, then taken and owned, read through the board markup as a
player's browser shows it."""

from typing import Any

import pytest

from tests.browser.test_play_in_browser import swapped
from tests.games.factories import act, make_user, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def cube(page: Any) -> dict[str, Any]:
    element = page.locator("svg.board .cube")
    board = page.locator("svg.board").bounding_box()
    box = element.bounding_box()
    return {
        "value": element.get_attribute("data-cube-value"),
        "owner": element.get_attribute("data-cube-owner"),
        "offered": element.get_attribute("data-cube-offered"),
        # Where it stands: the viewer's own edge is the bottom of the board.
        "at": "middle"
        if abs(box["y"] + box["height"] / 2 - (board["y"] + board["height"] / 2)) < 10
        else ("bottom" if box["y"] > board["y"] + board["height"] / 2 else "top"),
        "words": element.get_attribute("aria-label"),
    }


def test_the_cube_is_drawn_centred_offered_and_owned(live_server, signed_in_context, dice):
    base = live_server.url
    alice, bob = make_user("alice"), make_user("bob")
    dice.add(3, 1, 6, 4, 5, 2)  # the last roll is the one after the take
    match = start_match(alice, bob, length=5)
    match = act(match, alice, "move", play="8/5 6/5")
    match = act(match, bob, "roll")
    match = act(match, bob, "move", play="24/18 13/9")
    alice_page = signed_in_context(base, alice).new_page()
    bob_page = signed_in_context(base, bob).new_page()
    url = f"{base}/matches/{match.pk}/"

    alice_page.goto(url)
    assert cube(alice_page) | {"words": None} == {
        "value": "64",
        "owner": "centre",
        "offered": None,
        "at": "middle",
        "words": None,
    }
    swapped(alice_page, alice_page.locator('[data-action="double"]').click)

    bob_page.goto(url)
    offered = cube(bob_page)
    assert (offered["value"], offered["owner"], offered["offered"]) == ("2", "centre", "alice")
    assert offered["words"] == "alice offers the cube at 2"
    assert bob_page.locator("svg.board .cube text.cube-offered").text_content() == "offered"
    assert "alice offers 2" in bob_page.locator("[data-cube-words]").inner_text()
    swapped(bob_page, bob_page.locator('[data-action="take"]').click)

    taken = cube(bob_page)
    assert (taken["value"], taken["owner"], taken["offered"], taken["at"]) == (
        "2",
        "bob",
        None,
        "bottom",
    )
    alice_page.goto(url)
    assert cube(alice_page)["at"] == "top"
    assert cube(alice_page)["words"] == "bob owns the cube at 2"
