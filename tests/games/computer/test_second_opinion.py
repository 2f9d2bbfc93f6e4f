"""GNU Backgammon's second opinion: both engines' losses on every decision, the disputed ones
marked, each player's figures by the engine the viewer picks (API and replay page), and an
analysis that says why the second opinion is missing where gnubg is not there or fails.

The match is 1 point of random plays (``random_match(5, 1)``, imported from its .mat): bgsage
at 1 ply and gnubg at 0 ply (the tests' quick depths) differ by more than 0.1 on three of its
decisions.
"""

from __future__ import annotations

import importlib
import shutil
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.computer.analysis import GNUBG_FAILED, GNUBG_MISSING
from games.computer.gnubg import GnubgRun
from games.computer.review import DISPUTED, review_match
from games.engine.mat import export_mat
from games.models import ImportedMatch, MatchAnalysis
from games.services.imports import imported_match_create
from tests.conftest import GNUBG, NO_GNUBG
from tests.games.formats.matches import random_match

# Each test runs GNU Backgammon's analysis in a process of its own.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EVENTS = random_match(5, 1)
MAT = export_mat(("alice", "bob"), 1, EVENTS)
FIGURES = ("decisions", "errors", "blunders", "equity_lost", "error_rate", "performance_rating")


def imported_match(alice: Any, capture: Any) -> ImportedMatch:
    """The match imported by Alice, and analysed as every import is."""
    with capture(execute=True):
        return imported_match_create(uploaded_by=alice, text=MAT)


