"""The rules pages: one per variant and Tavli, linked from the challenge form and the match."""

from __future__ import annotations

import pytest

from games import services
from games.engine.variants import VARIANTS

pytestmark = pytest.mark.django_db

NAMES = [*VARIANTS, "tavli"]


def test_the_index_links_every_variant_and_tavli(client):
    html = client.get("/rules/").content.decode()
    for name in NAMES:
        assert f'href="/rules/{name}/"' in html


@pytest.mark.parametrize(
    ("name", "says"),
    [
        (
            "backgammon",
            [
                "2 on your 24 point, 5 on your 13 point",
                "hits it",
                "Crawford rule",
                "3 for a backgammon",
            ],
        ),
        ("nackgammon", ["2 on your 24 point, 2 on your 23 point, 4 on your 13 point"]),
        ("hypergammon", ["3 checkers", "1 on your 24 point, 1 on your 23 point"]),
        ("portes", ["hits it", "there is no backgammon", "without the doubling cube"]),
        ("plakoto", ["<strong>pins</strong>", "mother", "none of yours is pinned anywhere"]),
        (
            "fevga",
            [
                "counter-clockwise",
                "must pass your opponent's start",
                "starting quarter",
                "block of six points",
            ],
        ),
        (
            "long-nardi",
            ["counter-clockwise", "head", "3-4-6 doubled", "block of six points", "no hitting"],
        ),
        ("tavli", ["Portes", "Plakoto", "Fevga", "Best of three"]),
        (
            "gul-bara",
            [
                "counter-clockwise",
                "<strong>Climbing doubles.</strong>",
                "turn number 4",
                "No block is forbidden",
            ],
        ),
        (
            "jacquet",
            ["counter-clockwise", "(the courier)", "only once you hold your 1 and", "no hitting"],
        ),
    ],
)
def test_each_rules_page_tells_its_rules(client, name, says):
    response = client.get(f"/rules/{name}/")
    assert response.status_code == 200
    html = response.content.decode()
    for words in says:
        assert words in html, words
    if name != "tavli":
        assert 'class="board"' in html and html.count('data-point="') >= 24


def test_an_unknown_variant_has_no_rules_page(client):
    assert client.get("/rules/chess/").status_code == 404


def test_the_challenge_form_and_the_match_page_link_the_rules(signed_in, alice, bob):
    client = signed_in(alice)
    assert 'href="/rules/"' in client.get("/").content.decode()
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant="fevga", match_length=1
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    assert 'href="/rules/fevga/"' in client.get(f"/matches/{match.pk}/").content.decode()


@pytest.mark.parametrize(
    ("name", "says", "never"),
    [
        ("backgammon", "plays the two numbers rolled", "winner of the game before"),
        ("portes", "begins by rolling both dice", "plays the two numbers rolled"),
        ("plakoto", "winner of the game before", "plays the two numbers rolled"),
        ("long-nardi", "plays the two numbers rolled", "begins by rolling both dice"),
    ],
)
def test_the_page_says_how_each_game_begins(client, name, says, never):
    html = " ".join(client.get(f"/rules/{name}/").content.decode().split())
    assert says in html
    assert never not in html


def test_short_nardi_is_another_name_of_backgammon(client):
    index = " ".join(client.get("/rules/").content.decode().split())
    assert "(also called Short nardi)" in index
    page = " ".join(client.get("/rules/backgammon/").content.decode().split())
    assert "Also called Short nardi: the same rules under another name." in page
    russian = client.get("/rules/backgammon/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Короткие нарды" in russian
    assert client.get("/rules/short-nardi/").status_code == 404
