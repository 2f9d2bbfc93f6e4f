"""Each variant played to the end in the browser, by clicking in the board: both players,
each in their own browser context, in a 1-point match.

Hypergammon's short game is clicked from its start position. The others' games run 50-odd
turns a side (minutes of clicks each): the players first play at random through the services
until one of them is near home (a pip count of at most NEAR_THE_END), and the browser plays
the rest, the bearing off and the game's end, by clicking. Backgammon is also clicked from the
start in tests/browser/test_play_in_browser.py."""

from __future__ import annotations

import random
import time

import pytest

from games import services
from games.engine import Dice
from games.engine.variants import MATCH_VARIANTS
from games.models import Match
from tests.browser.test_play_in_browser import status, swapped, take_a_step
from tests.games.factories import act, reload, state_of
from tests.games.services.test_variants import play_to_the_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

NEAR_THE_END = 30
FROM_THE_START = {"hypergammon"}
#: Every match variant the site offers, once each: in a desktop window, and the newest on a
#: phone (acey-deucey's named double and Gul Bara's climb are clicked at both widths below).
ON_A_PHONE = ("tavla", "acey-deucey", "gul-bara", "jacquet")
PLAYS = [
    *((name, 1100) for name in MATCH_VARIANTS if name not in ON_A_PHONE),
    *((name, 390) for name in ON_A_PHONE),
]
NAME_A_DOUBLE = '[data-action="name_double"]'


def take_a_turns_step(page, chooser: random.Random) -> bool:
    """``take_a_step``, and after an acey-deucey 1-2 a click on one of the six doubles."""
    doubles = page.locator(NAME_A_DOUBLE)
    if doubles.count():
        assert doubles.count() == 6
        swapped(page, doubles.nth(chooser.randrange(6)).click)
        return True
    return take_a_step(page)


def near_the_end(alice, bob, variant: str) -> Match:
    """A 1-point match of ``variant`` between alice and bob, still under way, played at random
    until a player is near home (or, for FROM_THE_START, not at all). Random play can end a game
    early (a plakoto mother pinned, say): then a new match is tried, on the script's next dice."""
    chooser = random.Random(variant)
    for _ in range(10):
        challenge = services.challenge_create(
            challenger=alice, opponent=bob, variant=variant, match_length=1
        )
        match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
        if variant in FROM_THE_START:
            return match
        match = play_to_the_end(
            match, chooser, until=lambda state: min(state.pip_counts()) <= NEAR_THE_END
        )
        if reload(match).status == Match.Status.ACTIVE:
            return match
    raise AssertionError(f"ten {variant} matches played at random all ended early")


def refresh(page):
    swapped(page, lambda: page.click("#play-area .links a:text('Refresh')"))


@pytest.mark.parametrize(("variant", "width"), PLAYS, ids=[f"{v}-{w}" for v, w in PLAYS])
def test_each_variant_is_played_to_the_end_by_clicking(
    live_server, signed_in_page, screenshots, dice, alice, bob, variant, width
):
    """The dice are scripted from a seed, so each variant's match is the same on every run."""
    dice.add_random(20000, seed=f"{variant}-{width}")
    base = live_server.url
    match = near_the_end(alice, bob, variant)
    url = f"{base}/matches/{match.pk}/"
    pages = {}
    for user in (alice, bob):
        page = signed_in_page(base, user, viewport={"width": width, "height": 900})
        page.goto(url)
        page.screenshot(
            path=screenshots / f"variant-{variant}-{width}-clicking-starts-{user.username}.png"
        )
        pages[user.username] = page

    clicks, deadline = 0, time.monotonic() + 240
    chooser = random.Random(f"{variant}-{width}")
    while status(pages["alice"]) == "active":
        assert time.monotonic() < deadline, f"the {variant} match did not finish in time"
        for page in pages.values():
            refresh(page)
            while take_a_turns_step(page, chooser):
                clicks += 1
        refresh(pages["alice"])

    match = reload(match)
    assert match.status == Match.Status.FINISHED
    state = state_of(match)
    assert state.phase == "finished" and state.winner in (0, 1)
    winner = (alice, bob)[state.winner].username
    for page in pages.values():
        refresh(page)
        assert status(page) == "finished"
        assert f"{winner} won the match" in page.inner_text("#play-area")
        assert page.locator("[data-movable], [data-action=roll], [data-action=done]").count() == 0
        assert page.locator(NAME_A_DOUBLE).count() == 0
    # At least a roll and a checker moved by clicks: random play may stop a turn from the end.
    assert clicks >= 3


