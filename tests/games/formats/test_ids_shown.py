"""Position ID, Match ID and XGID on the match page and on every step of a replay."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from games.engine.match_ids import gnubg_ids, xgid_of
from games.log.integrity import fold_events
from tests.games.factories import act, events_of, start_match, state_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(dice, alice, bob):
    dice.add(3, 1)
    match = start_match(alice, bob)
    match = act(match, alice, "move", play="8/5 6/5")
    dice.add(6, 5)
    return act(match, bob, "roll")


def test_the_match_page_shows_all_three_ids(client, match):
    text = html.unescape(client.get(reverse("match", args=[match.pk])).content.decode())
    state = state_of(match)
    position_id, match_id = gnubg_ids(state)
    for label, value in (
        ("Position ID", position_id),
        ("Match ID", match_id),
        ("XGID", xgid_of(state)),
    ):
        assert f"<dt>{label}</dt><dd><code>{value}</code></dd>" in text


def test_every_replay_step_shows_the_ids_of_its_position(client, match):
    events = events_of(match)
    for step in range(len(events) + 1):
        response = client.get(reverse("match-replay", args=[match.pk]), {"step": step})
        text = html.unescape(response.content.decode())
        state = fold_events(match.match_length, events[:step])
        position_id, match_id = gnubg_ids(state)
        assert f"<code data-position-id>{position_id}</code>" in text
        assert f"<code data-match-id>{match_id}</code>" in text
        assert f"<code data-xgid>{xgid_of(state)}</code>" in text
