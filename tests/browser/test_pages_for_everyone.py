"""Every main page, as a person sees it on a phone and on a desktop, in light and dark mode:
axe-core finds no serious or critical accessibility violation (checked at 390 px, where
layouts are tightest, in dark mode: test_axe_every_language runs every rule in light mode),
no page is wider than a phone's screen nor cuts a button off, a long match's replay is about
two screens tall on a phone, and each page leaves a screenshot at 390 px and 1280 px as a
record."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import services
from tests.games.factories import act, make_user, start_match
from tests.games.services.test_variants import play_to_the_end
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

#: A long match's replay on a phone, with both engines' analysis and the language switch: under
#: three and a half screens of a 390 x 844 phone however long the match, because its move list,
#: log and tables scroll inside their own boxes (a 5-point match's replay was once 14,600 px
#: tall). The phone's board is 467 px tall since its checkers grew to 28 px (it was 305).
TALLEST_REPLAY = 2800

# A button of the page cut off by the screen's edge, or by a box it scrolls in (a table that
# scrolls sideways may hide a column, never a button a player needs).
CUT_OFF_BUTTONS = """
() => {
  const screen = document.documentElement.clientWidth;
  const cut = [...document.querySelectorAll("main button, main .button, main [type=submit]")]
    .filter((button) => button.getClientRects().length && !button.closest(".visually-hidden"))
    .filter((button) => {
      let right = screen;
      for (let box = button.parentElement; box; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible") {
          right = Math.min(right, box.getBoundingClientRect().right);
        }
      }
      return button.getBoundingClientRect().right > right + 1;
    });
  return cut.map((button) => button.textContent.trim() || button.value);
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
    # A whole 5-point match played at random (and analysed as it ends): a long replay, log
    # and move list. Scripted dice are not the seeds' dice: its dice page reports mismatches.
    dice.add_random(4000, seed=7)
    played = play_to_the_end(start_match(alice, bob, length=5, rated=True), random.Random(3))
    services.challenge_create(challenger=bob, opponent=alice, match_length=3)
    admin = make_user("admin", is_staff=True, is_superuser=True)
    return {
        "alice": alice,
        "admin": admin,
        "pages": {
            "home": (None, "/"),
            "signup": (None, "/accounts/signup/"),
            "login": (None, "/accounts/login/"),
            "lobby": (alice, "/"),  # with a challenge to alice
            "match-your-turn": (alice, f"/matches/{your_turn.pk}/"),
            "match-checker-chosen": (alice, f"/matches/{your_turn.pk}/?select=8"),
            "match-notice": (alice, f"/matches/{your_turn.pk}/?steps=1-6"),
            "match-their-turn": (alice, f"/matches/{their_turn.pk}/"),
            "match-cube-offered": (bob, f"/matches/{offered.pk}/"),
            "match-finished": (alice, f"/matches/{finished.pk}/"),
            "replay": (alice, f"/matches/{played.pk}/replay/"),
            "replay-step": (alice, f"/matches/{played.pk}/replay/?step=40"),
            "dice": (alice, f"/matches/{played.pk}/dice/"),
            "profile": (alice, "/players/alice/"),
            "leaderboard": (alice, "/leaderboard/"),
            "watch": (alice, "/matches/"),
            "settings": (alice, "/settings/"),
            "appearance": (alice, "/settings/appearance/"),
            "admin-match": (admin, f"/admin/games/match/{played.pk}/change/"),
        },
    }


def problems_on(page: Any, where: str, width: int, axe_source: str | None) -> list[str]:
    """What is wrong with the page shown on a phone: wider than its screen, a button cut off,
    a replay too tall, or (at 390 px in dark mode, given axe's script) what axe-core finds: in
    light mode test_axe_every_language runs every rule of axe on these pages. The admin is
    Django's own: its accessibility and its buttons are Django's to keep, its width is ours."""
    problems: list[str] = []
    if width > 600:
        return problems
    fit = page.evaluate(WIDER_THAN_SCREEN)
    if fit["page"] > fit["screen"]:
        problems.append(f"{where}: {fit['page']} px wide, {fit['widest']}")
    if where.startswith("admin"):
        return problems
    problems.extend(f"{where}: {name!r} cut off" for name in page.evaluate(CUT_OFF_BUTTONS))
    height = page.evaluate("document.documentElement.scrollHeight")
    if where.startswith("replay") and height > TALLEST_REPLAY:
        problems.append(f"{where}: {height} px tall, over {TALLEST_REPLAY}")
    if width == 390 and axe_source and "dark" in where:
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
                if width in (390, 1280):
                    shot = screenshots / f"page-{name}-{width}-{scheme}.png"
                    page.screenshot(path=shot, full_page=True)
                problems += problems_on(page, f"{name} at {width} px, {scheme}", width, axe_source)
    assert not problems, "\n".join(problems)