@pytest.mark.parametrize("width", [1280, 390])
def test_acey_deucey_a_one_two_then_a_double_named_by_a_click(
    live_server, signed_in_page, screenshots, dice, alice, bob, width
):
    """Alice wins the opening roll and rolls 1-2: she enters two waiting checkers by clicks,
    names 4-4 with its button, plays it, and rolls again (6-5)."""
    dice.add(3, 1, 2, 1, 6, 5)
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant="acey-deucey", match_length=1
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    page = signed_in_page(live_server.url, alice, viewport={"width": width, "height": 900})
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    if state_of(reload(match)).phase == "rolling":
        swapped(page, page.locator('[data-action="roll"]').click)
    assert page.locator('[data-point="in"][data-side="mine"] [data-movable]').count() == 1
    for _ in range(8):
        if page.locator(NAME_A_DOUBLE).count():
            break
        assert take_a_step(page)
    page.screenshot(path=screenshots / f"acey-deucey-{width}-naming.png")
    assert page.locator(NAME_A_DOUBLE).count() == 6
    swapped(page, page.locator(f'{NAME_A_DOUBLE}[data-number="4"]').click)
    state = state_of(reload(match))
    assert (state.phase, state.turn, state.dice_named) == ("moving", 0, True)
    assert (state.dice.first, state.dice.second) == (4, 4)
    for _ in range(12):
        state = state_of(reload(match))
        if not state.dice_named:
            break
        assert take_a_step(page)
    # Four 4s played in full: alice rolls again (or the server rolled for her).
    assert state.turn == 0 and not state.dice_named
    if state.phase == "rolling":
        swapped(page, page.locator('[data-action="roll"]').click)
    state = state_of(reload(match))
    assert (state.phase, state.turn, state.dice.first, state.dice.second) == ("moving", 0, 6, 5)


@pytest.mark.parametrize("width", [1280, 390])
def test_gul_bara_a_double_in_the_fourth_turn_climbs_by_clicks(
    live_server, signed_in_page, screenshots, dice, alice, bob, width
):
    """Alice wins the opening roll; three turns a side are played through the services; in her
    fourth turn alice rolls 5-5, plays its four 5s by clicks, is given 6-6 (the climb), plays it
    by clicks too, and then the turn is bob's."""
    dice.add(5, 2, 6, 5, 6, 5, 2, 1, 2, 1, 4, 1, 4, 1, 5, 5, 2, 1)
    challenge = services.challenge_create(
        challenger=alice, opponent=bob, variant="gul-bara", match_length=1
    )
    match = services.challenge_accept(challenge_id=challenge.pk, user=bob)
    for play in ("24/13", "24/13", "24/21", "24/21", "24/19", "24/19"):
        state = state_of(reload(match))
        user = match.players[state.turn]
        if state.phase == "rolling":
            act(reload(match), user, "roll")
        act(reload(match), user, "move", play=play)
    page = signed_in_page(live_server.url, alice, viewport={"width": width, "height": 900})
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    if state_of(reload(match)).phase == "rolling":
        swapped(page, page.locator('[data-action="roll"]').click)
    state = state_of(reload(match))
    assert (state.phase, state.turn, state.turns_taken) == ("moving", 0, (4, 3))
    assert (state.dice.first, state.dice.second) == (5, 5)
    for _ in range(12):
        if state_of(reload(match)).is_climbing():
            break
        assert take_a_step(page)
    state = state_of(reload(match))
    assert (state.phase, state.turn, state.dice.first, state.dice.second) == ("moving", 0, 6, 6)
    assert "alice climbs to 6-6" in page.inner_text("[data-climbing]")
    page.screenshot(path=screenshots / f"gul-bara-{width}-climbing.png")
    for _ in range(12):
        if state_of(reload(match)).turn != 0:
            break
        assert take_a_step(page)
    state = state_of(reload(match))
    assert state.turn == 1 and state.last_play.dice == Dice(6, 6)
