"""A moderator cancels a tournament: its matches under way are aborted (unrated), finished ones
stand, it ends with no winner; cancelling again changes nothing; the pages and the API offer it
to moderators only, and the bracket's open pages hear of it."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon_site.core.errors import ApplicationError, Forbidden
from games import services
from games.models import Match, MatchEvent, Tournament
from ratings.models import RatingChange
from tests.games.api.conftest import assert_error, client_for
from tests.games.services.test_tournaments import knockout, pairing, rated_player, win

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(moderator: Any, django_capture_on_commit_callbacks: Any) -> Tournament:
    """A rated knock-out of four: the first semi-final won by c1, the second under way."""
    tournament = knockout(moderator, size=4, rated=True)
    players = [rated_player(f"c{n}", 1800 - 10 * n) for n in range(1, 5)]
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            services.tournament_sign_up(tournament_id=tournament.pk, player=player)
        win(pairing(tournament, 1, 0).match, players[0], moderator)
    return tournament


def test_cancelling_aborts_the_matches_under_way_unrated(
    running: Tournament, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    decided, under_way = pairing(running, 1, 0).match, pairing(running, 1, 1).match
    rated_before = RatingChange.objects.count()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.tournament_cancel(
            tournament_id=running.pk, moderator=moderator, reason="the server moves"
        )
    running.refresh_from_db()
    assert running.status == Tournament.Status.CANCELLED
    assert running.winner is None and running.finished_at is not None
    assert (running.cancelled_by, running.cancel_reason) == (moderator, "the server moves")
    under_way.refresh_from_db()
    assert under_way.status == Match.Status.FINISHED and under_way.winner is None
    abort = MatchEvent.objects.filter(match=under_way, kind="match_aborted").get()
    assert abort.actor == moderator
    assert "was cancelled: the server moves" in abort.payload["reason"]
    # No rating changed for the aborted match; the finished one stands as it was.
    assert RatingChange.objects.count() == rated_before
    assert not RatingChange.objects.filter(match=under_way).exists()
    decided.refresh_from_db()
    assert decided.winner is not None
    # The advance that the abort's signal queued found nothing to do: no final was started.
    final = pairing(running, 2, 0)
    assert final.match is None and final.winner is None
    assert len(callbacks) >= 2


def test_cancelling_twice_changes_nothing(running: Tournament, moderator: Any) -> None:
    services.tournament_cancel(tournament_id=running.pk, moderator=moderator, reason="first")
    events = MatchEvent.objects.count()
    again = services.tournament_cancel(
        tournament_id=running.pk, moderator=moderator, reason="second"
    )
    assert again.cancel_reason == "first"
    assert MatchEvent.objects.count() == events


def test_refusals_change_nothing(running: Tournament, moderator: Any, alice: Any) -> None:
    with pytest.raises(Forbidden):
        services.tournament_cancel(tournament_id=running.pk, moderator=alice, reason="mine")
    with pytest.raises(ApplicationError, match="reason"):
        services.tournament_cancel(tournament_id=running.pk, moderator=moderator, reason=" ")
    running.refresh_from_db()
    assert running.status == Tournament.Status.RUNNING
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 1


def test_a_finished_tournament_cannot_be_cancelled(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"f{n}", 1800 - 10 * n) for n in range(1, 5)]
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            services.tournament_sign_up(tournament_id=tournament.pk, player=player)
        win(pairing(tournament, 1, 0).match, players[0], moderator)
        win(pairing(tournament, 1, 1).match, players[1], moderator)
    with django_capture_on_commit_callbacks(execute=True):
        win(pairing(tournament, 2, 0).match, players[0], moderator)
    with pytest.raises(ApplicationError) as refused:
        services.tournament_cancel(tournament_id=tournament.pk, moderator=moderator, reason="x")
    assert refused.value.code == "tournament_finished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_tournament_signing_up_can_be_cancelled(moderator: Any, alice: Any) -> None:
    tournament = knockout(moderator, size=4)
    services.tournament_sign_up(tournament_id=tournament.pk, player=alice)
    services.tournament_cancel(tournament_id=tournament.pk, moderator=moderator, reason="no")
    with pytest.raises(ApplicationError) as refused:
        services.tournament_sign_up(tournament_id=tournament.pk, player=rated_player("z", 1500))
    assert refused.value.code == "tournament_started"


def test_the_page_offers_moderators_the_button(
    running: Tournament, signed_in: Any, moderator: Any, alice: Any
) -> None:
    url = f"/tournaments/{running.pk}/"
    assert "data-cancel-tournament" not in signed_in(alice).get(url).content.decode()
    refused = signed_in(alice).post(f"{url}cancel/", {"reason": "mine"}, follow=True)
    assert "Only moderators can cancel" in refused.content.decode()
    browser = signed_in(moderator)
    assert "data-cancel-tournament" in browser.get(url).content.decode()
    text = browser.post(f"{url}cancel/", {"reason": "snow"}, follow=True).content.decode()
    assert "Cancelled by a moderator: snow" in text
    assert "data-cancel-tournament" not in text
    running.refresh_from_db()
    assert running.status == Tournament.Status.CANCELLED


def test_the_api_lets_moderators_cancel(running: Tournament, moderator: Any, alice: Any) -> None:
    clients = client_for
    url = f"/api/tournaments/{running.pk}/cancel/"
    assert_error(clients(alice).post(url, {"reason": "mine"}, format="json"), 403, "forbidden")
    assert_error(clients(moderator).post(url, {}, format="json"), 400)
    body = clients(moderator).post(url, {"reason": "snow"}, format="json").json()
    assert body["status"] == "cancelled" and body["cancel_reason"] == "snow"
    again = clients(moderator).post(url, {"reason": "again"}, format="json")
    assert again.status_code == 200 and again.json()["cancel_reason"] == "snow"


def test_the_admin_action(running: Tournament, signed_in: Any, moderator: Any) -> None:
    browser = signed_in(moderator)
    changelist = "/admin/games/tournament/"
    chosen = {"action": "cancel_tournaments", "_selected_action": [running.pk]}
    confirm = browser.post(changelist, chosen)
    assert confirm.status_code == 200 and "Cancel the tournaments" in confirm.content.decode()
    browser.post(changelist, {**chosen, "apply": "yes", "reason": "snow"})
    running.refresh_from_db()
    assert running.status == Tournament.Status.CANCELLED and running.cancel_reason == "snow"
