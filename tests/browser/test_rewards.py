"""A crowned player's name, and their chosen checkers, as a watcher's browser shows them."""

import pytest

from accounts.models import Profile, Unlock
from accounts.rewards import CROWN_LABEL
from tests.games.factories import make_user, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_crowned_name_on_the_match_page(live_server, new_context, screenshots):
    alice, bob = make_user("alice"), make_user("bob")
    for reward in ("beginner-colours", "advanced-style", "expert-crown"):
        Unlock.objects.create(user=alice, reward=reward)
    Unlock.objects.create(user=bob, reward="intermediate-colours")
    Profile.objects.create(
        user=alice, checker_colour="sapphire", checker_style="ringed", wears_crown=True
    )
    Profile.objects.create(user=bob, checker_colour="gold")
    match = start_match(alice, bob)

    page = new_context(viewport={"width": 1000, "height": 760}).new_page()
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    crown = page.get_by_role("img", name=str(CROWN_LABEL))
    assert crown.count() == 1
    assert crown.is_visible()
    assert page.inner_text(".match-header .player-0").startswith("alice")
    fill = page.eval_on_selector(".board .checker.player-0", "c => getComputedStyle(c).fill")
    assert fill == "rgb(31, 79, 200)"  # sapphire
    page.screenshot(path=screenshots / "crowned-name.png")
