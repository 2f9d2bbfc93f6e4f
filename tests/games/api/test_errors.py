"""Every way a request can be wrong gets one JSON error shape, and writes nothing.

The shape: {"code": str, "message": str}, plus "fields" (code invalid) or "current_seq"
(code stale) and nothing else; tests.games.api.conftest.assert_error checks it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings as django_settings

from games import selectors
from games.models import Challenge, Match
from tests.games.api.conftest import assert_error, client_for, footprint, opened

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(dice, alice, bob) -> Match:
    """Bob is on roll (he may roll or double)."""
    return opened(dice, alice, bob)


@pytest.fixture
def moving(dice, match, bob) -> Match:
    """Bob rolled 2-1 and must move."""
    dice.add(2, 1)
    response = client_for(bob).post(
        f"/api/matches/{match.pk}/actions/", {"seq": match.seq, "action": "roll"}, format="json"
    )
    assert response.status_code == 200, response.content
    return Match.objects.get(pk=match.pk)


def post_action(user: Any, match: Match, body: Any, **extra: Any) -> Any:
    return client_for(user).post(f"/api/matches/{match.pk}/actions/", body, format="json", **extra)


# --- Stale and illegal ----------------------------------------------------------------------


@pytest.mark.parametrize("offset", [-1, -3, 1, 100])
def test_stale_seq_is_409_with_the_current_seq(match, bob, offset):
    before = footprint()

    response = post_action(bob, match, {"seq": match.seq + offset, "action": "double"})

    body = assert_error(response, 409, "stale")
    assert body["current_seq"] == match.seq
    assert str(match.seq) in body["message"]
    assert footprint() == before


def test_illegal_play_is_400_with_a_readable_reason(moving, bob):
    before = footprint()

    response = post_action(bob, moving, {"seq": moving.seq, "action": "move", "play": "24/18 13/8"})

    body = assert_error(response, 400, "illegal")
    assert "24/18 13/8" in body["message"]
    assert "2-1" in body["message"]
    assert "24/21" in body["message"]  # it names legal plays
    assert footprint() == before


@pytest.mark.parametrize(
    ("action", "words"),
    [("take", "take"), ("drop", "drop"), ("accept_resign", "resign"), ("move", "move")],
)
def test_an_action_out_of_turn_is_illegal_with_a_reason(match, bob, action, words):
    body = {"seq": match.seq, "action": action}
    if action == "move":
        body["play"] = "24/21"
    before = footprint()

    response = post_action(bob, match, body)

    error = assert_error(response, 400, "illegal")
    assert words in error["message"].lower()
    assert footprint() == before


@pytest.mark.parametrize(
    ("play", "named"),
    [("24/22 13/x", "13/x"), ("13/x", "13/x"), ("banana", "banana"), ("24/21 */7", "*/7")],
)
def test_malformed_notation_names_the_part_it_cannot_read(moving, bob, play, named):
    before = footprint()

    response = post_action(bob, moving, {"seq": moving.seq, "action": "move", "play": play})

    body = assert_error(response, 400)
    assert body["code"] in ("illegal", "invalid", "play")
    assert named in body["message"]
    assert footprint() == before


def test_a_move_without_a_play_is_refused(moving, bob):
    before = footprint()

    response = post_action(bob, moving, {"seq": moving.seq, "action": "move"})

    body = assert_error(response, 400)
    assert "play" in body["message"].lower()
    assert footprint() == before


def test_resigning_without_points_is_refused(match, bob):
    before = footprint()

    response = post_action(bob, match, {"seq": match.seq, "action": "resign"})

    body = assert_error(response, 400)
    assert "1" in body["message"] and "3" in body["message"]
    assert footprint() == before


# --- Malformed requests ------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["{bad", "", "[1, 2", '{"seq": 1,}', "\x00\x01", "nul"])
def test_malformed_json_is_a_json_400(match, bob, raw):
    before = footprint()

    response = client_for(bob).post(
        f"/api/matches/{match.pk}/actions/", data=raw, content_type="application/json"
    )

    body = assert_error(response, 400)
    if raw:
        assert body["code"] == "parse_error", body
    assert footprint() == before


@pytest.mark.parametrize("raw", ["[]", '"roll"', "42", "null"])
def test_json_that_is_not_an_object_is_invalid(match, bob, raw):
    before = footprint()

    response = client_for(bob).post(
        f"/api/matches/{match.pk}/actions/", data=raw, content_type="application/json"
    )

    assert_error(response, 400, "invalid")
    assert footprint() == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"seq": "x"}, "seq"),
        ({"seq": None}, "seq"),
        ({"seq": -1}, "seq"),
        ({"seq": True}, "seq"),
        ({"action": 5}, "action"),
        ({"action": None}, "action"),
        ({"action": ["roll"]}, "action"),
        ({"action": "resign", "points": "2"}, "points"),
        ({"action": "resign", "points": 4}, "points"),
        ({"action": "resign", "points": True}, "points"),
        ({"action": "move", "play": 123}, "play"),
        ({"action": "move", "play": ["24/21"]}, "play"),
        ({"action": "move", "play": "x" * 201}, "play"),
    ],
    ids=lambda value: (
        "-".join(f"{k}={v!r}"[:24] for k, v in value.items()) if isinstance(value, dict) else value
    ),
)
def test_wrong_types_are_invalid_and_name_the_field(match, bob, change, field):
    before = footprint()

    response = post_action(bob, match, {"seq": match.seq, "action": "roll", **change})

    body = assert_error(response, 400, "invalid")
    assert field in body["fields"], body
    assert body["message"].startswith(f"{field}:"), body
    assert footprint() == before


def test_missing_fields_are_invalid_and_named(match, bob):
    before = footprint()

    response = post_action(bob, match, {})

    body = assert_error(response, 400, "invalid")
    assert set(body["fields"]) == {"seq", "action"}
    assert footprint() == before


@pytest.mark.parametrize("action", ["fly", "ROLL", "", "undo"])
def test_unknown_action_is_refused(match, bob, action):
    before = footprint()

    response = post_action(bob, match, {"seq": match.seq, "action": action})

    body = assert_error(response, 400, "invalid")
    assert "action" in body["fields"]
    assert footprint() == before


def test_form_encoded_body_is_refused_as_json(match, bob):
    before = footprint()

    response = client_for(bob).post(
        f"/api/matches/{match.pk}/actions/",
        data=f"seq={match.seq}&action=double",
        content_type="application/x-www-form-urlencoded",
    )

    assert_error(response, 415, "unsupported_media_type")
    assert footprint() == before


HUGE = 200 * 1024


@pytest.mark.parametrize(
    "target",
    ["action", "action-with-key", "challenge", "accept-with-key", "token"],
)
def test_a_huge_body_is_a_json_4xx_and_writes_nothing(dice, match, alice, bob, carol, target):
    challenge = Challenge.objects.create(
        challenger=carol, opponent=bob, match_length=3, time_control={"kind": "correspondence"}
    )
    dice.add(2, 1, 3, 1)  # enough for an accepted roll or a started match: neither may happen
    padding = "x" * HUGE
    client = client_for(bob)
    extra: dict[str, Any] = {}
    if target.startswith("action"):
        url = f"/api/matches/{match.pk}/actions/"
        body = {"seq": match.seq, "action": "roll", "padding": padding}
        if target == "action-with-key":
            extra["HTTP_IDEMPOTENCY_KEY"] = "huge-1"
    elif target == "challenge":
        url = "/api/challenges/"
        body = {"opponent": "alice", "match_length": 3, "padding": padding}
    elif target == "accept-with-key":
        # Accepting reads no body, so without a key a huge body goes unread (and the accept
        # happens); with a key the body is read for the fingerprint, and refused.
        url = f"/api/challenges/{challenge.pk}/accept/"
        body = {"padding": padding}
        extra["HTTP_IDEMPOTENCY_KEY"] = "huge-2"
    else:
        url = "/api/auth/token/"
        body = {"username": "bob", "password": padding}
    raw = json.dumps(body)
    assert len(raw) > HUGE
    before = footprint()

    response = client.post(url, data=raw, content_type="application/json", **extra)

    assert 400 <= response.status_code < 500, response.status_code
    assert_error(response, response.status_code)
    assert footprint() == before


# --- Not found, method not allowed, server errors -----------------------------------------------


def test_the_tests_run_with_debug_off_so_the_error_handlers_apply():
    assert django_settings.DEBUG is False


@pytest.mark.parametrize(
    "path",
    ["/api/nope/", "/api/matches/abc/", "/api/matches/1/nothing/", "/api/", "/api/challenges/x/"],
)
@pytest.mark.parametrize("method", ["get", "post"])
def test_unknown_url_under_api_is_a_json_404(alice, path, method):
    assert django_settings.DEBUG is False
    before = footprint()

    response = getattr(client_for(alice), method)(path, {}, format="json")

    body = assert_error(response, 404, "not_found")
    assert path in body["message"]
    assert footprint() == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/matches/999999/"),
        ("get", "/api/matches/999999/events/"),
        ("post", "/api/matches/999999/actions/"),
        ("post", "/api/challenges/999999/accept/"),
        ("post", "/api/challenges/999999/decline/"),
        ("post", "/api/challenges/999999/cancel/"),
    ],
)
def test_unknown_match_or_challenge_is_a_json_404(match, bob, method, path):
    before = footprint()

    response = getattr(client_for(bob), method)(path, {"seq": 1, "action": "roll"}, format="json")

    body = assert_error(response, 404, "not_found")
    assert "999999" in body["message"]
    assert footprint() == before


def test_challenging_an_unknown_player_is_a_json_404(alice):
    before = footprint()

    response = client_for(alice).post(
        "/api/challenges/", {"opponent": "nobody-here", "match_length": 3}, format="json"
    )

    body = assert_error(response, 404, "not_found")
    assert "nobody-here" in body["message"]
    assert footprint() == before


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", "/api/matches/{id}/"),
        ("put", "/api/matches/{id}/"),
        ("post", "/api/matches/{id}/"),
        ("get", "/api/matches/{id}/actions/"),
        ("patch", "/api/matches/{id}/actions/"),
        ("post", "/api/matches/{id}/events/"),
        ("delete", "/api/matches/"),
        ("get", "/api/challenges/1/accept/"),
        ("get", "/api/auth/token/"),
        ("get", "/api/auth/token/revoke/"),
    ],
)
def test_method_not_allowed_is_a_json_405(match, bob, method, path):
    before = footprint()

    response = getattr(client_for(bob), method)(path.format(id=match.pk), {}, format="json")

    body = assert_error(response, 405, "method_not_allowed")
    assert method.upper() in body["message"]
    assert footprint() == before


def test_a_server_error_under_api_is_json_too(match, bob, monkeypatch):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "match_view", broken)
    client = client_for(bob)
    client.raise_request_exception = False

    response = client.get(f"/api/matches/{match.pk}/")

    body = assert_error(response, 500, "server_error")
    assert "boom" not in body["message"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"opponent": "alice"}, "self_challenge"),
        ({"opponent": "bob", "match_length": 0}, "invalid"),
        ({"opponent": "bob", "match_length": 26}, "invalid"),
        ({"opponent": "bob", "match_length": "three"}, "invalid"),
        ({"opponent": "bob", "time_control": {"kind": "blitz"}}, "time_control"),
        (
            {"opponent": "bob", "time_control": {"kind": "correspondence", "days_per_move": 0}},
            "time_control",
        ),
        ({"opponent": "bob", "time_control": "fast"}, "time_control"),
        (
            {
                "opponent": "bob",
                "time_control": {"kind": "live", "minutes": 5, "colour": "red"},
            },
            "time_control",
        ),
        ({}, "invalid"),
    ],
    ids=lambda value: (
        "-".join(f"{k}={v!r}"[:30] for k, v in value.items()) or "empty"
        if isinstance(value, dict)
        else value
    ),
)
def test_a_bad_challenge_is_refused_with_a_reason(alice, bob, body, code):
    before = footprint()

    response = client_for(alice).post("/api/challenges/", body, format="json")

    assert_error(response, 400, code)
    assert footprint() == before


def test_bad_query_parameters_are_invalid(alice, match):
    client = client_for(alice)
    for path, field in [
        ("/api/matches/?status=paused", "status"),
        (f"/api/matches/{match.pk}/events/?after=x", "after"),
        (f"/api/matches/{match.pk}/events/?after=-1", "after"),
        ("/api/challenges/?direction=sideways", "direction"),
    ]:
        body = assert_error(client.get(path), 400, "invalid")
        assert field in body["fields"], (path, body)


@pytest.mark.parametrize("page", ["99", "0", "x"])
def test_a_page_out_of_range_is_a_json_404(alice, match, page):
    assert_error(client_for(alice).get(f"/api/matches/?page={page}"), 404, "not_found")


def test_export_mat_is_text_and_a_missing_match_is_json(client, monkeypatch):
    from tests.games.factories import make_user, script_dice, start_match

    script_dice(monkeypatch, 3, 1)
    match = start_match(make_user("mat_a"), make_user("mat_b"))
    response = client.get(f"/api/matches/{match.pk}/export.mat", HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert response.content.decode().startswith(" 5 point match")
    assert "attachment" in response["Content-Disposition"]
    missing = client.get("/api/matches/999999/export.mat")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/1312767899284592324239211357121019904/",
        "/api/matches/99999999999999999999/actions/",
        "/api/challenges/9223372036854775808/accept/",
        "/matches/99999999999999999999/",
    ],
)
def test_an_id_too_long_for_any_record_is_not_found(client, bob, path):
    """Found by schemathesis: such an id reached SQLite as a number it cannot hold (500)."""
    client.force_login(bob)
    response = client.get(path) if "accept" not in path else client.post(path)
    assert response.status_code == 404
