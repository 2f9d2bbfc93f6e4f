"""The replay in a real browser: the arrow keys step through it, the move list beside the board
follows the step, and an entry of the match page's move list opens the replay at its step."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.games.factories import make_user, start_match
from tests.games.services.test_variants import play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def finished(dice: Any) -> Any:
    """A 3-point match played at random to its end, over more than one game."""
    dice.add_random(3000, seed=11)
    alice, bob = make_user("alice"), make_user("bob")
    return play_to_the_end(start_match(alice, bob, length=3), random.Random(4))


def shown_step(page: Any) -> int:
    return int(page.get_attribute("#replay", "data-replay-step"))


def current_entry(page: Any) -> int | None:
    """The step of the move list's highlighted entry, if one is."""
    current = page.locator('#replay .moves a[aria-current="step"]')
    if current.count() == 0:
        return None
    assert current.count() == 1
    return int(current.get_attribute("data-step"))


def entry_steps(page: Any) -> list[int]:
    return [
        int(step)
        for step in page.locator("#replay .moves a[data-step]").evaluate_all(
            "(links) => links.map((link) => link.dataset.step)"
        )
    ]


def press(page: Any, *keys: str, to_step: int) -> None:
    """Press ``keys`` one after the other without waiting, then wait for ``to_step``."""
    for key in keys:
        page.keyboard.press(key)
    page.wait_for_selector(f'#replay[data-replay-step="{to_step}"]')
    page.wait_for_load_state("networkidle")


def test_the_arrow_keys_step_through_the_replay_and_the_move_list_follows(
    live_server, new_context, finished
):
    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    replay = f"{live_server.url}/matches/{finished.pk}/replay/"
    page.goto(f"{replay}?step=10")
    last = int(page.get_attribute("#replay", "data-replay-last"))
    entries = entry_steps(page)
    games = [
        int(step)
        for step in page.locator("#replay [data-game-start]").evaluate_all(
            "(links) => links.map((link) => link.dataset.gameStart)"
        )
    ]
    assert len(entries) > 20 and len(games) > 1
    assert page.locator(".keys-hint").is_visible()

    def shown_entry(step: int) -> int | None:
        return max((entry for entry in entries if entry <= step), default=None)

    assert current_entry(page) == shown_entry(10)

    press(page, "End", to_step=last)
    assert current_entry(page) == entries[-1]
    assert page.url.endswith(f"?step={last}")

    press(page, "Home", to_step=0)
    assert current_entry(page) is None

    press(page, "ArrowRight", "ArrowRight", "ArrowRight", to_step=3)
    assert current_entry(page) == shown_entry(3) == entries[0]
    assert page.url.endswith("?step=3")
    assert "played" in page.inner_text("[data-step-words]")

    press(page, "ArrowLeft", to_step=2)
    assert current_entry(page) is None

    press(page, "ArrowDown", to_step=games[1])
    assert current_entry(page) == shown_entry(games[1])
    press(page, "ArrowUp", "ArrowUp", to_step=games[0])

    # The highlighted entry stays in sight inside the move list's own box.
    press(page, "End", to_step=last)
    box = page.locator("#replay .move-list-scroll").bounding_box()
    entry = page.locator('#replay .moves a[aria-current="step"]').bounding_box()
    assert box["y"] <= entry["y"] and entry["y"] + entry["height"] <= box["y"] + box["height"]


def test_an_entry_of_the_match_pages_move_list_opens_its_step(live_server, new_context, finished):
    page = new_context(viewport={"width": 390, "height": 800}).new_page()
    page.goto(f"{live_server.url}/matches/{finished.pk}/")
    entry = page.locator("[data-move-list] .moves a[data-step]").nth(7)
    step = int(entry.get_attribute("data-step"))
    text = entry.inner_text()
    entry.click()
    page.wait_for_selector(f'#replay[data-replay-step="{step}"]')
    assert re.search(rf"/matches/{finished.pk}/replay/\?step={step}$", page.url)
    current = page.locator('#replay .moves a[aria-current="step"]')
    assert current.get_attribute("data-step") == str(step) and current.inner_text() == text
    # Then on the replay, a click on another entry steps there in place.
    other = page.locator("#replay .moves a[data-step]").nth(2)
    other_step = int(other.get_attribute("data-step"))
    other.click()
    page.wait_for_selector(f'#replay[data-replay-step="{other_step}"]')
    assert current_entry(page) == other_step
