"""The audit record in the admin: listed, filtered and searched by moderators, read-only; the
removal of a player from a tournament or a league as an admin action that asks for the
player and a reason, then calls the service."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import AuditRecord, Match, Tournament
from tests.games.leagues.helpers import make_league, start_season
from tests.games.services.test_tournaments import knockout, pairing, rated_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(moderator: Any) -> tuple[Tournament, dict[str, Any]]:
    tournament = knockout(moderator, size=4)
    players = {f"p{n}": rated_player(f"p{n}", 2000 - 50 * n) for n in range(1, 5)}
    for player in players.values():
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    return tournament, players


def test_the_audit_records_are_listed_filtered_and_read_only(
    signed_in: Any, moderator: Any, running: Any, alice: Any
) -> None:
    tournament, players = running
    services.event_entry_remove(
        director=moderator, event=tournament, player=players["p4"], reason="Left the club"
    )
    services.account_suspend(moderator=moderator, user=alice, reason="Spam bot")
    browser = signed_in(moderator)
    changelist = reverse("admin:games_auditrecord_changelist")

    listing = browser.get(changelist).content.decode()
    assert "Left the club" in listing and "Spam bot" in listing
    only_suspensions = browser.get(changelist, {"kind": "account_suspended"}).content.decode()
    assert "Spam bot" in only_suspensions and "Left the club" not in only_suspensions
    found = browser.get(changelist, {"q": "p4"}).content.decode()
    assert "Left the club" in found and "Spam bot" not in found
    record = AuditRecord.objects.get(kind="event_entry_removed")
    page = browser.get(reverse("admin:games_auditrecord_change", args=[record.pk]))
    assert page.status_code == 200 and "forfeited_matches" in page.content.decode()
    assert 'name="reason"' not in page.content.decode()
    assert browser.get(reverse("admin:games_auditrecord_add")).status_code == 403
    delete = reverse("admin:games_auditrecord_delete", args=[record.pk])
    assert browser.post(delete, {"post": "yes"}).status_code == 403
    assert AuditRecord.objects.count() == 2
    assert reverse("admin:games_auditrecord_changelist") in browser.get("/admin/").content.decode()


def test_players_may_not_read_the_audit_records(signed_in: Any, alice: Any) -> None:
    response = signed_in(alice).get(reverse("admin:games_auditrecord_changelist"))
    assert response.status_code == 302


def test_removing_a_player_from_a_tournament_in_the_admin(
    signed_in: Any, moderator: Any, running: Any
) -> None:
    tournament, players = running
    browser = signed_in(moderator)
    changelist = reverse("admin:games_tournament_changelist")
    chosen = {"action": "remove_player", "_selected_action": [tournament.pk]}

    page = browser.post(changelist, {**chosen, "index": 0})
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="reason"' in text and f'value="{players["p4"].pk}"' in text
    # No reason: the page again, nothing done.
    again = browser.post(changelist, {**chosen, "apply": "yes", "player": players["p4"].pk})
    assert again.status_code == 200 and not AuditRecord.objects.exists()

    done = browser.post(
        changelist,
        {**chosen, "apply": "yes", "player": players["p4"].pk, "reason": "No-show"},
        follow=True,
    )
    assert "P4 removed from Winter knock-out." in done.content.decode()
    top = pairing(tournament, 1, 0)
    assert top.match.status == Match.Status.FINISHED and top.winner.player == players["p1"]
    record = AuditRecord.objects.get()
    assert (record.acting_user, record.modified_user, record.reason) == (
        moderator,
        players["p4"],
        "No-show",
    )


def test_removing_a_player_from_a_league_in_the_admin(signed_in: Any, moderator: Any) -> None:
    league = make_league(moderator)
    players = [rated_player(f"l{n}", 1900 - n) for n in range(4)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    start_season(league)
    browser = signed_in(moderator)
    done = browser.post(
        reverse("admin:games_league_changelist"),
        {
            "action": "remove_player",
            "_selected_action": [league.pk],
            "apply": "yes",
            "player": players[0].pk,
            "reason": "Moved away",
        },
        follow=True,
    )
    assert done.status_code == 200
    record = AuditRecord.objects.get()
    assert record.details["league_id"] == league.pk
    assert len(record.details["forfeited_matches"]) == 3
