"""Every main page, as a person sees it on a phone and on a desktop, in light and dark mode:
axe-core finds no serious or critical accessibility violation (checked at 390 px, where
layouts are tightest), no page is wider than a phone's
screen, and each page leaves a screenshot at 390 px and 1280 px as a record."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.factories import act, make_user, start_match
from tests.ratings.conftest import won_by_resignation

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WIDTHS = (360, 390, 1280)
SCHEMES = ("light", "dark")
# What axe-core calls serious or critical: what this site may not have.
BLOCKING = ("serious", "critical")

RUN_AXE = """
async (blocking) => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  const where = (v) => v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ");
  return result.violations
    .filter((v) => blocking.includes(v.impact))
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${where(v)}`);
}
"""

WIDER_THAN_SCREEN = """
() => {
  const screen = document.documentElement.clientWidth;
  const wide = [...document.body.querySelectorAll("*")].filter((element) => {
    const box = element.getBoundingClientRect();
    return box.right > screen + 1 && getComputedStyle(element).position !== "fixed";
  });
  return {page: document.documentElement.scrollWidth, screen,
          widest: wide.slice(0, 3).map((e) => e.tagName + (e.id ? "#" + e.id : "")
                                        + (e.className && e.className.baseVal === undefined
                                           ? "." + String(e.className).split(" ")[0] : ""))};
}
"""


@pytest.fixture
def scenes(dice: Any) -> dict[str, Any]:
    """The players and matches whose pages are checked."""
    alice = make_user("alice", email="alice@example.com")
    bob = make_user("bob", email="bob@example.com")
    finished = won_by_resignation(dice, alice, bob)
    dice.add(3, 1)  # alice opens
    your_turn = start_match(alice, bob, length=5, rated=True)
    dice.add(1, 3)  # bob opens: alice waits
    their_turn = start_match(alice, bob, length=5, rated=True)
    dice.add(3, 1, 6, 4)
    offered = start_match(alice, bob, length=5, rated=True)
    offered = act(offered, alice, "move", play="8/5 6/5")
    offered = act(offered, bob, "roll")
    offered = act(offered, bob, "move", play="24/18 13/9")
    offered = act(offered, alice, "double")
    admin = make_user("admin", is_staff=True, is_superuser=True)
    return {
        "alice": alice,
        "admin": admin,
        "pages": {
            "home": (None, "/"),
            "signup": (None, "/accounts/signup/"),
            "login": (None, "/accounts/login/"),
            "lobby": (alice, "/"),
            "match-your-turn": (alice, f"/matches/{your_turn.pk}/"),
            "match-checker-chosen": (alice, f"/matches/{your_turn.pk}/?select=8"),
            "match-their-turn": (alice, f"/matches/{their_turn.pk}/"),
            "match-cube-offered": (bob, f"/matches/{offered.pk}/"),
            "match-finished": (alice, f"/matches/{finished.pk}/"),
            "replay": (alice, f"/matches/{finished.pk}/replay/"),
            "profile": (alice, "/players/alice/"),
            "leaderboard": (alice, "/leaderboard/"),
            "watch": (alice, "/matches/"),
            "settings": (alice, "/settings/"),
            "appearance": (alice, "/settings/appearance/"),
            "admin-match": (admin, f"/admin/games/match/{your_turn.pk}/change/"),
        },
    }


def problems_on(page: Any, where: str, width: int, axe_source: str | None) -> list[str]:
    """What is wrong with the page shown: wider than a phone's screen, or (at 390 px, given
    axe's script) what axe-core finds."""
    problems = []
    if width < 600:
        fit = page.evaluate(WIDER_THAN_SCREEN)
        if fit["page"] > fit["screen"]:
            problems.append(f"{where}: {fit['page']} px wide, {fit['widest']}")
    if width == 390 and axe_source:
        page.evaluate(axe_source)
        problems.extend(f"{where}: {found}" for found in page.evaluate(RUN_AXE, list(BLOCKING)))
    return problems


def test_every_page_is_accessible_fits_a_phone_and_leaves_a_screenshot(
    live_server, signed_in_context, new_context, axe_source, scenes, screenshots
):
    base = live_server.url
    problems: list[str] = []
    for scheme in SCHEMES:
        for width in WIDTHS:
            options = {
                "viewport": {"width": width, "height": 900 if width > 600 else 800},
                "color_scheme": scheme,
            }
            browsers: dict[Any, Any] = {}
            for name, (user, path) in scenes["pages"].items():
                if user not in browsers:
                    context = (
                        new_context(**options)
                        if user is None
                        else signed_in_context(base, user, **options)
                    )
                    browsers[user] = context.new_page()
                page = browsers[user]
                answer = page.goto(base + path)
                assert answer.ok, f"{name}: {answer.status}"
                page.wait_for_load_state("networkidle")
                if width in (390, 1280):
                    shot = screenshots / f"page-{name}-{width}-{scheme}.png"
                    page.screenshot(path=shot, full_page=True)
                # The admin is Django's own: its accessibility is Django's to keep.
                if not name.startswith("admin"):
                    problems += problems_on(
                        page, f"{name} at {width} px, {scheme}", width, axe_source
                    )
    assert not problems, "\n".join(problems)
