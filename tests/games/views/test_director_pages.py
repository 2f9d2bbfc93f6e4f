"""The director's removal forms on a tournament's and a league's page: shown to the director
only, one per player (POST, CSRF, a reason), calling the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from games import services
from games.models import AuditRecord, Match
from tests.conftest import PASSWORD
from tests.games.factories import make_user
from tests.games.leagues.helpers import make_league, pairings_of, start_season
from tests.games.services.test_tournaments import knockout, pairing, rated_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(db: Any) -> Any:
    user = make_user("dora", password=PASSWORD, email="dora@example.com")
    user.user_permissions.add(Permission.objects.get(codename="create_tournament"))
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def running(director: Any) -> tuple[Any, dict[str, Any]]:
    tournament = knockout(director, size=4)
    players = {f"p{n}": rated_player(f"p{n}", 2000 - 50 * n) for n in range(1, 5)}
    for player in players.values():
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    return tournament, players


def test_the_director_sees_a_removal_form_per_player(
    signed_in: Any, director: Any, running: Any, alice: Any
) -> None:
    tournament, players = running
    url = reverse("tournament", args=[tournament.pk])
    text = signed_in(director).get(url).content.decode()
    assert text.count('data-action="remove-player"') == 4
    for player in players.values():
        assert f'data-removable="{player.username}"' in text
    assert 'name="csrfmiddlewaretoken"' in text and 'name="reason"' in text
    assert "data-remove-players" not in signed_in(alice).get(url).content.decode()
    assert "data-remove-players" not in signed_in(players["p1"]).get(url).content.decode()
    assert "data-remove-players" not in Client().get(url).content.decode()


def test_the_director_removes_a_player_from_the_page(
    signed_in: Any, director: Any, running: Any
) -> None:
    tournament, players = running
    browser = signed_in(director)
    remove = reverse("tournament-remove-player", args=[tournament.pk])
    page = browser.post(remove, {"player": players["p4"].pk, "reason": "No-show"}, follow=True)
    assert "is removed from Winter knock-out" in page.content.decode()
    top = pairing(tournament, 1, 0)
    assert top.match.status == Match.Status.FINISHED and top.winner.player == players["p1"]
    assert AuditRecord.objects.get().reason == "No-show"
    assert 'data-removable="p4"' not in page.content.decode()


def test_refusals_from_the_page_change_nothing(
    signed_in: Any, director: Any, running: Any, alice: Any
) -> None:
    tournament, players = running
    remove = reverse("tournament-remove-player", args=[tournament.pk])
    answer = signed_in(alice).post(remove, {"player": players["p4"].pk, "reason": "x"}, follow=True)
    assert "Only the event&#x27;s director or a moderator" in answer.content.decode()
    for bad in ({"player": players["p4"].pk, "reason": ""}, {"player": "x", "reason": "y"}, {}):
        answer = signed_in(director).post(remove, bad, follow=True)
        assert answer.status_code == 200
    assert not AuditRecord.objects.exists()
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 2
    assert signed_in(director).get(remove).status_code == 405


def test_the_csrf_token_is_required(director: Any, running: Any) -> None:
    tournament, players = running
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(director)
    remove = reverse("tournament-remove-player", args=[tournament.pk])
    assert browser.post(remove, {"player": players["p4"].pk, "reason": "x"}).status_code == 403
    assert not AuditRecord.objects.exists()


def test_the_league_director_removes_a_player_from_the_page(
    signed_in: Any, director: Any, alice: Any
) -> None:
    league = make_league(director, match_length=3)
    players = [rated_player(f"l{n}", 1900 - n) for n in range(4)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season = start_season(league)
    url = reverse("league", args=[league.pk])
    browser = signed_in(director)
    assert browser.get(url).content.decode().count('data-action="remove-player"') == 4
    assert "data-remove-players" not in signed_in(alice).get(url).content.decode()

    browser.post(
        reverse("league-remove-player", args=[league.pk]),
        {"player": players[0].pk, "reason": "Moved away"},
    )
    gone = [p for p in pairings_of(season) if players[0] in (p.first.player, p.second.player)]
    assert all(p.match.status == Match.Status.FINISHED for p in gone)
    assert all(p.match.winner != players[0] for p in gone)
    assert AuditRecord.objects.get().modified_user == players[0]
