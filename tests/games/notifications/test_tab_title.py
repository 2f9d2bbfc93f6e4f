"""The browser tab says when it is your turn, on the page and in the fragments htmx swaps in;
the site has a favicon."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from tests.games.factories import act, start_match

pytestmark = pytest.mark.django_db

TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def titles(client: Client, match: Any, **headers: str) -> list[str]:
    response = client.get(reverse("match", kwargs={"match_id": match.pk}), headers=headers)
    assert response.status_code == 200
    return TITLE.findall(response.content.decode())


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_tab_says_whose_turn_it_is(dice: Any, alice: Any, bob: Any, carol: Any) -> None:
    dice.add(3, 1)
    match = start_match(alice, bob)
    assert titles(signed_in(alice), match)[0] == "(Your turn) alice v bob · Backgammon"
    assert titles(signed_in(bob), match)[0] == "alice v bob · Backgammon"
    assert titles(signed_in(carol), match)[0] == "alice v bob · Backgammon"

    match = act(match, alice, "move", play="8/5 6/5")
    assert titles(signed_in(alice), match)[0] == "alice v bob · Backgammon"
    assert titles(signed_in(bob), match)[0] == "(Your turn) alice v bob · Backgammon"


def test_a_fragment_swapped_in_brings_the_title_with_it(dice: Any, alice: Any, bob: Any) -> None:
    """htmx takes a <title> at the top of a fragment for the tab: after a move the tab stops
    saying it is your turn without a reload."""
    dice.add(3, 1)
    match = start_match(alice, bob)
    alice_page = signed_in(alice)
    assert titles(alice_page, match, HX_Request="true") == ["(Your turn) alice v bob · Backgammon"]
    match = act(match, alice, "move", play="8/5 6/5")
    assert titles(alice_page, match, HX_Request="true") == ["alice v bob · Backgammon"]
    page = alice_page.get(reverse("match", kwargs={"match_id": match.pk})).content.decode()
    assert page.count("<title>") == 1


def test_every_page_links_the_favicon(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    (href,) = re.findall(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    name = href.removeprefix("/static/")
    path = finders.find(name)
    assert path, href
    with open(path) as icon:
        assert icon.read().startswith("<svg")
