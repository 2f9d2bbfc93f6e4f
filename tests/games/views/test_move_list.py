"""The move list beside the board: a finished match's is exactly the moves of its .mat export,
game by game, and each entry opens its step of the replay."""

from __future__ import annotations

import html
import random
import re

import pytest

from games.engine.mat import LEFT_WIDTH
from games.log.exports import mat_export
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
