"""The move list beside the board: a finished match's is exactly the moves of its .mat export,
game by game, and each entry opens its step of the replay."""

from __future__ import annotations

import html
import itertools
import random
import re
from collections.abc import Callable
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import MatchState
from games.engine.mat import LEFT_WIDTH
from games.log import records
from games.log.exports import mat_export
from games.log.records import match_log
from games.models import Match
from games.views.move_list import KeptMoves, LogMoves, log_moves
from tests.games.factories import make_user
from tests.games.services.test_variants import accepted, play_to_the_end

pytestmark = pytest.mark.django_db


def mat_moves(text: str) -> list[list[str]]:
    """Each game's entries, line by line and left to right, as the .mat file has them (a long
    left entry runs on into the right column, as gnubg writes it too)."""
    games: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith(" Game "):
            games.append([])
        elif re.match(r"^ {0,2}\d+\) ", line):
            body = line[line.index(")") + 2 :]
            if body[:LEFT_WIDTH].strip():
                right = re.search(r"\s+(\d\d:|Doubles =>|Takes|Drops|Wins)", body[3:])
                split = len(body) if right is None else 3 + right.start()
                cells = [body[:split], body[split:]]
            else:
                cells = ["", body]
            games[-1] += [
                cell.strip()
                for cell in cells
                if cell.strip() and not cell.strip().startswith("Wins")
            ]
    return games


def page_moves(page: str) -> list[list[str]]:
    games = []
    for table in re.findall(r'<table class="moves".*?</table>', page, re.S):
        cells = re.findall(r'<td data-move translate="no">(?:<a [^>]*>(.*?)</a>)?', table)
        games.append([html.unescape(text) for text in cells if text])
    return games


@pytest.mark.parametrize("seed", [1, 2])
def test_the_move_list_of_a_finished_match_is_its_mat_files_moves(client, seed):
    alice, bob = make_user("alice"), make_user("bob")
    match = accepted(alice, bob, match_length=3, variant="backgammon")
    match = play_to_the_end(match, random.Random(seed))
    page = client.get(f"/matches/{match.pk}/").content.decode()

    listed = page_moves(page)
    assert listed == mat_moves(mat_export(match))
    assert sum(len(game) for game in listed) > 20
    assert any("Doubles" in entry for game in listed for entry in game) or seed != 1
    steps = re.findall(
        r'<td data-move translate="no"><a href="/matches/\d+/replay/\?step=(\d+)"', page
    )
    assert steps == sorted(steps, key=int) and len(set(steps)) == len(steps)


def one_action_at_a_time() -> Callable[[MatchState], bool]:
    """For ``play_to_the_end``'s ``until``: stop after one more action."""
    asked = itertools.count()
    return lambda state: next(asked) == 1


def test_the_page_at_a_new_seq_reads_only_the_events_after_the_list_it_kept(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = accepted(alice, bob, match_length=1, variant="backgammon")
    chooser = random.Random(5)
    for _ in range(6):
        match = play_to_the_end(match, chooser, until=one_action_at_a_time())
    client.get(f"/matches/{match.pk}/")
    seen = match.seq
    match = play_to_the_end(match, chooser, until=one_action_at_a_time())
    assert match.seq > seen

    with (
        mock.patch.object(records, "event_from_payload", wraps=records.event_from_payload) as read,
        CaptureQueriesContext(connection) as queries,
    ):
        page = client.get(f"/matches/{match.pk}/").content.decode()

    assert read.call_count == match.seq - seen
    rows_asked = [query["sql"] for query in queries if '"games_matchevent"' in query["sql"]]
    assert len(rows_asked) == 1 and f'"seq" > {seen} ' in rows_asked[0]
    cache.clear()
    assert page_moves(page) == page_moves(client.get(f"/matches/{match.pk}/").content.decode())


def test_a_move_list_kept_and_extended_at_every_seq_is_the_mat_files_moves(client):
    """Shown at every seq of a match, each event is read once."""
    alice, bob = make_user("alice"), make_user("bob")
    match = accepted(alice, bob, match_length=1, variant="backgammon")
    chooser = random.Random(2)
    with mock.patch.object(records, "event_from_payload", wraps=records.event_from_payload) as read:
        while match.status == Match.Status.ACTIVE:
            client.get(f"/matches/{match.pk}/")
            match = play_to_the_end(match, chooser, until=one_action_at_a_time())
        page = client.get(f"/matches/{match.pk}/").content.decode()

    assert page_moves(page) == mat_moves(mat_export(match))
    logged = [row for row in match_log(match) if row.kind not in records.RECORD_KINDS]
    assert read.call_count == len(logged) > 30


def test_a_kept_list_of_another_log_under_the_same_id_is_not_extended(client):
    alice, bob = make_user("alice"), make_user("bob")
    match = accepted(alice, bob, match_length=1, variant="backgammon")
    match = play_to_the_end(match, random.Random(1), until=one_action_at_a_time())
    other = LogMoves.of(1, match_log(match)[:1])
    cache.set(f"move-list:{match.pk}", KeptMoves(1, "0" * 64, other))

    assert log_moves(match) == LogMoves.of(1, match_log(match))
