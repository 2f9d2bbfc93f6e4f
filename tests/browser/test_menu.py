"""The site's menu: on a phone a button shows every link, each within the screen and big
enough to tap; on a desktop the links stand in a row; Leagues is among them."""

from __future__ import annotations

import pytest

from tests.games.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)

LINKS = "#site-menu a, #site-menu button"


def signed_in(new_context, base, width, height):
    from django.test import Client

    client = Client()
    client.force_login(make_user(f"reader{width}"))
    context = new_context(viewport={"width": width, "height": height}, is_mobile=width < 600)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def test_on_a_phone_the_menu_button_shows_every_link_within_the_screen(
    live_server, new_context, screenshots
):
    page = signed_in(new_context, live_server.url, 390, 844)
    page.goto(f"{live_server.url}/")
    button = page.locator(".menu-button")
    assert button.is_visible()
    assert not page.locator("#site-menu").is_visible()

    button.click()
    assert button.get_attribute("aria-expanded") == "true"
    names = page.locator(LINKS).all_inner_texts()
    assert any("Leagues" in name for name in names) and any("Log out" in name for name in names)
    for link in page.locator(LINKS).all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert box["height"] >= 44, (link.inner_text(), box)
    page.screenshot(path=screenshots / "menu-open-390.png")

    page.keyboard.press("Escape")
    assert not page.locator("#site-menu").is_visible()
    page.click(".menu-button")
    page.click("#site-menu a:text('Leagues')")
    page.wait_for_url(f"{live_server.url}/leagues/")


def test_on_a_desktop_the_links_stand_in_a_row_without_a_button(live_server, new_context):
    page = signed_in(new_context, live_server.url, 1280, 900)
    page.goto(f"{live_server.url}/")
    assert not page.locator(".menu-button").is_visible()
    tops = {round(link.bounding_box()["y"]) for link in page.locator("#site-menu a").all()}
    assert len(tops) == 1, tops
    assert page.locator("#site-menu a:text('Leagues')").is_visible()
