"""Pages of a match in every variant: they draw, whatever the board, during and after the match."""

from __future__ import annotations

import random

import pytest

from accounts.models import Profile
from games import services
from games.log.integrity import log_problems
from games.models import Challenge
from tests.games.factories import reload, state_of
from tests.games.services.test_variants import play_to_the_end

pytestmark = pytest.mark.django_db

VARIANTS = ["nackgammon", "hypergammon", "plakoto", "fevga", "long-nardi", "tavli"]


def started(alice, bob, variant):
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant=variant, match_length=1
    )
    return services.challenge_accept(challenge_id=challenge.pk, user=bob)


def pages_of(match):
    return [
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/replay/",
        f"/matches/{match.pk}/replay/?step=3",
        f"/matches/{match.pk}/dice/",
        f"/matches/{match.pk}/export.mat",
        "/",
        "/lobby/",
        "/matches/",
        f"/players/{match.first_player.username}/",
        f"/admin/games/match/{match.pk}/change/",
    ]


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_page_of_a_match_draws_in_each_variant(signed_in, admin_client, alice, bob, variant):
    match = started(alice, bob, variant)
    client = signed_in(alice)
    for url in pages_of(match):
        response = (admin_client if "/admin/" in url else client).get(url)
        assert response.status_code in (200, 302, 404), (url, response.status_code)
        # A value the variant does not have (a Position ID in fevga) is left out, not "None".
        assert b">None<" not in response.content, url
    match = play_to_the_end(match, random.Random(variant))
    for url in pages_of(match):
        response = (admin_client if "/admin/" in url else client).get(url)
        assert response.status_code in (200, 302, 404), (url, response.status_code)


@pytest.mark.parametrize(
    ("variant", "steps", "play"),
    [("plakoto", "24-6,24-5", "24/19 24/18"), ("plakoto", "24-6,18-5", "24/13")],
)
def test_a_play_put_together_by_clicks_is_played(dice, signed_in, alice, bob, variant, steps, play):
    dice.add(5, 3, 6, 5)
    match = started(alice, bob, variant)
    client = signed_in(alice)

    page = client.get(f"/matches/{match.pk}/?steps={steps}").content.decode()

    assert f'name="play" value="{play}"' in page
    dice.add(2, 1)
    response = client.post(
        f"/matches/{match.pk}/act/",
        {"seq": reload(match).seq, "action": "move", "play": play},
    )
    assert response.status_code == 302
    state = state_of(reload(match))
    assert state.last_play is not None and state.last_play.player == 0
    assert log_problems(reload(match)) == []


def test_the_lobby_challenges_to_a_variant_and_lists_it(signed_in, alice, bob):
    client = signed_in(alice)

    response = client.post(
        "/challenges/new/",
        {
            "opponent": "bob",
            "match_length": "5",
            "variant": "tavli",
            "match_format": "best_of_three",
            "cube": "",
            "rated": "on",
            "clock": "1+8",
        },
    )

    assert response.status_code == 302, response.content.decode()[-3000:]
    challenge = Challenge.objects.get()
    assert (challenge.variant, challenge.match_format, challenge.cube) == (
        "tavli",
        "best_of_three",
        False,
    )
    lobby = signed_in(bob).get("/").content.decode()
    assert '<span class="variant">Tavli</span>' in lobby
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    page = signed_in(bob).get(f"/matches/{match.pk}/").content.decode()
    assert 'href="/rules/tavli/" data-rules-link>Tavli</a> (Portes)' in page
    assert "best of three games" in page
    assert '<span class="variant">Tavli</span>' in signed_in(bob).get("/").content.decode()


def test_the_lobby_refuses_a_best_of_three_that_is_not_tavli(signed_in, alice):
    response = signed_in(alice).post(
        "/challenges/new/",
        {
            "opponent": "",
            "match_length": "5",
            "variant": "plakoto",
            "match_format": "best_of_three",
            "clock": "1+8",
        },
    )

    assert response.status_code == 400
    assert "Only a Tavli match is played as the best of three games." in response.content.decode()
    assert not Challenge.objects.exists()


def test_a_play_the_variant_refuses_is_shown_on_the_page_naming_the_rule(
    dice, signed_in, alice, bob
):
    Profile.objects.create(user=alice, auto_play_forced=False)  # the first play is forced
    dice.add(5, 3, 6, 5)
    match = started(alice, bob, "fevga")
    client = signed_in(alice)
    seq = reload(match).seq

    response = client.post(
        f"/matches/{match.pk}/act/",
        {"seq": seq, "action": "move", "play": "24/18 24/19"},
        follow=True,
    )

    assert "must pass your opponent&#x27;s start" in response.content.decode()
    assert reload(match).seq == seq


def test_the_movers_board_in_hypergammon_has_three_checkers_a_side_and_none_borne_off(
    dice, signed_in, alice, bob
):
    dice.add(5, 3)
    match = started(alice, bob, "hypergammon")
    assert state_of(reload(match)).player_to_act() == 0  # alice puts her play together

    page = signed_in(alice).get(f"/matches/{match.pk}/").content.decode()

    assert "data-movable" in page
    assert "alice: 1 on 24, 1 on 23, 1 on 22; pip count 69" in page
    assert "borne off" not in page
