"""The opponent's play, as the player's open page shows it: swapped in, marked where it took
checkers from and brought them to (a hit checker on the bar included), glided into place once,
and not at all under reduced motion; on a desktop and a phone, in light and dark mode."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.browser.test_csp import REPORT_VIOLATIONS
from tests.games.factories import act, make_user, script_dice, start_match

pytestmark = pytest.mark.django_db(transaction=True)

# Counts the glides the page starts; with window.slowGlides, each lasts a minute, to be looked at.
COUNT_GLIDES = """
window.glides = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (keyframes, options) {
  window.glides += 1;
  return animate.call(this, keyframes, window.slowGlides ? {...options, duration: 60000} : options);
};
"""
CENTRE = (
    "e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"
)
GLIDE_MS = 400


@pytest.fixture
def alice_about_to_hit(monkeypatch):
    """bob opened 3-1 with 13/10 6/5, leaving a blot on alice's 20; alice rolled 6-4."""
    alice, bob = make_user("alice"), make_user("bob")
    dice = script_dice(monkeypatch, 1, 3)
    match = start_match(alice, bob)
    match = act(match, bob, "move", play="13/10 6/5")
    dice.add(6, 4)
    return alice, bob, act(match, alice, "roll")


def player_page(new_context, base, user, violations, **options):
    context = new_context(**options)
    context.expose_function("reportViolation", lambda report: violations.append(report))
    context.add_init_script(REPORT_VIOLATIONS)
    context.add_init_script(COUNT_GLIDES)
    session = Client()
    session.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": session.cookies["sessionid"].value, "url": base}]
    )
    return context.new_page()


def marks(page, attribute):
    return sorted(
        page.eval_on_selector_all(
            f"svg.board [{attribute}]",
            "all => all.map(p => p.dataset.point + (p.dataset.side ? ' ' + p.dataset.side : ''))",
        )
    )


def test_the_opponents_play_is_swapped_in_marked_and_glides_once(
    live_server, new_context, screenshots, alice_about_to_hit
):
    alice, bob, match = alice_about_to_hit
    violations: list[str] = []
    page = player_page(
        new_context, live_server.url, bob, violations, viewport={"width": 1280, "height": 900}
    )
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("svg.board[data-last-play]")
    assert marks(page, "data-last-to") == ["10", "5"], "his own opening play, before hers"
    page.evaluate("window.samePage = true")
    page.wait_for_timeout(GLIDE_MS + 200)
    page.evaluate("window.glides = 0; window.slowGlides = true")

    moved = act(match, alice, "move", play="24/20* 13/7")
    # No socket under the test's server: the page's poll finds the move and swaps it in.
    page.wait_for_selector(f'#play-area[data-match-seq="{moved.seq}"]', timeout=15_000)

    assert page.evaluate("window.samePage") is True, "swapped in, not loaded again"
    # In bob's numbering: alice's 24 is his 1, her 13 his 12, her 20 (the hit) his 5.
    assert marks(page, "data-last-from") == ["1", "12", "5"]
    assert marks(page, "data-last-to") == ["18", "5", "bar mine"]
    assert page.locator('[data-point="bar"][data-side="mine"] [data-arrived]').count() == 1
    assert page.evaluate("window.glides") == 3, "each checker moved glides in"
    # The hit checker starts from where it stood on the 5 point, and ends on the bar.
    page.evaluate("document.getAnimations().forEach(a => { a.pause(); a.currentTime = 0; })")
    hit = '[data-point="bar"][data-side="mine"] [data-arrived] circle.checker'
    start = page.eval_on_selector(hit, CENTRE)
    stood = page.eval_on_selector('[data-point="5"] .last-ghost', CENTRE)
    assert start == pytest.approx(stood, abs=1.5)
    page.evaluate("document.getAnimations().forEach(a => { a.currentTime = 24000; })")
    page.screenshot(path=screenshots / "last-play-gliding.png")
    page.evaluate("document.getAnimations().forEach(a => a.finish())")
    end = page.eval_on_selector(hit, CENTRE)
    assert end != pytest.approx(stood, abs=20)
    words = page.inner_text(".board-text")
    assert "Last play: alice rolled 6-4 and played 24/20* 13/7" in words
    page.wait_for_timeout(GLIDE_MS + 200)
    page.screenshot(path=screenshots / "last-play-desktop-light.png")

    page.reload()
    page.wait_for_selector("svg.board[data-last-play]")
    assert page.evaluate("window.glides") == 0, "a reload does not glide the same play again"
    assert violations == []


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("desktop-dark", {"viewport": {"width": 1280, "height": 900}, "color_scheme": "dark"}),
        ("phone-light", {"viewport": {"width": 390, "height": 844}, "color_scheme": "light"}),
        ("phone-dark", {"viewport": {"width": 390, "height": 844}, "color_scheme": "dark"}),
    ],
)
def test_the_marks_on_desktop_and_phone_in_light_and_dark(
    live_server, new_context, screenshots, alice_about_to_hit, name, options
):
    alice, bob, match = alice_about_to_hit
    act(match, alice, "move", play="24/20* 13/7")
    violations: list[str] = []
    phone = options["viewport"]["width"] < 500
    page = player_page(
        new_context,
        live_server.url,
        bob,
        violations,
        device_scale_factor=2 if phone else 1,
        **options,
    )
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("svg.board[data-last-play]")
    assert marks(page, "data-last-to") == ["18", "5", "bar mine"]
    page.wait_for_timeout(GLIDE_MS + 200)
    page.locator("svg.board").screenshot(path=screenshots / f"last-play-{name}-board.png")
    page.screenshot(path=screenshots / f"last-play-{name}.png")
    assert violations == []


def test_nothing_glides_under_reduced_motion(live_server, new_context, alice_about_to_hit):
    alice, bob, match = alice_about_to_hit
    act(match, alice, "move", play="24/20* 13/7")
    violations: list[str] = []
    page = player_page(new_context, live_server.url, bob, violations, reduced_motion="reduce")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("svg.board[data-last-play]")
    assert marks(page, "data-last-from") == ["1", "12", "5"]
    assert page.evaluate("window.glides") == 0
    assert violations == []
