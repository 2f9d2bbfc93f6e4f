"""Choosing a language in a real browser: a visitor with the footer's switch, a player on the
language setting; each page then reads in that language, and a screenshot keeps it."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from tests.conftest import PASSWORD
from tests.games.factories import make_user, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_a_visitor_switches_the_rules_to_greek_in_the_footer(live_server, new_context, screenshots):
    page = new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{live_server.url}/rules/portes/")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("h1") == "Portes"

    page.click('[data-language-switch] button[lang="el"]')
    page.wait_for_load_state("networkidle")

    assert page.url == f"{live_server.url}/rules/portes/"
    assert page.get_attribute("html", "lang") == "el"
    assert page.inner_text("h1") == "Πόρτες"
    assert "χτυπάτε" in page.inner_text("main")
    assert page.locator('[data-language-switch] button[aria-current="true"]').inner_text() == (
        "Ελληνικά"
    )
    page.screenshot(path=screenshots / "rules-portes-el-390.png", full_page=True)

    page.goto(f"{live_server.url}/")
    assert page.get_attribute("html", "lang") == "el"
    assert "Τάβλι δι’ αλληλογραφίας" in page.inner_text("main")


def test_a_player_chooses_russian_and_plays_in_it(live_server, signed_in_page, screenshots):
    ivan = make_user("ivan", password=PASSWORD)
    match = start_match(ivan, make_user("olga"))
    page = signed_in_page(live_server.url, ivan, viewport=PHONE, locale="el-GR")
    page.goto(f"{live_server.url}/settings/")
    assert page.get_attribute("html", "lang") == "el"

    page.click('a[href="/settings/language/"]')
    page.check('input[name="language"][value="ru"]')
    page.click('main button[type="submit"]')
    page.wait_for_load_state("networkidle")

    assert page.get_attribute("html", "lang") == "ru"
    assert "Язык сохранён." in page.inner_text(".messages")

    page.goto(f"{live_server.url}/matches/{match.pk}/")
    side = page.inner_text(".match-side")
    assert "Сумма пипов" in side and "Куб" in side
    # The running clock, which the page counts down itself, in Russian too.
    assert page.inner_text("[data-countdown]").startswith("8 дней 23 час")
    assert page.get_attribute('[data-action="abort"]', "data-action") == "abort"
    assert "Отменить матч" in page.inner_text("details.confirm-ending summary")
    page.screenshot(path=screenshots / "match-ru-390.png", full_page=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_persian_pages_mirror_and_the_board_does_not(
    live_server, signed_in_page, screenshots, dice, width
):
    """A Persian player's lobby and match page read right to left: the site's name stands at
    the right, the text starts there; the board is drawn as in every other language."""
    dice.add(3, 1)
    shirin = make_user("shirin", password=PASSWORD)
    Profile.objects.update_or_create(user=shirin, defaults={"language": "fa"})
    match = start_match(shirin, make_user("dariush"))
    viewport = {"width": width, "height": 844}
    page = signed_in_page(live_server.url, shirin, viewport=viewport, locale="fa-IR")

    page.goto(f"{live_server.url}/")
    assert page.get_attribute("html", "lang") == "fa"
    assert page.get_attribute("html", "dir") == "rtl"
    assert "مسابقه‌های شما" in page.inner_text("main")
    brand = page.locator(".site-nav .brand").bounding_box()
    assert brand["x"] + brand["width"] > width * 0.75, brand
    heading = page.locator("main h1, main h2").first
    assert heading.evaluate("e => getComputedStyle(e).direction") == "rtl"
    page.screenshot(path=screenshots / f"lobby-fa-{width}.png", full_page=True)

    page.goto(f"{live_server.url}/matches/{match.pk}/")
    board = page.locator("svg.board")
    assert board.evaluate("e => getComputedStyle(e).direction") == "ltr"
    persian = _points_across(board)
    page.screenshot(path=screenshots / f"match-fa-{width}.png", full_page=True)

    english = signed_in_page(live_server.url, shirin, viewport=viewport, locale="en-GB")
    Profile.objects.filter(user=shirin).update(language="en")
    english.goto(f"{live_server.url}/matches/{match.pk}/")
    assert english.get_attribute("html", "dir") is None
    assert _points_across(english.locator("svg.board")) == persian


def _points_across(board):
    """The board's point numbers from left to right as drawn, each with its place across the
    board (a share of its width): the same in every language when the board is not mirrored."""
    return board.evaluate(
        """svg => {
            const box = svg.getBoundingClientRect();
            return [...svg.querySelectorAll('text')]
                .filter(t => /^\\d+$/.test(t.textContent.trim()))
                .map(t => [t.textContent.trim(),
                           Math.round(100 * (t.getBoundingClientRect().x - box.x) / box.width)])
                .sort((a, b) => a[1] - b[1]);
        }"""
    )
