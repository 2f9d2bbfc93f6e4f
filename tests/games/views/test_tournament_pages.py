"""The tournament pages: the list, the create form, a tournament with its bracket, signing up
and withdrawing, and a player's tournaments on their profile."""

from __future__ import annotations

import re
from typing import Any

from games import services
from games.models import Tournament, TournamentEntry
from tests.games.factories import make_user

CORRESPONDENCE = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 0}


def knockout(moderator: Any, size: int = 4) -> Tournament:
    return services.tournament_create(
        creator=moderator,
        name="Spring knock-out",
        size=size,
        start_mode="when_full",
        match_length=3,
        time_control=CORRESPONDENCE,
    )


def test_the_list_shows_tournaments_and_the_create_link_to_moderators(
    client: Any, signed_in: Any, moderator: Any, alice: Any
) -> None:
    tournament = knockout(moderator)
    page = client.get("/tournaments/").content.decode()
    assert f'data-tournament="{tournament.pk}"' in page
    assert "Spring knock-out" in page and "0 of 4" in page
    assert "Create a tournament" not in signed_in(alice).get("/tournaments/").content.decode()
    assert "Create a tournament" in signed_in(moderator).get("/tournaments/").content.decode()


def test_a_moderator_creates_one_with_the_form(signed_in: Any, moderator: Any) -> None:
    form = {
        "name": "Autumn cup",
        "size": "16",
        "match_length": "5",
        "days_per_move": "2",
        "reserve_days": "4",
        "rated": "on",
        "min_rating": "",
        "max_rating": "",
        "start_mode": "when_full",
        "starts_at": "",
    }
    answer = signed_in(moderator).post("/tournaments/new/", form)
    tournament = Tournament.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert tournament.size == 16 and tournament.time_control["days_per_move"] == 2


def test_the_form_says_what_is_wrong(signed_in: Any, moderator: Any) -> None:
    form = {
        "name": "Cup",
        "size": "8",
        "match_length": "5",
        "days_per_move": "1",
        "reserve_days": "0",
        "start_mode": "at_time",
        "starts_at": "",
    }
    answer = signed_in(moderator).post("/tournaments/new/", form)
    assert answer.status_code == 400
    assert "starts at a time still to come" in answer.content.decode()
    assert not Tournament.objects.exists()


def test_a_player_cannot_create_one_where_not_allowed(signed_in: Any, alice: Any) -> None:
    browser = signed_in(alice)
    answer = browser.post("/tournaments/new/", {"name": "Mine", "size": "8"}, follow=True)
    assert "Only moderators can create tournaments." in answer.content.decode()
    assert not Tournament.objects.exists()


def test_sign_up_and_withdraw_from_the_page(signed_in: Any, moderator: Any, alice: Any) -> None:
    tournament = knockout(moderator)
    browser = signed_in(alice)
    page = browser.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'data-action="sign-up"' in page
    page = browser.post(f"/tournaments/{tournament.pk}/sign-up/", follow=True).content.decode()
    assert "You are signed up." in page and 'data-action="withdraw"' in page
    page = browser.post(f"/tournaments/{tournament.pk}/withdraw/", follow=True).content.decode()
    assert "You have withdrawn." in page
    assert TournamentEntry.objects.get().withdrawn


def test_a_full_tournament_says_so_on_the_page(signed_in: Any, moderator: Any) -> None:
    tournament = knockout(moderator)
    players = [make_user(f"p{n}") for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    late = signed_in(make_user("late"))
    page = late.post(f"/tournaments/{tournament.pk}/sign-up/", follow=True).content.decode()
    assert "Too late to sign up: the tournament is running." in page
    assert TournamentEntry.objects.count() == 4


def test_the_bracket_is_drawn_with_links_and_words(client: Any, moderator: Any) -> None:
    tournament = knockout(moderator, size=4)
    for n in range(3):
        services.tournament_sign_up(tournament_id=tournament.pk, player=make_user(f"b{n}"))
    services.tournament_sign_up(tournament_id=tournament.pk, player=make_user("b3"))
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "<svg" in page and "data-bracket" in page
    assert page.count('data-pairing="1-') == 2 and 'data-pairing="2-0"' in page
    match_links = re.findall(r'href="/matches/(\d+)/"', page)
    assert len(set(match_links)) == 2
    assert "Semi-finals, match 1: b0 v b3, being played" in page
    assert "Final, match 1: to be decided v to be decided" in page


def test_the_profile_lists_the_players_tournaments(client: Any, moderator: Any, alice: Any) -> None:
    tournament = knockout(moderator)
    services.tournament_sign_up(tournament_id=tournament.pk, player=alice)
    page = client.get("/players/alice/").content.decode()
    assert "data-player-tournaments" in page and "Spring knock-out" in page
    assert "data-player-tournaments" not in client.get("/players/mod/").content.decode()


def test_a_dropper_is_told_why_they_cannot_sign_up(signed_in, dropper, moderator):
    tournament = services.tournament_create(
        creator=moderator, name="Autumn", size=4, start_mode="when_full"
    )
    response = signed_in(dropper).post(f"/tournaments/{tournament.pk}/sign-up/", follow=True)
    assert "you cannot enter tournaments or leagues" in response.content.decode()
    assert not tournament.entries.exists()
