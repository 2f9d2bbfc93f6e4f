"""Bad input on the pages and the API is answered with a 4xx and changes nothing.

Each case was a 500 once: a Unicode digit that ``str.isdigit`` accepts and ``int`` refuses, a
number too long for ``int``, a NUL character that PostgreSQL refuses in a query, a JSON body
nested deeper than Python's parser goes.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from knox.models import AuthToken

from accounts.models import Profile
from games.models import Challenge, Match, MatchEvent
from tests.games.factories import make_user, reload, script_dice, start_match

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\u00b2"
TOO_MANY_DIGITS = "9" * 5000
NUL = "\x00"


@pytest.fixture
def browser() -> Client:
    return Client(raise_request_exception=False)


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


@pytest.fixture
def match(monkeypatch, players):
    # Opening roll 3 (alice) v 1 (bob): alice is to play 3-1.
    script_dice(monkeypatch, 3, 1)
    return start_match(*players)


def log_of(match: Match) -> list[tuple[int, str]]:
    return list(MatchEvent.objects.filter(match=match).values_list("seq", "kind"))


@pytest.mark.parametrize("points", [SUPERSCRIPT_TWO, TOO_MANY_DIGITS, "-1", "0", "4", "1.5"])
def test_resigning_with_points_that_are_not_1_2_or_3_is_refused(browser, match, players, points):
    browser.force_login(players[0])
    before = log_of(match)
    response = browser.post(
        f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "resign", "points": points}
    )
    assert response.status_code == 400
    assert "1 (single), 2 (gammon) or 3 (backgammon)" in response.content.decode()
    assert log_of(match) == before


@pytest.mark.parametrize("seq", [SUPERSCRIPT_TWO, TOO_MANY_DIGITS, "", "x", NUL])
def test_an_action_without_a_readable_seq_is_refused(browser, match, players, seq):
    browser.force_login(players[0])
    before = log_of(match)
    response = browser.post(f"/matches/{match.pk}/act/", {"seq": seq, "action": "resign"})
    assert response.status_code == 400
    assert log_of(match) == before


def test_an_action_with_a_nul_in_its_play_is_refused(browser, match, players):
    browser.force_login(players[0])
    before = log_of(match)
    response = browser.post(
        f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "move", "play": "8/5\x006/5"}
    )
    assert response.status_code == 400
    assert log_of(match) == before


def test_a_resignation_with_good_points_still_goes_through(browser, match, players):
    browser.force_login(players[0])
    response = browser.post(
        f"/matches/{match.pk}/act/", {"seq": match.seq, "action": "resign", "points": "2"}
    )
    assert response.status_code == 302
    assert log_of(match)[-1][1] == "resign"


@pytest.mark.parametrize("select", [SUPERSCRIPT_TWO, TOO_MANY_DIGITS, NUL])
def test_an_impossible_checker_to_select_shows_the_board_without_a_selection(
    browser, match, players, select
):
    browser.force_login(players[0])
    response = browser.get(f"/matches/{match.pk}/", {"select": select})
    assert response.status_code == 200
    assert "data-selected" not in response.content.decode()


@pytest.mark.parametrize("name", [NUL, "a\x00b", "x" * 5000])
def test_dice_statistics_of_an_impossible_player_are_not_found(browser, name):
    assert browser.get("/dice/", {"player": name}).status_code == 404


@pytest.mark.parametrize("path", ["/players/%00/", "/players/a%00b/"])
def test_the_profile_of_an_impossible_player_is_not_found(browser, path):
    assert browser.get(path).status_code == 404


def test_a_nul_in_the_seed_of_an_accepted_challenge_is_refused(browser, players):
    alice, bob = players
    challenge = Challenge.objects.create(
        challenger=bob,
        opponent=alice,
        match_length=1,
        rated=False,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 0},
    )
    browser.force_login(alice)
    response = browser.post(f"/challenges/{challenge.pk}/accept/", {"seed": "lucky\x00"})
    assert response.status_code == 400
    assert reload_challenge(challenge).status == Challenge.Status.OPEN
    assert not Match.objects.exists()


def reload_challenge(challenge: Challenge) -> Challenge:
    return Challenge.objects.get(pk=challenge.pk)


def test_a_nul_in_the_seed_of_a_new_challenge_is_refused(browser, players):
    alice, bob = players
    browser.force_login(alice)
    response = browser.post(
        "/challenges/new/",
        {
            "opponent": "bob",
            "match_length": "1",
            "clock": "days",
            "days_per_move": "1",
            "seed": "lucky\x00",
        },
    )
    assert response.status_code == 400
    assert not Challenge.objects.exists()


@pytest.mark.parametrize(
    "form",
    [
        {"match_length": "1", "second_player": "Bo\x00b"},
        {"match_length": "1", "first_player": "x" * 5000},
        {"match_length": TOO_MANY_DIGITS},
        {"match_length": SUPERSCRIPT_TWO},
    ],
)
def test_pass_and_play_with_impossible_fields_starts_nothing(browser, form):
    accounts = get_user_model().objects.count()
    response = browser.post("/play/pass-and-play/", form)
    assert response.status_code == 400
    assert get_user_model().objects.count() == accounts and not Match.objects.exists()


def test_vacation_neither_on_nor_off_is_refused(browser, players):
    browser.force_login(players[0])
    response = browser.post("/settings/vacation/", {"vacation": NUL})
    assert response.status_code == 400
    assert "Say whether vacation is to be on or off." in response.content.decode()
    assert Profile.objects.get(user=players[0]).vacation_started_at is None


DEEP = "[" * 5000 + "]" * 5000


def test_a_json_body_nested_too_deep_is_a_400_with_the_usual_error(browser, match, players):
    browser.force_login(players[0])
    before = log_of(match)
    response = browser.post(
        f"/api/matches/{match.pk}/actions/", DEEP, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert "nested deeper than" in response.json()["message"]
    assert log_of(match) == before
    assert reload(match).seq == match.seq


@pytest.mark.parametrize(
    "path",
    ["/api/auth/token/", "/api/challenges/", "/api/vacation/", "/api/imports/"],
)
def test_every_api_post_refuses_a_body_nested_too_deep(browser, players, path):
    browser.force_login(players[0])
    response = browser.post(path, DEEP, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"
    assert not Challenge.objects.exists()


def test_brackets_inside_strings_do_not_count_as_nesting(browser, match, players):
    browser.force_login(players[0])
    body = json.dumps({"seq": match.seq, "action": "move", "play": "[{" * 90})
    response = browser.post(
        f"/api/matches/{match.pk}/actions/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] != "parse_error"


def test_a_body_as_deep_as_allowed_is_read(browser, match, players):
    browser.force_login(players[0])
    nested = json.dumps({"seq": match.seq, "action": "move", "play": [[[["8/5 6/5"]]]]})
    response = browser.post(
        f"/api/matches/{match.pk}/actions/", nested, content_type="application/json"
    )
    assert (response.status_code, response.json()["code"]) == (400, "invalid")


def test_revoking_a_token_named_with_a_nul_revokes_nothing(browser, players):
    browser.force_login(players[0])
    AuthToken.objects.create(players[0])
    response = browser.post("/settings/api-tokens/revoke/", {"token_key": NUL}, follow=True)
    assert "There is no such token of yours." in response.content.decode()
    assert AuthToken.objects.filter(user=players[0]).count() == 1


def test_an_idempotency_key_with_a_nul_is_refused(browser, match, players):
    browser.force_login(players[0])
    before = log_of(match)
    response = browser.post(
        f"/api/matches/{match.pk}/actions/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5"},
        content_type="application/json",
        headers={"Idempotency-Key": f"retry{NUL}1"},
    )
    assert response.status_code == 400
    assert "Idempotency-Key" in response.json()["fields"]
    assert log_of(match) == before


@pytest.mark.parametrize("token", [f"abc{NUL}def", "caf\u00e9" * 10, "1234-5678"])
def test_a_token_that_is_not_hexadecimal_is_refused_before_any_query(browser, players, token):
    AuthToken.objects.create(players[0])
    response = browser.get("/api/matches/", headers={"Authorization": f"Token {token}"})
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
