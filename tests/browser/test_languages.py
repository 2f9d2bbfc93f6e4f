"""Choosing a language in a real browser: a visitor with the footer's switch, a player on the
language setting; each page then reads in that language, and a screenshot keeps it."""

from __future__ import annotations

import pytest

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
