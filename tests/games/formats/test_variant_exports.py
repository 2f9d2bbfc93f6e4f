"""Matches of every variant as files: nackgammon and hypergammon as .mat files that gnubg
imports as those variants, the others as a text record; the links that offer them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from backgammon_site.core.errors import ApplicationError
from games import services
from games.engine import MatchRules, fold
from games.engine.mat import NoMatFormError, export_mat
from games.engine.mat_reader import MatFileError, parse_mat
from games.engine.text_record import export_text_record
from games.models import ImportedMatch, Match
from games.services.imports import imported_match_create
from tests.conftest import GNUBG, NO_GNUBG
from tests.engine.test_variant_match import play_out
from tests.games.factories import reload
from tests.games.formats.matches import as_recorded, random_match

needs_gnubg = pytest.mark.skipif(GNUBG is None, reason=NO_GNUBG)
_PLAYING = re.compile(r"You are playing: (?P<variation>.+)")
_SCORE = re.compile(r"The score \(after \d+ games?\) is: \S+ (?P<first>\d+), \S+ (?P<second>\d+)")
_POSITION_ID = re.compile(r"Position ID: (?P<id>[A-Za-z0-9+/]{14})")


def gnubg_reads(tmp_path: Path, text: str, *commands: str) -> str:
    """What gnubg prints after importing the .mat ``text`` and running ``commands``."""
    assert GNUBG is not None
    path = tmp_path / "match.mat"
    path.write_text(text)
    lines = ["set confirm new off", f"import mat {path}", "show variation", *commands]
    finished = subprocess.run(
        [GNUBG, "-t", "-q"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    return finished.stdout


@needs_gnubg
@pytest.mark.parametrize(
    ("variant", "gnubg_name"),
    [
        ("nackgammon", "Nackgammon"),
        ("hypergammon", "3-chequer hypergammon"),
    ],
)
def test_gnubg_imports_our_match_as_its_variant_with_our_score(tmp_path, variant, gnubg_name):
    rules = MatchRules.of(variant)
    events = random_match(1, 3, rules=rules)
    ours = fold(3, events, rules)
    assert ours.is_finished()

    said = gnubg_reads(tmp_path, export_mat(("alice", "bob"), 3, events, rules), "show score")

    assert _PLAYING.search(said)["variation"].strip() == gnubg_name, said[-1500:]
    score = _SCORE.search(said)
    assert (int(score["first"]), int(score["second"])) == ours.score


@needs_gnubg
def test_the_variation_line_decides_where_the_moves_alone_would_not(tmp_path):
    # Seed 36: a nackgammon game resigned after one play, 24/21 24/23, which is legal from
    # backgammon's start too: without the Variation line gnubg takes it for backgammon.
    rules = MatchRules.of("nackgammon")
    events = random_match(36, 1, rules=rules)
    text = export_mat(("alice", "bob"), 1, events, rules)
    without = text.split("\n", 2)[2]
    assert not without.startswith("; [Variation")

    assert _PLAYING.search(gnubg_reads(tmp_path, text))["variation"].strip() == "Nackgammon"
    assert "Standard" in _PLAYING.search(gnubg_reads(tmp_path, without))["variation"]


@needs_gnubg
def test_gnubg_shows_our_nackgammon_board(tmp_path):
    rules = MatchRules.of("nackgammon")
    events = random_match(1, 3, rules=rules)[:9]  # game 1 under way, after nackgammon's start
    ours = fold(3, events, rules)
    assert ours.phase != "opening" and not ours.games

    said = gnubg_reads(tmp_path, export_mat(("alice", "bob"), 3, events, rules), "show board")

    assert _POSITION_ID.search(said)["id"] in {ours.position_id(0), ours.position_id(1)}


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon"])
def test_a_variant_mat_file_reads_back_as_that_variant(variant):
    rules = MatchRules.of(variant)
    events = random_match(7, 3, rules=rules)
    text = export_mat(("alice", "bob"), 3, events, rules)
    record = parse_mat(text)
    assert record.state.rules == rules
    assert as_recorded(3, record.events, rules) == as_recorded(3, events, rules)
    assert record.state.score == fold(3, events, rules).score


def test_a_variation_we_do_not_play_is_refused_by_line():
    text = '; [Variation "HyperGammon (1)"]\n\n 1 point match\n'
    with pytest.raises(MatFileError, match='line 3: the variation "HyperGammon \\(1\\)" is not'):
        parse_mat(text)


@pytest.mark.parametrize("variant", ["portes", "plakoto", "fevga", "long-nardi", "tavli"])
def test_the_other_variants_have_no_mat_form(variant):
    with pytest.raises(NoMatFormError, match="has no .mat form"):
        export_mat(("alice", "bob"), 3, [], MatchRules.of(variant))


def test_a_nackgammon_file_is_not_imported_as_backgammon(alice):
    text = export_mat(("a", "b"), 1, [], MatchRules.of("nackgammon")) + " Game 1\n a : 0  b : 0\n"
    with pytest.raises(ApplicationError, match="Only backgammon matches can be imported"):
        imported_match_create(uploaded_by=alice, text=text)
    assert not ImportedMatch.objects.exists()


def test_the_text_record_of_a_finished_tavli_match_in_its_games():
    rules = MatchRules.of("tavli", "tavli-best-of-three")
    events, ours = play_out(rules, 3, seed=7)
    text = export_text_record(("ann", "bob"), 3, events, rules, [("Started", "2026-12-03")])
    lines = text.splitlines()
    assert lines[:6] == [
        "Tavli match",
        "Players: ann (first), bob (second)",
        "Variant: Tavli (portes, plakoto and fevga in turn), no doubling cube",
        "Length: best of three games",
        "Started: 2026-12-03",
        "",
    ]
    headings = [line for line in lines if line.startswith("Game ")]
    assert headings[0] == "Game 1: Portes, ann 0, bob 0"
    assert len(headings) == len(ours.games)
    assert lines[-1] == f"{('ann', 'bob')[ours.winner]} won the match: " + (
        f"ann {ours.score[0]}, bob {ours.score[1]}."
    )


def start_in(variant: str, dice: Any, first: Any, second: Any) -> Match:
    for _ in range(4):
        dice.add(5, 3)
    return services.match_start(
        first_player=first,
        second_player=second,
        match_length=3,
        rated=False,
        time_control=dict(services.DEFAULT_TIME_CONTROL),
        rules=MatchRules.of(variant),
    )


@pytest.mark.django_db
def test_a_plakoto_match_downloads_as_a_text_record(client, dice, moderator, alice, bob):
    match = start_in("plakoto", dice, alice, bob)
    services.match_award(match_id=match.pk, moderator=moderator, winner=bob, reason="left")
    match = reload(match)
    response = client.get(f"/api/matches/{match.pk}/export.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert f'filename="match-{match.pk}.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    started = match.events.get(seq=1).payload["dice"]["server_seed_commitment"]
    assert text.startswith("Plakoto match\nPlayers: alice (first), bob (second)\n")
    assert "Variant: Plakoto\nLength: 3 points\n" in text
    assert f"Started: {match.created_at:%Y-%m-%d}" in text
    assert f"Dice commitment: SHA-256 {started}" in text
    assert "Server seed (revealed): " in text
    assert "Game 1: Plakoto, alice 0, bob 0" in text and "opening roll 5-3" in text
    assert "awarded the match to bob: left" in text
    assert text.endswith("bob won the match: alice 0, bob 0.\n")
    refused = client.get(f"/api/matches/{match.pk}/export.mat")
    assert refused.status_code == 400 and refused.json()["code"] == "mat_unavailable"
    assert f"/api/matches/{match.pk}/export.txt" in refused.json()["message"]
    assert client.get("/api/matches/999999/export.txt").json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_nackgammon_match_downloads_as_a_mat_file_with_its_variation(client, dice, alice, bob):
    match = start_in("nackgammon", dice, alice, bob)
    response = client.get(f"/api/matches/{match.pk}/export.mat")
    assert response.status_code == 200
    assert response.content.decode().startswith('; [Variation "NackGammon"]\n\n 3 point match\n')


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("variant", "url_name", "label"),
    [
        ("nackgammon", "api-match-export-mat", "Download .mat"),
        ("fevga", "api-match-export-text", "Download the record (text)"),
    ],
)
def test_the_match_and_replay_pages_link_the_file(
    client, dice, alice, bob, variant, url_name, label
):
    match = start_in(variant, dice, alice, bob)
    link = f'href="{reverse(url_name, args=[match.pk])}"'
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert link in page and label in page
    replay = client.get(reverse("match-replay", args=[match.pk])).content.decode()
    assert link in replay and label in replay
