"""Time on the pages and in the API: both clocks, the deadline, and the vacation switch."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import Profile
from games import services
from tests.games.factories import make_user, reload, script_dice, start_match

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def now(monkeypatch):
    moment = {"now": START}
    monkeypatch.setattr(timezone, "now", lambda: moment["now"])
    return moment


@pytest.fixture
def players():
    return make_user("alice"), make_user("bob")


def started(monkeypatch, players, time_control):
    script_dice(monkeypatch, 3, 1)  # alice rolled 3-1 and moves
    return start_match(*players, time_control=time_control)


def clock_of(html, player):
    found = re.search(rf'data-clock="{player}">(.*?)</div>', html, re.S)
    assert found, html
    return " ".join(found.group(1).split())


def test_a_live_match_shows_both_clocks_with_the_running_one_counting_down(
    client, monkeypatch, players, now
):
    match = started(monkeypatch, players, {"kind": "live", "minutes": 8, "increment_seconds": 10})
    now["now"] = START + timedelta(seconds=75)

    html = client.get(f"/matches/{match.pk}/").content.decode()

    assert 'data-countdown="405" data-clock-kind="live">6:45<' in clock_of(html, "alice")
    assert "8:00" in clock_of(html, "bob")
    assert "data-countdown" not in clock_of(html, "bob")
    assert "games/clock.js" in html


def test_a_correspondence_match_shows_the_deadline_and_the_reserves(
    client, monkeypatch, players, now
):
    match = started(
        monkeypatch, players, {"kind": "correspondence", "days_per_move": 1, "reserve_days": 8}
    )
    now["now"] = START + timedelta(hours=30)

    html = client.get(f"/matches/{match.pk}/").content.decode()

    alice = clock_of(html, "alice")
    assert "7 days 18 hours" in alice and "to decide, by" in alice
    assert 'datetime="2026-03-10T12:00:00+00:00"' in alice
    assert "(reserve 8 days)" in alice
    assert clock_of(html, "bob") == "<dt>bob</dt> <dd> reserve 8 days </dd>"


def test_the_api_gives_the_deadline_and_clocks(client, monkeypatch, players, now):
    alice, _ = players
    match = started(monkeypatch, players, {"kind": "live", "minutes": 8, "increment_seconds": 10})
    client.force_login(alice)

    state = client.get(f"/api/matches/{match.pk}/").json()

    assert state["deadline"] == "2026-03-01T12:08:00Z"
    assert state["clocks"] == {
        "kind": "live",
        "per_move_seconds": 0.0,
        "increment_seconds": 10.0,
        "time_left_seconds": [480.0, 480.0],
        "running": "alice",
        "paused_time_left_seconds": None,
    }


def test_the_etag_changes_when_a_vacation_pauses_the_deadline(client, monkeypatch, players, now):
    alice, bob = players
    match = started(monkeypatch, players, None)
    client.force_login(bob)
    etag = client.get(f"/api/matches/{match.pk}/").headers["ETag"]

    services.vacation_start(user=alice)
    response = client.get(f"/api/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag)

    assert response.status_code == 200
    assert response.json()["deadline"] is None
    assert response.json()["clocks"]["paused_time_left_seconds"] == 9 * 86400


def test_the_vacation_page_switches_vacation_on_and_off(client, monkeypatch, players, now):
    alice, _ = players
    match = started(monkeypatch, players, None)
    client.force_login(alice)
    assert (
        "<strong data-vacation-days>4</strong>"
        in client.get("/settings/vacation/").content.decode()
    )

    page = client.post("/settings/vacation/", {"vacation": "on"}, follow=True).content.decode()

    assert "your deadlines are paused" in page and "1 match waits for you" in page
    assert reload(match).deadline is None
    match_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "on vacation: time paused with 9 days left" in match_page
    now["now"] = START + timedelta(hours=5)
    page = client.post("/settings/vacation/", {"vacation": "off"}, follow=True).content.decode()
    assert "Welcome back" in page and "<strong data-vacation-days>3</strong>" in page
    assert reload(match).deadline == START + timedelta(hours=5, days=9)


def test_the_vacation_page_refuses_nonsense_and_changes_nothing(client, players):
    alice, _ = players
    client.force_login(alice)

    page = client.post("/settings/vacation/", {"vacation": "maybe"}, follow=True).content.decode()
    assert "Say whether vacation is to be on or off." in page
    client.post("/settings/vacation/", {"vacation": "on"})
    page = client.post("/settings/vacation/", {"vacation": "on"}, follow=True).content.decode()
    assert "already on vacation" in page
    assert Profile.objects.get(user=alice).vacation_days == 4


def test_the_vacation_page_needs_a_signed_in_player(client):
    response = client.get("/settings/vacation/")
    assert response.status_code == 302 and "/accounts/login/" in response.headers["Location"]


def test_vacation_over_the_api(client, monkeypatch, players, now):
    alice, _ = players
    match = started(monkeypatch, players, None)
    client.force_login(alice)

    assert client.get("/api/vacation/").json() == {
        "on": False,
        "days": 4,
        "started_at": None,
        "ends_at": None,
    }
    on = client.post("/api/vacation/", {"on": True}, content_type="application/json")
    again = client.post("/api/vacation/", {"on": True}, content_type="application/json")
    nonsense = client.post("/api/vacation/", {"on": "perhaps"}, content_type="application/json")

    assert on.status_code == 200
    assert on.json()["ends_at"] == "2026-03-05T12:00:00Z"
    assert (again.status_code, again.json()["code"]) == (400, "vacation_on")
    assert nonsense.status_code == 400
    assert reload(match).deadline is None
    now["now"] = START + timedelta(days=1, hours=1)
    off = client.post("/api/vacation/", {"on": False}, content_type="application/json").json()
    assert (off["on"], off["days"]) == (False, 2)
    assert reload(match).deadline == now["now"] + timedelta(days=9)


def test_vacation_over_the_api_needs_a_signed_in_player(client, db):
    assert client.get("/api/vacation/").status_code in (401, 403)


def test_a_match_without_a_reserve_says_so(client, monkeypatch, players, now):
    match = started(monkeypatch, players, {"kind": "correspondence", "days_per_move": 7})

    html = client.get(f"/matches/{match.pk}/").content.decode()

    assert "(no reserve)" in clock_of(html, "alice")
    assert clock_of(html, "bob") == "<dt>bob</dt> <dd> no reserve </dd>"
