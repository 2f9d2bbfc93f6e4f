"""What the rewards show: the settings page, the board's checkers, the crown beside names."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Profile, Unlock
from accounts.rewards import CROWN_LABEL, appearance_choose
from games.engine.board import Board
from games.engine.variants import BACKGAMMON
from games.views.board import CheckerLook, draw_board
from ratings.models import PlayerRating
from tests.games.factories import make_user, start_match

pytestmark = pytest.mark.django_db


def unlock(user: Any, *rewards: str) -> None:
    for reward in rewards:
        Unlock.objects.create(user=user, reward=reward)


def wear(user: Any, **look: Any) -> None:
    Profile.objects.update_or_create(user=user, defaults=look)


def crowns_in(html: str) -> int:
    return html.count(f'aria-label="{CROWN_LABEL}"')


# Settings


def test_settings_link_to_the_appearance_page(alice: Any, signed_in: Any) -> None:
    page = signed_in(alice).get(reverse("settings")).content.decode()
    assert reverse("appearance-settings") in page


def test_locked_choices_are_offered_disabled(alice: Any, signed_in: Any) -> None:
    page = signed_in(alice).get(reverse("appearance-settings")).content.decode()
    assert re.search(r'value="ruby"[^>]*disabled', page)
    assert "locked: beat the Beginner bot" in page


def test_a_locked_colour_is_refused(alice: Any, signed_in: Any) -> None:
    response = signed_in(alice).post(reverse("appearance-settings"), {"colour": "emerald"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "The emerald checker colour is locked" in page
    assert "Intermediate" in page
    assert not Profile.objects.filter(user=alice, checker_colour="emerald").exists()


def test_a_locked_style_and_crown_are_refused(alice: Any, signed_in: Any) -> None:
    unlock(alice, "beginner-colours")
    browser = signed_in(alice)
    refused_style = browser.post(reverse("appearance-settings"), {"style": "ringed"})
    assert refused_style.status_code == 400
    assert "The ringed checker style is locked" in refused_style.content.decode()
    refused_crown = browser.post(reverse("appearance-settings"), {"crown": "on"})
    assert refused_crown.status_code == 400
    assert "The crown is locked" in refused_crown.content.decode()


def test_an_unknown_colour_is_refused(alice: Any) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        appearance_choose(user=alice, colour="plaid", style="", crown=False)


def test_unlocked_choices_are_saved(alice: Any, signed_in: Any) -> None:
    unlock(alice, "beginner-colours", "advanced-style", "expert-crown")
    response = signed_in(alice).post(
        reverse("appearance-settings"), {"colour": "sapphire", "style": "ringed", "crown": "on"}
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=alice)
    assert (profile.checker_colour, profile.checker_style, profile.wears_crown) == (
        "sapphire",
        "ringed",
        True,
    )


def test_the_crown_can_be_taken_off(alice: Any, signed_in: Any) -> None:
    unlock(alice, "expert-crown")
    wear(alice, wears_crown=True)
    signed_in(alice).post(reverse("appearance-settings"), {"colour": ""})
    assert not Profile.objects.get(user=alice).wears_crown


# The board


def test_the_board_draws_each_players_chosen_colour_and_style() -> None:
    board = draw_board(
        Board.starting(BACKGAMMON),
        side=0,
        names=("alice", "bob"),
        looks=(CheckerLook("ruby", "ringed"), CheckerLook()),
    )
    checkers = [c for point in board.points for c in point.checkers]
    assert {c.look_classes for c in checkers if c.owner == 0} == {"colour-ruby style-ringed"}
    assert {c.look_classes for c in checkers if c.owner == 1} == {""}


def test_the_match_page_draws_the_chosen_colours(alice: Any, bob: Any, client: Any) -> None:
    unlock(alice, "beginner-colours", "advanced-style")
    unlock(bob, "intermediate-colours")
    wear(alice, checker_colour="sapphire", checker_style="ringed")
    wear(bob, checker_colour="gold")
    match = start_match(alice, bob)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert page.count('class="checker player-0 colour-sapphire style-ringed') == 15
    assert page.count('class="checker-ring player-0') == 15
    assert 'class="checker player-1 colour-gold' in page
    assert 'class="player player-0 colour-sapphire"' in page


def test_the_same_colour_twice_falls_back_for_the_second_player(
    alice: Any, bob: Any, client: Any
) -> None:
    for player in (alice, bob):
        unlock(player, "beginner-colours")
        wear(player, checker_colour="ruby")
    match = start_match(bob, alice)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'class="checker player-0 colour-ruby' in page
    assert "player-1 colour-ruby" not in page


def test_the_replay_draws_the_chosen_colours(alice: Any, bob: Any, client: Any) -> None:
    unlock(alice, "beginner-colours")
    wear(alice, checker_colour="ruby")
    match = start_match(alice, bob)
    page = client.get(reverse("match-replay", args=[match.pk])).content.decode()
    assert 'class="checker player-0 colour-ruby' in page


# The crown


@pytest.fixture
def crowned(alice: Any) -> Any:
    unlock(alice, "expert-crown")
    wear(alice, wears_crown=True)
    return alice


def test_the_crown_beside_the_name_in_the_match_header(crowned: Any, bob: Any, client: Any) -> None:
    match = start_match(crowned, bob)
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    start = page.index('<header class="match-header">')
    header = page[start : page.index("</header>", start)]
    assert crowns_in(header) == 1
    assert header.index("alice") < header.index(str(CROWN_LABEL)) < header.index("bob")


def test_the_crown_in_the_lobby_watch_and_profile_lists(
    crowned: Any, bob: Any, signed_in: Any
) -> None:
    start_match(crowned, bob)
    assert crowns_in(signed_in(bob).get(reverse("home")).content.decode()) >= 1
    assert crowns_in(signed_in(bob).get(reverse("watch")).content.decode()) == 1
    bobs_profile = signed_in(bob).get(reverse("profile", args=["bob"])).content.decode()
    assert crowns_in(bobs_profile) == 1


def test_the_crown_on_the_profile_with_the_rewards(crowned: Any, client: Any) -> None:
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    heading = page[page.index("<h1>") : page.index("</h1>")]
    assert crowns_in(heading) == 1
    assert 'data-reward="expert-crown"' in page
    assert "The Expert&#x27;s crown" in page or "The Expert's crown" in page


def test_the_crown_on_the_leaderboard(crowned: Any, bob: Any, client: Any) -> None:
    for player in (crowned, bob):
        PlayerRating.objects.create(
            user=player, rating=1600, deviation=50, volatility=0.06, rated_matches=12
        )
    page = client.get(reverse("leaderboard")).content.decode()
    assert crowns_in(page) == 1


def test_no_crown_without_the_choice(alice: Any, bob: Any, client: Any) -> None:
    unlock(alice, "expert-crown")
    match = start_match(alice, bob)
    assert crowns_in(client.get(reverse("match", args=[match.pk])).content.decode()) == 0


def test_crowns_cost_no_query_per_row(crowned: Any, bob: Any, client: Any) -> None:
    start_match(crowned, bob)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("watch"))
    for i in range(5):
        player = make_user(f"king{i}")
        unlock(player, "expert-crown")
        wear(player, wears_crown=True)
        start_match(player, make_user(f"pawn{i}"))
    with CaptureQueriesContext(connection) as six:
        page = client.get(reverse("watch")).content.decode()
    assert crowns_in(page) == 6
    assert len(six) == len(one)
