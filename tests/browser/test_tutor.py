"""The tutor in a real browser: a visitor switches it on against the computer, asks for a hint
(the best play drawn on the board), then runs both back checkers with an opening 6-1 instead
of making the 7 point, and the page flags the error with its size and draws the best play."""

import re

import pytest

from games.models import Match
from tests.browser.test_casual_play import start_a_match
from tests.browser.test_play_in_browser import swapped
from tests.games.factories import migration_made_rows

pytestmark = pytest.mark.django_db(transaction=True)

BEST = "13/7 8/7"


@pytest.fixture
def computer_opponents(db):
    migration_made_rows()


def move(page, source, destination):
    """Pick up the top checker of ``source``, then put it on ``destination``, as a person
    does."""
    swapped(page, page.locator(f'#play-area [data-point="{source}"] [data-movable]').last.click)
    swapped(page, page.locator(f'#play-area [data-point="{destination}"][data-destination]').click)


def test_the_tutor_flags_an_error_with_its_size_and_draws_the_best_play(
    live_server, new_context, computer_opponents, dice
):
    dice.add(6, 1, *([5, 2, 4, 3] * 10))  # the visitor opens with 6-1
    page = new_context().new_page()
    page.goto(f"{live_server.url}/")
    page.select_option("#computer-length", "1")
    page.select_option("#computer-level", "intermediate")
    page.check("#computer-tutor")
    start_a_match(page, '[data-action="play-computer"]')
    match = Match.objects.get(pk=page.url.rstrip("/").split("/")[-1])
    assert match.tutored

    page.click('[data-action="hint"]')
    page.wait_for_selector("[data-tutor-hint]")
    assert BEST in page.inner_text("[data-tutor-hint]")
    assert page.get_attribute("#play-area .board-wrap svg", "data-best-play") == BEST
    assert page.locator('.board-wrap [data-point="7"][data-last-to]').count() == 1
    page.click("[data-tutor-hint] a")
    page.wait_for_selector('#play-area [data-point="24"] [data-movable]')

    move(page, 24, 18)
    move(page, 24, 23)
    swapped(page, page.locator('[data-action="done"]').click)

    page.wait_for_selector("[data-tutor-verdict]", timeout=60_000)
    verdict = page.locator("[data-tutor-verdict]")
    assert verdict.get_attribute("data-mark") == "error"
    assert re.fullmatch(
        rf"Your play 24/23 24/18 lost 0\.0\d\d \(an error\); best was {BEST}\.",
        verdict.inner_text().strip(),
    )
    assert float(verdict.get_attribute("data-equity-lost")) >= 0.04
    best = page.locator("[data-tutor-best] svg")
    assert best.get_attribute("data-best-play") == BEST
    assert best.is_visible()
    # Drawn as a play is: each checker's destination marked, where it came from ringed.
    for point in ("7",):
        assert best.locator(f'[data-point="{point}"][data-last-to]').count() == 1
    for point in ("13", "8"):
        assert best.locator(f'[data-point="{point}"][data-last-from]').count() == 1
