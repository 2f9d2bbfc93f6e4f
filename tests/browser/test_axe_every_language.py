"""axe-core finds nothing on any page, in any of the site's languages (issue 35, item 5): every
rule and every impact, the minor ones included, on the main pages and the pages of the site's
events, forms and settings; in English at a phone's width and a desktop's, in the other
languages at a phone's, where a longer translation is likeliest to crowd a page."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings

from tests.browser.test_pages_for_everyone import scenes  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: The widths each language is checked at.
WIDTHS = {"en": (390, 1280)}
PHONE = (390,)

RUN_AXE = """
async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  const where = (v) => v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ");
  return result.violations.map((v) => `${v.impact} ${v.id}: ${v.help} at ${where(v)}`);
}
"""

MORE_PAGES = {
    "challenge-new": "/challenges/new/",
    "positions": "/positions/",
    "rules": "/rules/",
    "imports": "/imports/",
    "leagues": "/leagues/",
    "league-new": "/leagues/new/",
    "tournaments": "/tournaments/",
    "tournament-new": "/tournaments/new/",
    "dice-statistics": "/dice/",
    "notification-settings": "/settings/notifications/",
    "play-settings": "/settings/play/",
    "language-settings": "/settings/language/",
    "name-settings": "/settings/name/",
    "vacation": "/settings/vacation/",
}


@pytest.mark.parametrize("language", [code for code, _ in settings.LANGUAGES])
def test_axe_finds_nothing_on_any_page_in_any_language(
    language,
    live_server,
    signed_in_context,
    new_context,
    axe_source,
    scenes,  # noqa: F811
):
    base = live_server.url
    pages = {
        name: (user, path)
        for name, (user, path) in scenes["pages"].items()
        if not path.startswith("/admin/")
    }
    pages.update({name: (scenes["alice"], path) for name, path in MORE_PAGES.items()})
    cookie = {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}
    problems: list[str] = []
    for width in WIDTHS.get(language, PHONE):
        browsers: dict[Any, Any] = {}
        for name, (user, path) in pages.items():
            if user not in browsers:
                options = {"viewport": {"width": width, "height": 900}}
                context = (
                    new_context(**options)
                    if user is None
                    else signed_in_context(base, user, **options)
                )
                context.add_cookies([cookie])
                browsers[user] = context.new_page()
            page = browsers[user]
            answer = page.goto(base + path)
            assert answer.ok, f"{name}: {answer.status}"
            assert page.locator("html").get_attribute("lang") == language, name
            page.evaluate(axe_source)
            problems += [
                f"{name} ({language}, {width} px): {found}" for found in page.evaluate(RUN_AXE)
            ]
    assert not problems, "\n".join(problems)
