"""The replay of an analysed match with GNU Backgammon's second opinion, as a person uses it on
a phone: axe-core finds no serious or critical violation and the page fits the screen; the
figures follow the engine chosen above the table, and a disputed decision's step opens from
the table of disputed decisions."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.mat import export_mat
from games.services.imports import imported_match_create
from tests.browser.test_pages_for_everyone import problems_on
from tests.games.factories import make_user
from tests.games.formats.matches import random_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_engine_choice_and_the_disputed_decisions_on_a_phone(
    live_server: Any, new_context: Any, axe_source: str, gnubg: str, screenshots: Any
) -> None:
    alice = make_user("alice", email="alice@example.com")
    imported = imported_match_create(
        uploaded_by=alice, text=export_mat(("alice", "bob"), 1, random_match(5, 1))
    )
    page = new_context(viewport={"width": 390, "height": 800}).new_page()
    page.goto(f"{live_server.url}/imports/{imported.pk}/")
    analysis = page.locator("section.analysis")
    assert analysis.locator('[aria-current="true"]').inner_text() == "bgsage"
    bgsage_pr = analysis.locator('td[data-pr="bgsage"]').first.inner_text()
    assert analysis.locator("tr[data-disputed]").count() == 3
    assert not problems_on(page, "replay with both engines", 390, axe_source)
    page.screenshot(path=screenshots / "page-replay-two-engines-390.png", full_page=True)
    analysis.screenshot(path=screenshots / "replay-analysis-two-engines-390.png")

    analysis.locator('a[data-engine="gnubg"]').click()
    page.wait_for_selector('section.analysis [aria-current="true"][data-engine="gnubg"]')
    assert "engine=gnubg" in page.url
    assert analysis.locator("td[data-pr]").nth(1).inner_text() == bgsage_pr

    first_disputed = analysis.locator("tr[data-disputed]").first
    step = first_disputed.get_attribute("data-disputed")
    first_disputed.locator("a").click()
    page.wait_for_selector(f'#replay[data-replay-step="{step}"]')
    assert page.locator("[data-review-disputed]").is_visible()
    assert "gnubg's best" in page.locator(".replay-review").inner_text()


CLIPPED_CELLS = """
(section) => [...section.querySelectorAll("table")].flatMap((table) => {
  const box = table.closest(".table-wrap") || table.parentElement;
  const right = box.getBoundingClientRect().right;
  return [...table.querySelectorAll("th, td")]
    .filter((cell) => cell.getBoundingClientRect().right > right + 1)
    .map((cell) => cell.textContent.trim());
})
"""


def test_every_column_of_the_figures_shows_at_a_desktops_width(
    live_server: Any, new_context: Any, gnubg: str, screenshots: Any
) -> None:
    alice = make_user("alice", email="alice@example.com")
    imported = imported_match_create(
        uploaded_by=alice, text=export_mat(("alice", "bob"), 1, random_match(5, 1))
    )
    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.goto(f"{live_server.url}/imports/{imported.pk}/")
    analysis = page.locator("section.analysis")
    assert analysis.locator('td[data-pr="bgsage"]').count()
    assert analysis.evaluate(CLIPPED_CELLS) == []
    analysis.screenshot(path=screenshots / "replay-analysis-two-engines-1280.png")
