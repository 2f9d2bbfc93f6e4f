"""Casual matches (a guest against the computer, pass-and-play) are their players' alone: every
way of reading one answers 404 to anyone else, signed in or not, as for a match that does not
exist, while the browser that plays it reads it as before. Other matches stay open to watch."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.games.factories import start_match
from tests.games.views.test_casual_play import (
    OPENING_THEN_TURNS,
    play_computer,
    start_pass_and_play,
)

pytestmark = pytest.mark.django_db


def read_paths(match_id: int) -> list[str]:
    """Every GET that shows something of a match."""
    return [
        reverse("match", args=[match_id]),
        reverse("match-poll", args=[match_id]) + "?seq=0",
        reverse("match-replay", args=[match_id]),
        reverse("match-dice", args=[match_id]),
        reverse("match-chat-messages", args=[match_id]),
        f"/api/matches/{match_id}/",
        f"/api/matches/{match_id}/events/",
        f"/api/matches/{match_id}/dice/",
        f"/api/matches/{match_id}/analysis/",
        f"/api/matches/{match_id}/chat/",
        f"/api/matches/{match_id}/export.mat",
        f"/api/matches/{match_id}/export.txt",
    ]


def post_paths(match_id: int) -> list[str]:
    """Every POST on a match whose answer a stranger could tell from a missing match's."""
    return [
        reverse("match-act", args=[match_id]),
        reverse("match-hand-over", args=[match_id]),
        reverse("match-rematch", args=[match_id]),
        reverse("match-chat", args=[match_id]),
        reverse("match-replay-analyse", args=[match_id]),
        f"/api/matches/{match_id}/analysis/",
    ]


@pytest.fixture
def private_matches(client, dice, alice):
    """A guest's match against the computer and a pass-and-play match, each in its own
    browser: ``[(browser, match), ...]``."""
    dice.add(*OPENING_THEN_TURNS)
    guests = (client, play_computer(client))
    dice.add(*OPENING_THEN_TURNS)
    table = Client()
    return [guests, (table, start_pass_and_play(table))]


@pytest.fixture
def strangers(signed_in, carol):
    """Someone signed out, and a third player signed in."""
    return {"signed out": Client(), "carol": signed_in(carol)}


def test_no_one_but_its_players_reads_a_casual_match(private_matches, strangers):
    missing = 999_999
    for _, match in private_matches:
        for who, stranger in strangers.items():
            for path, no_match in zip(read_paths(match.pk), read_paths(missing), strict=True):
                answer = stranger.get(path)
                if answer.status_code == 401:  # sign in first, whatever the id (the API's chat)
                    assert who == "signed out" and stranger.get(no_match).status_code == 401
                    continue
                assert answer.status_code == 404, (who, path, answer.status_code)
            for path in post_paths(match.pk):
                answer = stranger.post(path, {"seq": match.seq, "action": "roll", "text": "hi"})
                if answer.status_code in (302, 401):  # sign in first, whatever the id
                    assert who == "signed out", (path, answer.status_code)
                    continue
                assert answer.status_code == 404, (who, path, answer.status_code)


def test_a_guessed_etag_says_nothing_of_a_casual_match(private_matches, strangers):
    _, match = private_matches[0]
    guess = f'"m{match.pk}-s{match.seq}-px-dx"'
    for who, stranger in strangers.items():
        answer = stranger.get(f"/api/matches/{match.pk}/", headers={"if-none-match": guess})
        assert answer.status_code == 404, who


def test_its_own_browser_reads_a_casual_match_as_before(private_matches):
    for browser, match in private_matches:
        browser.post(reverse("match-hand-over", args=[match.pk]))
        for path in read_paths(match.pk):
            if "/analysis/" in path or path.startswith("/api/") and "/chat/" in path:
                continue  # no analysis before the end; the API's chat is for signed-in players
            answer = browser.get(path)
            assert answer.status_code in (200, 204), (path, answer.status_code)
        page = browser.get(reverse("match", args=[match.pk])).content.decode()
        assert 'data-action="move"' in page


def test_other_matches_stay_open_to_watch(dice, alice, bob, strangers):
    dice.add(3, 1)
    match = start_match(alice, bob)
    for who, stranger in strangers.items():
        for path in read_paths(match.pk):
            if "/analysis/" in path or "/chat/" in path:
                continue  # the analysis waits for the end; the chat is the players'
            answer = stranger.get(path)
            assert answer.status_code in (200, 204), (who, path, answer.status_code)


def test_the_watch_list_and_api_list_show_no_casual_match(private_matches, strangers):
    for who, stranger in strangers.items():
        listed = {
            int(pk) for pk in re.findall(r'href="/matches/(\d+)/"', stranger.get("/matches/").text)
        }
        api = {row["id"] for row in stranger.get("/api/matches/").json()["results"]}
        for _, match in private_matches:
            assert match.pk not in listed and match.pk not in api, who