def analysis(imported: ImportedMatch, **query: str) -> dict[str, Any]:
    response = APIClient().get(reverse("api-import-analysis", args=[imported.pk]), query)
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def test_every_decision_has_both_losses_and_the_disputed_ones_are_marked(
    gnubg: str, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    body = analysis(imported_match(alice, django_capture_on_commit_callbacks))
    assert [(e["engine"], e["plies"]) for e in body["engines"]] == [("bgsage", 1), ("gnubg", 0)]
    assert body["unavailable"] == [] and body["engine"] == "bgsage"
    decisions = body["decisions"]
    assert all(set(d["opinions"]) == {"bgsage", "gnubg"} for d in decisions)
    for decision in decisions:
        sage, gnubg_says = decision["opinions"]["bgsage"], decision["opinions"]["gnubg"]
        gap = abs(sage["equity_lost"] - gnubg_says["equity_lost"])
        if abs(gap - DISPUTED) > 0.001:
            assert decision["disputed"] == (gap > DISPUTED), decision
        assert (decision["best"], decision["equity_lost"], decision["mark"]) == (
            sage["best"],
            sage["equity_lost"],
            sage["mark"],
        )
    assert sum(d["disputed"] for d in decisions) == 3


def test_a_players_figures_are_from_the_engine_the_viewer_picks_with_the_other_beside(
    gnubg: str, alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    imported = imported_match(alice, django_capture_on_commit_callbacks)
    by_sage, by_gnubg = analysis(imported), analysis(imported, engine="gnubg")
    assert (by_sage["engine"], by_gnubg["engine"]) == ("bgsage", "gnubg")
    for sage_row, gnubg_row in zip(by_sage["players"], by_gnubg["players"], strict=True):
        assert sage_row["other"] == {"engine": "gnubg", **{f: gnubg_row[f] for f in FIGURES}}
        assert gnubg_row["other"] == {"engine": "bgsage", **{f: sage_row[f] for f in FIGURES}}
    for row in by_gnubg["players"]:
        own = [d for d in by_gnubg["decisions"] if d["player"] == row["player"] and d["counts"]]
        assert row["decisions"] == len(own) > 0
        assert row["errors"] == sum(d["mark"] == "error" for d in own)
        assert row["blunders"] == sum(d["mark"] == "blunder" for d in own)
        lost = sum(d["opinions"]["gnubg"]["equity_lost"] for d in own)
        assert row["performance_rating"] == pytest.approx(500 * lost / len(own), abs=0.02)
    assert by_sage["players"] != by_gnubg["players"]


def test_the_replay_offers_both_engines_and_lists_the_disputed_decisions(
    gnubg: str, alice: Any, django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    imported = imported_match(alice, django_capture_on_commit_callbacks)
    url = reverse("import-replay", args=[imported.pk])
    page = client.get(url).content.decode()
    assert '<strong aria-current="true" data-engine="bgsage">bgsage</strong>' in page
    assert 'data-engine="gnubg">gnubg</a>' in page and "engine=gnubg" in page
    assert page.count("<th>gnubg: PR</th>") == 1 and page.count('data-pr="gnubg"') == 2
    disputed = [d for d in analysis(imported)["decisions"] if d["disputed"]]
    assert page.count("<tr data-disputed=") == len(disputed) == 3
    step = disputed[0]["seq"]
    page = client.get(url, {"engine": "gnubg", "step": step}).content.decode()
    assert '<strong aria-current="true" data-engine="gnubg">gnubg</strong>' in page
    assert f"gnubg's best: {disputed[0]['opinions']['gnubg']['best']}." in page
    assert "data-review-disputed" in page


def test_without_gnubg_the_analysis_is_bgsages_alone_and_says_why(
    alice: Any, django_capture_on_commit_callbacks: Any, client: Any
) -> None:
    imported = imported_match(alice, django_capture_on_commit_callbacks)
    body = analysis(imported, engine="gnubg")
    assert body["engine"] == "bgsage" and [e["engine"] for e in body["engines"]] == ["bgsage"]
    assert body["unavailable"] == [
        {"engine": "gnubg", "reason": GNUBG_MISSING, "detail": GNUBG_MISSING}
    ]
    assert all(row["other"] is None for row in body["players"])
    assert not any(d["disputed"] for d in body["decisions"])
    page = client.get(reverse("import-replay", args=[imported.pk])).content.decode()
    assert f"The second opinion from gnubg is unavailable: {GNUBG_MISSING}" in page
    assert 'data-engine="gnubg"' not in page


def test_once_gnubg_is_installed_asking_again_adds_its_opinion(
    alice: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    imported = imported_match(alice, django_capture_on_commit_callbacks)
    assert "gnubg" not in MatchAnalysis.objects.get(imported=imported).result["engines"]
    if GNUBG is None:
        pytest.skip(NO_GNUBG)
    settings.GNUBG_PATH, settings.GNUBG_ANALYSIS_PLIES = GNUBG, 0
    client = APIClient()
    client.force_authenticate(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("api-import-analysis", args=[imported.pk]))
    assert response.status_code == 202
    assert [e["engine"] for e in analysis(imported)["engines"]] == ["bgsage", "gnubg"]


def test_a_program_that_gives_no_analysis_leaves_bgsages_alone(
    alice: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.GNUBG_PATH = shutil.which("false")
    body = analysis(imported_match(alice, django_capture_on_commit_callbacks))
    assert body["status"] == "done" and [e["engine"] for e in body["engines"]] == ["bgsage"]
    (missing,) = body["unavailable"]
    assert missing["engine"] == "gnubg"
    assert missing["reason"] == GNUBG_FAILED
    assert missing["detail"].startswith("GNU Backgammon gave no analysis: gnubg wrote no analysis")


def test_an_unknown_engine_is_refused(alice: Any, django_capture_on_commit_callbacks: Any) -> None:
    imported = imported_match(alice, django_capture_on_commit_callbacks)
    url = reverse("api-import-analysis", args=[imported.pk])
    response = APIClient().get(url, {"engine": "xg"})
    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert "engine" in response.json()["fields"]


@pytest.mark.skipif(GNUBG is None, reason=NO_GNUBG)
def test_gnubgs_analysis_of_another_match_is_no_opinion_of_this_one() -> None:
    other = random_match(4, 1)
    assert GNUBG is not None
    run = GnubgRun.start(export_mat(("alice", "bob"), 1, other), program=GNUBG, plies=0)
    review = review_match(1, EVENTS, plies=1, second_opinion=run.result)
    assert list(review.engines) == ["bgsage"]
    assert review.unavailable["gnubg"].startswith("GNU Backgammon gave no analysis: gnubg")
    assert all(decision.opinion("gnubg") is None for decision in review.decisions)


def test_analyses_stored_before_the_second_opinion_keep_bgsages_figures() -> None:
    migration = importlib.import_module("games.migrations.0024_analysis_second_opinion")
    decision = {"seq": 4, "player": 0, "kind": "checker", "chosen": "24/23 24/21"}
    verdict = {"best": "8/5 6/5", "equity_lost": 0.12, "mark": "blunder"}
    players = [{"decisions": 1, "performance_rating": 60.0}, {"decisions": 0}]
    earlier = {
        "plies": 2,
        "thresholds": {"error": 0.04, "blunder": 0.08},
        "players": players,
        "decisions": [{**decision, **verdict}],
    }
    now = migration.with_opinions(earlier)
    assert now["engines"] == {"bgsage": {"plies": 2}} and now["players"] == {"bgsage": players}
    assert now["decisions"] == [
        {**decision, "disputed": False, "opinions": {"bgsage": {**verdict, "counts": True}}}
    ]
    assert now["unavailable"] == {"gnubg": migration.BEFORE_GNUBG}
    assert migration.with_opinions(now) == now
    back = migration.bgsage_alone(now)
    assert back == {**earlier, "thresholds": {**earlier["thresholds"], "disputed": 0.1}}
