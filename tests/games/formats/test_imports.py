"""Importing a .mat file: the API, the upload page and the imported match's replay."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine import event_from_payload, fold
from games.engine.mat_reader import parse_mat
from games.models import ImportedMatch
from tests.games.formats.matches import as_recorded

pytestmark = pytest.mark.django_db

GNUBG_MATCH = (Path(__file__).parent / "data" / "gnubg_selfplay_5_point.mat").read_text()
BROKEN = GNUBG_MATCH.replace("  3) 53: 8/3 6/3 ", "  3) 53: 8/3 6/1 ")


def api_client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_posting_mat_text_imports_the_match(alice):
    response = api_client(alice).post("/api/imports/", {"text": GNUBG_MATCH}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["players"] == ["gnubg", "root"]
    assert body["uploaded_by"] == "alice"
    assert body["match_length"] == 5
    assert body["score"] == [2, 10]
    assert body["finished"] is True and body["winner"] == "root"
    assert [game["crawford"] for game in body["games"]] == [False] * 4 + [True, False]
    assert body["position_id"] and body["match_id"] and body["xgid"].startswith("XGID=")
    imported = ImportedMatch.objects.get(pk=body["id"])
    assert imported.mat_text == GNUBG_MATCH
    assert imported.score == [2, 10]


def test_imported_events_are_in_the_match_logs_payload_form(alice):
    body = api_client(alice).post("/api/imports/", {"text": GNUBG_MATCH}, format="json").json()
    detail = api_client().get(f"/api/imports/{body['id']}/").json()
    events = [event_from_payload(entry["kind"], entry["payload"]) for entry in detail["events"]]
    assert events == list(parse_mat(GNUBG_MATCH).events)
    assert fold(5, events).score == (2, 10)
    assert detail["events"][0] == {"kind": "opening_roll", "payload": {"dice": [1, 2]}}


def test_uploading_the_file_as_multipart_imports_it_too(alice):
    upload = SimpleUploadedFile("match.mat", GNUBG_MATCH.encode("utf-8-sig"))
    response = api_client(alice).post("/api/imports/", {"file": upload}, format="multipart")
    assert response.status_code == 201
    assert response.json()["score"] == [2, 10]


def test_a_large_file_uploads_as_multipart(alice):
    padded = ("; " + "x" * 998 + "\n") * 300 + GNUBG_MATCH  # 300 kB of comments first
    upload = SimpleUploadedFile("match.mat", padded.encode())
    response = api_client(alice).post("/api/imports/", {"file": upload}, format="multipart")
    assert response.status_code == 201


def test_the_imported_match_exports_again_as_mat(alice):
    body = api_client(alice).post("/api/imports/", {"text": GNUBG_MATCH}, format="json").json()
    response = api_client().get(f"/api/imports/{body['id']}/export.mat")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert "attachment" in response["Content-Disposition"]
    again = parse_mat(response.content.decode())
    assert as_recorded(5, again.events) == as_recorded(5, parse_mat(GNUBG_MATCH).events)


def test_a_file_breaking_the_rules_is_a_400_naming_the_line(alice):
    response = api_client(alice).post("/api/imports/", {"text": BROKEN}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_mat"
    assert body["line"] == 9
    assert "line 9" in body["message"] and "not a legal play of 5-3" in body["message"]
    assert not ImportedMatch.objects.exists()


@pytest.mark.parametrize(
    "payload",
    [{}, {"text": 5}, {"text": ""}, {"text": "x" * 10}, {"text": "bad\x00file"}],
)
def test_bad_requests_are_400_with_the_error_shape(alice, payload):
    response = api_client(alice).post("/api/imports/", payload, format="json")
    assert response.status_code == 400
    assert set(response.json()) >= {"code", "message"}
    assert not ImportedMatch.objects.exists()


def test_a_malformed_multipart_body_is_a_documented_415(alice):
    # Found by schemathesis: a multipart body with no parts at all.
    boundary = "20d37ff14c27e0f437027f4be9ce08e5"
    response = api_client(alice).post(
        "/api/imports/",
        data=f"--{boundary}\r\n\xb3--{boundary}--\r\n".encode("latin-1"),
        content_type=f"multipart/form-data; boundary={boundary}",
    )
    assert response.status_code in (400, 415)
    assert set(response.json()) >= {"code", "message"}
    schema = api_client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "415" in schema["paths"]["/api/imports/"]["post"]["responses"]


def test_importing_needs_a_signed_in_player():
    response = api_client().post("/api/imports/", {"text": GNUBG_MATCH}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_an_unknown_import_is_a_404(db):
    assert api_client().get("/api/imports/999/").json()["code"] == "not_found"
    response = api_client().get("/api/imports/999/export.mat")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_the_schema_describes_the_imports(db):
    schema = api_client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/imports/" in schema["paths"]
    assert "/api/imports/{import_id}/" in schema["paths"]
    assert "/api/imports/{import_id}/export.mat" in schema["paths"]


# --- The pages ---


def page(response) -> str:
    return html.unescape(response.content.decode())


def words(text: str) -> str:
    """The page's text, tags dropped and spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def test_the_upload_page_imports_a_file_and_shows_its_replay(signed_in, alice):
    browser = signed_in(alice)
    assert browser.get(reverse("import-new")).status_code == 200
    upload = SimpleUploadedFile("match.mat", GNUBG_MATCH.encode())
    response = browser.post(reverse("import-new"), {"file": upload})
    imported = ImportedMatch.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("import-replay", args=[imported.pk])

    text = page(browser.get(response["Location"]))
    assert "Replay: gnubg v root" in text
    assert 'data-replay-last="391"' in text
    assert "gnubg 2, root 10" in text
    assert "Step 391 of 391: root accepted the resignation; root wins game 6" in words(text)
    assert "and the match, 2-10" in words(text)
    assert "root played 2-1: 13/11 24/23" in words(text)
    assert "XGID=" in text and "data-position-id" in text
    assert reverse("api-import-export-mat", args=[imported.pk]) in text
    # Its move list: six games, the last entry made the one the board shows.
    assert text.count("data-move-game=") == 6
    entries = re.findall(r'<a href="[^"]*" data-step="(\d+)"( aria-current="step")?>', text)
    assert [step for step, current in entries if current] == [entries[-1][0]]
    assert len(entries) > 150
    assert "gnubg v root" in page(browser.get(reverse("import-new")))  # listed as yours


