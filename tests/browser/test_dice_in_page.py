"""The dice checked in the page (issue 36, item 3): the dice page of a finished match has the
browser recompute the commitment and every roll from the published log with WebCrypto, and
tick each roll; a log tampered with on its way (served by the test in place of the site's)
shows which roll fails. The match page shows the commitment from the first move."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import format_play
from tests.games.factories import act, make_user, reload, start_match, state_of

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 20_000


def played_then_resigned(turns: int) -> Any:
    """A 1-point match with real dice: ``turns`` plays, then a resignation, accepted."""
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, bob, length=1)
    players = {alice.pk: alice, bob.pk: bob}
    for _ in range(turns):
        match = reload(match)
        state = state_of(match)
        player = players[match.to_act_id]
        if state.phase == "rolling":
            act(match, player, "roll")
            match = reload(match)
            state = state_of(match)
        if state.phase == "moving":
            act(match, player, "move", play=format_play(state.legal_plays()[0]))
    match = reload(match)
    resigner = players[match.to_act_id]
    act(match, resigner, "resign", points=1)
    match = reload(match)
    act(match, players[match.to_act_id], "accept_resign")
    return reload(match), alice


def verdicts(page: Any) -> list[str]:
    return page.locator("[data-browser-verdict]").evaluate_all(
        "cells => cells.map(cell => cell.dataset.agrees || '')"
    )


def test_every_roll_is_verified_by_the_pages_script(live_server, signed_in_context, screenshots):
    match, alice = played_then_resigned(6)
    rolls = match.events.filter(kind__in=("opening_roll", "roll")).count()
    assert rolls >= 4
    for width in (1280, 390):
        context = signed_in_context(
            live_server.url, alice, viewport={"width": width, "height": 900}
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/matches/{match.pk}/dice/")
        page.wait_for_selector("[data-browser-verified=verified]", state="attached", timeout=WAIT)
        assert verdicts(page) == ["yes"] * rolls
        status = page.inner_text("[data-browser-status]")
        assert f"all {rolls} rolls follow from the seeds" in status
        page.screenshot(path=screenshots / f"dice-verified-in-page-{width}.png", full_page=True)


def test_a_tampered_log_shows_which_roll_fails(live_server, signed_in_context):
    match, alice = played_then_resigned(6)
    page = signed_in_context(live_server.url, alice).new_page()
    record_url = f"{live_server.url}/api/matches/{match.pk}/events/"
    tampered_roll = 2

    def serve_tampered(route: Any) -> None:
        events = json.loads(route.fetch().text())
        rolls = [e for e in events if e["kind"] in ("opening_roll", "roll")]
        first, second = rolls[tampered_roll]["payload"]["dice"]
        rolls[tampered_roll]["payload"]["dice"] = [second % 6 + 1, first]
        route.fulfill(json=events)

    page.route(record_url, serve_tampered)
    page.goto(f"{live_server.url}/matches/{match.pk}/dice/")
    page.wait_for_selector("[data-browser-verified=rolls-differ]", state="attached", timeout=WAIT)
    shown = verdicts(page)
    assert shown[tampered_roll] == "no" and shown.count("no") == 1
    assert f"roll {tampered_roll} (of {len(shown)})" in page.inner_text("[data-browser-status]")
    cell = page.inner_text(f'tr[data-roll="{tampered_roll}"] [data-browser-verdict]')
    assert "the log says" in cell


def test_a_seed_that_is_not_its_commitment_is_caught(live_server, signed_in_context):
    match, alice = played_then_resigned(2)
    page = signed_in_context(live_server.url, alice).new_page()

    def serve_other_seed(route: Any) -> None:
        events = json.loads(route.fetch().text())
        revealed = next(e for e in events if e["kind"] == "dice_revealed")
        revealed["payload"]["server_seed"] = "00" * 32
        route.fulfill(json=events)

    page.route(f"{live_server.url}/api/matches/{match.pk}/events/", serve_other_seed)
    page.goto(f"{live_server.url}/matches/{match.pk}/dice/")
    page.wait_for_selector(
        "[data-browser-verified=commitment-differs]", state="attached", timeout=WAIT
    )


def test_the_match_page_shows_the_commitment_from_the_start(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = start_match(alice, bob)
    committed = match.events.get(seq=1).payload["dice"]["server_seed_commitment"]
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"<code>{committed}</code>" in page
    client.force_login(bob)
    assert f"<code>{committed}</code>" in client.get(f"/matches/{match.pk}/").content.decode()
