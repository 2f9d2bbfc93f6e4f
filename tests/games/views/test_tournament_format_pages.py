"""The pages of a Swiss, a double elimination and a round robin: each shown as players know it,
and the form that creates them."""

from __future__ import annotations

import re
from typing import Any

from games.models import Tournament
from tests.games.services.test_tournament_formats import entered, event, higher_seed, play_out


def test_the_form_creates_a_swiss_of_chosen_rounds(signed_in: Any, moderator: Any) -> None:
    form = {
        "name": "Swiss cup",
        "format": "swiss",
        "rounds": "5",
        "size": "16",
        "match_length": "3",
        "days_per_move": "1",
        "reserve_days": "4",
        "start_mode": "when_full",
    }
    client = signed_in(moderator)
    assert 'value="swiss"' in client.get("/tournaments/new/").content.decode()
    answer = client.post("/tournaments/new/", form)
    tournament = Tournament.objects.get()
    assert answer.status_code == 302
    assert (tournament.format, tournament.rounds) == ("swiss", 5)
    listed = client.get("/tournaments/").content.decode()
    assert 'data-tournament-format="swiss">Swiss</span>' in listed


def test_the_form_refuses_rounds_for_a_knockout(signed_in: Any, moderator: Any) -> None:
    form = {
        "name": "Cup",
        "format": "knockout",
        "rounds": "3",
        "size": "8",
        "match_length": "3",
        "days_per_move": "1",
        "reserve_days": "0",
        "start_mode": "when_full",
    }
    answer = signed_in(moderator).post("/tournaments/new/", form)
    assert answer.status_code == 400
    assert "Only a Swiss has a chosen number of rounds." in answer.content.decode()
    assert not Tournament.objects.exists()


def test_a_swiss_page_shows_its_rounds_and_standings_with_buchholz(
    client: Any, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "swiss", 5)
    entered(tournament, 5, "s", django_capture_on_commit_callbacks)
    play_out(tournament, moderator, django_capture_on_commit_callbacks, higher_seed)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Swiss (3 rounds)" in page
    assert "Round 3 of 3" in page and "has a bye" in page
    standings = page[page.index("data-swiss-standings") :]
    assert "Buchholz" in standings
    order = re.findall(r'data-standing="(\w+)"', standings)
    assert order[0] == "s1" and sorted(order) == ["s1", "s2", "s3", "s4", "s5"]
    data = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert data["format"] == "swiss" and data["rounds"] == 3
    assert [line["player"] for line in data["standings"]] == order
    assert all(line["buchholz"] is not None for line in data["standings"])


def test_a_double_elimination_page_shows_both_brackets_and_the_final(
    client: Any, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "double_elimination", 6)
    entered(tournament, 6, "d", django_capture_on_commit_callbacks)
    play_out(tournament, moderator, django_capture_on_commit_callbacks, higher_seed)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Winners&#x27; bracket" in page or "Winners' bracket" in page
    assert "data-losers-bracket" in page and "Losers&#x27; round 4" in page
    assert "data-grand-final" in page and "won by d1" in page
    assert 'data-tournament-winner="d1"' in page
    data = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert {pairing["part"] for pairing in data["bracket"]} == {"main", "losers", "final"}
    assert data["standings"] == []


def test_a_round_robin_page_shows_a_cross_table(
    client: Any, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "round_robin", 4)
    entered(tournament, 4, "r", django_capture_on_commit_callbacks)
    running = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert running.count('data-result="playing"') == 12
    play_out(
        tournament,
        moderator,
        django_capture_on_commit_callbacks,
        higher_seed,
        ends=("award", "timeout", "resign"),
    )
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    table = page[page.index("data-cross-table") :]
    assert re.findall(r'data-standing="(\w+)"', table) == ["r1", "r2", "r3", "r4"]
    assert table.count('data-result="won"') == table.count('data-result="lost"') == 6
    data = client.get(f"/api/tournaments/{tournament.pk}/").json()
    assert [line["won"] for line in data["standings"]] == [3, 2, 1, 0]
    assert data["standings"][0]["buchholz"] is None