def test_pasted_text_imports_too(signed_in, alice):
    response = signed_in(alice).post(reverse("import-new"), {"text": GNUBG_MATCH})
    assert response.status_code == 302
    assert ImportedMatch.objects.get().first_player_name == "gnubg"


def test_a_bad_file_is_shown_on_the_form_with_its_line(signed_in, alice):
    response = signed_in(alice).post(reverse("import-new"), {"text": BROKEN})
    assert response.status_code == 400
    text = page(response)
    assert "The match was not imported" in text and "line 9" in text
    nothing = signed_in(alice).post(reverse("import-new"), {"text": "  "})
    assert nothing.status_code == 400 and "Choose a .mat file" in page(nothing)
    assert not ImportedMatch.objects.exists()


def test_the_replay_steps_through_an_imported_match(client, alice):
    body = api_client(alice).post("/api/imports/", {"text": GNUBG_MATCH}, format="json").json()
    url = reverse("import-replay", args=[body["id"]])
    text = page(client.get(url, {"step": 2}))
    assert "Step 2 of 391: root played 2-1: 13/11 24/23" in words(text)
    assert "made by the server" not in text
    assert client.get(reverse("import-replay", args=[999])).status_code == 404


def test_uploading_needs_a_signed_in_player(client, db):
    response = client.get(reverse("import-new"))
    assert response.status_code == 302 and "login" in response["Location"]
