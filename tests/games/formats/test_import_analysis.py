"""The analysis of an imported match: asked for on import, stored, shown on its replay and
over the API, like a match played here."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine import PlayMade, event_from_payload
from games.models import ImportedMatch, MatchAnalysis
from games.services.imports import imported_match_create
from tests.games.factories import start_match

pytestmark = pytest.mark.django_db

GNUBG_MATCH = (Path(__file__).parent / "data" / "gnubg_selfplay_5_point.mat").read_text()
#: Game 1 of gnubg's self-play, where gnubg's 11th play (51: 2/1 21/16) is a blunder at 1 ply.
FIRST_GAME = GNUBG_MATCH[: GNUBG_MATCH.index(" Game 2")]


@pytest.fixture
def imported(alice: Any, django_capture_on_commit_callbacks: Any) -> ImportedMatch:
    with django_capture_on_commit_callbacks(execute=True):
        return imported_match_create(uploaded_by=alice, text=FIRST_GAME)


def analysis_url(imported: ImportedMatch) -> str:
    return reverse("api-import-analysis", args=[imported.pk])


def blunder_step(imported: ImportedMatch) -> int:
    """The replay step of gnubg's 51: 2/1 21/16."""
    for step, entry in enumerate(imported.events, start=1):
        event = event_from_payload(entry["kind"], entry["payload"])
        if isinstance(event, PlayMade) and set(event.notation.split()) == {"21/16", "2/1"}:
            return step
    raise AssertionError("no such play")


@pytest.mark.slow
def test_an_import_is_analysed_once_it_is_imported(
    alice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client = APIClient()
    client.force_authenticate(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/api/imports/", {"text": FIRST_GAME}, format="json")
    assert response.status_code == 201
    imported = ImportedMatch.objects.get(pk=response.json()["id"])
    analysis = MatchAnalysis.objects.get(imported=imported)
    assert analysis.status == MatchAnalysis.Status.DONE and analysis.match is None
    assert analysis.seq == len(imported.events) and analysis.plies == 1


@pytest.mark.slow
def test_the_api_gives_the_figures_and_the_decisions_by_replay_step(
    imported: ImportedMatch,
) -> None:
    response = APIClient().get(analysis_url(imported))
    assert response.status_code == 200
    body = response.json()
    assert body["imported"] == imported.pk and "match" not in body
    assert body["status"] == "done" and body["seq"] == len(imported.events)
    assert [figures["player"] for figures in body["players"]] == ["gnubg", "root"]
    assert body["players"][0]["blunders"] == 1
    blunders = [d for d in body["decisions"] if d["mark"] == "blunder"]
    assert len(blunders) == 1
    assert blunders[0]["player"] == "gnubg" and blunders[0]["best"] == "13/12 13/8"
    assert blunders[0]["seq"] == blunder_step(imported)
    steps = [decision["seq"] for decision in body["decisions"]]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    kinds = {"checker": {"move"}, "cube": {"roll", "double"}, "take": {"take", "drop"}}
    for decision in body["decisions"]:
        assert imported.events[decision["seq"] - 1]["kind"] in kinds[decision["kind"]]


@pytest.mark.slow
def test_the_replay_shows_the_figures_and_marks_the_blunder(
    imported: ImportedMatch, alice: Any, signed_in: Any
) -> None:
    step = blunder_step(imported)
    url = reverse("import-replay", args=[imported.pk])
    page = html.unescape(APIClient().get(url, {"step": step}).content.decode())
    assert 'data-analysis="done"' in page and 'data-player="gnubg"' in page
    assert 'data-review="blunder"' in page and "bgsage's best: 13/12 13/8." in page
    assert page.count('data-mark="blunder"') == 1 and "best 13/12 13/8" in page
    assert f'data-step="{step}"' in page.split('data-mark="blunder"')[0].rsplit("<li", 1)[1]
    assert 'data-action="analyse"' not in page
    assert 'data-action="analyse"' in signed_in(alice).get(url).content.decode()


@pytest.mark.slow
def test_the_replays_button_analyses_the_import_again(
    imported: ImportedMatch, bob: Any, signed_in: Any, django_capture_on_commit_callbacks: Any
) -> None:
    MatchAnalysis.objects.filter(imported=imported).update(status="failed", result={})
    browser = signed_in(bob)
    with django_capture_on_commit_callbacks(execute=True):
        response = browser.post(reverse("import-replay-analyse", args=[imported.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("import-replay", args=[imported.pk])
    assert MatchAnalysis.objects.get(imported=imported).status == "done"
    anonymous = APIClient().post(reverse("import-replay-analyse", args=[imported.pk]))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert browser.post(reverse("import-replay-analyse", args=[999_999])).status_code == 404


@pytest.mark.slow
def test_asking_over_the_api_analyses_again(
    imported: ImportedMatch, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    assert APIClient().post(analysis_url(imported)).status_code in (401, 403)
    client = APIClient()
    client.force_authenticate(bob)
    with django_capture_on_commit_callbacks(execute=True) as queued:
        response = client.post(analysis_url(imported))
    assert response.status_code == 202 and queued == []  # done to its last step already
    assert response.json()["status"] == "done" and response.json()["imported"] == imported.pk
    MatchAnalysis.objects.filter(imported=imported).update(status="failed", result={})
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(analysis_url(imported))
    assert response.status_code == 202 and response.json()["status"] == "pending"
    assert client.get(analysis_url(imported)).json()["status"] == "done"


@pytest.mark.slow
def test_unknown_or_unanalysed_imports_are_not_found(imported: ImportedMatch, bob: Any) -> None:
    client = APIClient()
    client.force_authenticate(bob)
    assert client.get("/api/imports/999999/analysis/").status_code == 404
    assert client.post("/api/imports/999999/analysis/").status_code == 404
    MatchAnalysis.objects.filter(imported=imported).delete()
    response = client.get(analysis_url(imported))
    assert response.status_code == 404 and "POST" in response.json()["message"]
    page = client.get(reverse("import-replay", args=[imported.pk])).content.decode()
    assert 'data-analysis="none"' in page


@pytest.mark.slow
def test_an_analysis_is_of_exactly_one_match(
    imported: ImportedMatch, alice: Any, bob: Any, dice: Any
) -> None:
    dice.add(3, 1)
    match = start_match(alice, bob)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchAnalysis.objects.create()
    MatchAnalysis.objects.filter(imported=imported).delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchAnalysis.objects.create(match=match, imported=imported)
