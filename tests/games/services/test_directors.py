"""The director's tools: a player removed from a knock-out and from a league mid-way, their
matches forfeited in the log, the opponent advancing, and an audit record; the refusals that
change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import DatabaseError, connection, transaction

from backgammon_site.core.errors import ApplicationError, Forbidden
from games import services
from games.models import AuditRecord, LeagueMatch, Match, MatchEvent, Tournament
from games.models.matches import AppendOnlyError
from games.services.league_tables import counted_result
from tests.games.factories import make_moderator, make_user
from tests.games.leagues.helpers import make_league, pairings_of, start_season
from tests.games.services.test_tournaments import knockout, pairing, rated_player, win


@pytest.fixture
def director(db: Any) -> Any:
    """A player who may create events, and is no moderator."""
    user = make_user("dora", email="dora@example.com")
    user.user_permissions.add(Permission.objects.get(codename="create_tournament"))
    return type(user).objects.get(pk=user.pk)


def running_knockout(director: Any) -> tuple[Tournament, dict[str, Any]]:
    """Four players, p1 the top seed: p1 v p4 and p2 v p3 under way."""
    tournament = knockout(director, size=4)
    players = {f"p{n}": rated_player(f"p{n}", 2000 - 50 * n) for n in range(1, 5)}
    for player in players.values():
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    return tournament, players


def last_event(match: Match) -> MatchEvent:
    """The match's last event of play: the log then closes by revealing the dice's seed."""
    kinds = list(match.events.order_by("-seq").values_list("kind", flat=True)[:2])
    assert kinds[0] == "dice_revealed"
    return match.events.order_by("-seq")[1]


def test_director_removes_a_player_mid_knockout(director: Any) -> None:
    tournament, players = running_knockout(director)
    top = pairing(tournament, 1, 0)
    assert (top.first.player, top.second.player) == (players["p1"], players["p4"])

    record = services.event_entry_remove(
        director=director, event=tournament, player=players["p4"], reason="Abusive in chat"
    )

    top = pairing(tournament, 1, 0)
    assert top.match.status == Match.Status.FINISHED
    assert top.match.winner == players["p1"]
    event = last_event(top.match)
    assert event.kind == "match_awarded"
    assert event.actor == director
    assert event.payload["winner"] == 0
    assert "Abusive in chat" in event.payload["reason"]
    assert top.winner.player == players["p1"]
    assert pairing(tournament, 2, 0).first.player == players["p1"]
    assert record.kind == AuditRecord.Kind.EVENT_ENTRY_REMOVED
    assert (record.acting_user, record.modified_user) == (director, players["p4"])
    assert record.details["tournament_id"] == tournament.pk
    assert record.details["forfeited_matches"] == [top.match.pk]
    assert AuditRecord.objects.get() == record


def test_a_removed_winner_gives_the_next_round_by_walkover(director: Any) -> None:
    tournament, players = running_knockout(director)
    ref = referee()
    win(pairing(tournament, 1, 0).match, players["p1"], ref)
    services.tournament_advance(tournament_id=tournament.pk)
    services.event_entry_remove(
        director=director, event=tournament, player=players["p1"], reason="No longer plays"
    )
    win(pairing(tournament, 1, 1).match, players["p3"], ref)
    services.tournament_advance(tournament_id=tournament.pk)

    final = pairing(tournament, 2, 0)
    assert final.match is None
    assert final.winner.player == players["p3"]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == players["p3"]


def referee() -> Any:
    """A moderator who ends the matches the test does not care how (an award)."""
    return make_moderator("ref", email="ref@example.com")


def running_league(director: Any) -> tuple[Any, Any, dict[str, Any]]:
    league = make_league(director, match_length=3)
    players = {f"l{n}": rated_player(f"l{n}", 2000 - 10 * n) for n in range(1, 5)}
    for player in players.values():
        services.league_sign_up(league_id=league.pk, player=player)
    season = start_season(league)
    return league, season, players


def test_director_removes_a_player_mid_league(director: Any) -> None:
    league, season, players = running_league(director)
    gone = players["l2"]
    ref = referee()
    played = next(p for p in pairings_of(season) if gone in (p.first.player, p.second.player))
    other = played.second.player if played.first.player == gone else played.first.player
    win(played.match, gone, ref)

    record = services.event_entry_remove(
        director=director, event=league, player=gone, reason="Left the club"
    )

    theirs = [p for p in pairings_of(season) if gone in (p.first.player, p.second.player)]
    assert len(theirs) == 3
    for one in theirs:
        assert one.match.status == Match.Status.FINISHED
        result = counted_result(one, None)
        assert result is not None
        entry_of_gone = one.first_id if one.first.player == gone else one.second_id
        opponent_entry = one.second_id if entry_of_gone == one.first_id else one.first_id
        if one.pk == played.pk:
            # Finished before the removal: the result stands.
            assert result.winner_id == entry_of_gone
            continue
        # The rule: the opponent wins at the match's length, the removed player keeps the
        # points they had (none here).
        assert result.winner_id == opponent_entry
        assert result.points == {opponent_entry: 3, entry_of_gone: 0}
        assert last_event(one.match).kind == "match_awarded"
    untouched = [p for p in pairings_of(season) if p not in theirs]
    assert all(p.match.status == Match.Status.ACTIVE for p in untouched)
    assert season.entries.get(player=gone).withdrawn
    following = league.seasons.get(number=season.number + 1)
    assert following.entries.get(player=gone).withdrawn
    assert following.entries.get(player=other).withdrawn is False
    assert len(record.details["forfeited_matches"]) == 2
    assert record.details["seasons"] == [season.number, season.number + 1]


def test_a_player_who_is_not_the_director_is_refused_and_nothing_changes(
    director: Any, carol: Any
) -> None:
    tournament, players = running_knockout(director)
    with pytest.raises(Forbidden):
        services.event_entry_remove(
            director=players["p2"], event=tournament, player=players["p4"], reason="Because"
        )
    with pytest.raises(Forbidden):
        services.event_entry_remove(
            director=carol, event=tournament, player=players["p4"], reason="Because"
        )
    assert not tournament.entries.filter(withdrawn=True).exists()
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 2
    assert not AuditRecord.objects.exists()


def test_a_moderator_may_act_as_director(director: Any, moderator: Any) -> None:
    tournament, players = running_knockout(director)
    services.event_entry_remove(
        director=moderator, event=tournament, player=players["p3"], reason="Cheating"
    )
    assert pairing(tournament, 1, 1).winner.player == players["p2"]


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_a_removal_without_a_reason_is_refused(director: Any, reason: Any) -> None:
    tournament, players = running_knockout(director)
    with pytest.raises(ApplicationError) as refused:
        services.event_entry_remove(
            director=director, event=tournament, player=players["p4"], reason=reason
        )
    assert refused.value.code == "reason"
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 2
    assert not AuditRecord.objects.exists()


def test_removing_a_player_not_in_the_event_is_refused(director: Any, carol: Any) -> None:
    tournament, players = running_knockout(director)
    with pytest.raises(ApplicationError) as refused:
        services.event_entry_remove(
            director=director, event=tournament, player=carol, reason="Who?"
        )
    assert refused.value.code == "not_entered"
    services.event_entry_remove(
        director=director, event=tournament, player=players["p4"], reason="Gone"
    )
    with pytest.raises(ApplicationError):
        services.event_entry_remove(
            director=director, event=tournament, player=players["p4"], reason="Again"
        )
    assert AuditRecord.objects.count() == 1


def test_a_league_director_may_not_remove_from_another_event(director: Any) -> None:
    league, season, players = running_league(director)
    outsider = make_user("otto")
    with pytest.raises(Forbidden):
        services.event_entry_remove(
            director=outsider, event=league, player=players["l1"], reason="No"
        )
    assert not LeagueMatch.objects.filter(match__status=Match.Status.FINISHED).exists()


def test_audit_records_are_append_only(director: Any) -> None:
    tournament, players = running_knockout(director)
    record = services.event_entry_remove(
        director=director, event=tournament, player=players["p4"], reason="Gone"
    )
    record.reason = "rewritten"
    with pytest.raises(AppendOnlyError):
        record.save()
    with pytest.raises(AppendOnlyError):
        record.delete()


def test_the_database_refuses_to_change_an_audit_record(director: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the trigger exists on PostgreSQL only; CI runs this against PostgreSQL")
    tournament, players = running_knockout(director)
    record = services.event_entry_remove(
        director=director, event=tournament, player=players["p4"], reason="Gone"
    )
    for change in (
        lambda: AuditRecord.objects.filter(pk=record.pk).update(reason="rewritten"),
        lambda: AuditRecord.objects.filter(pk=record.pk)._raw_delete(connection.alias),
    ):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            change()
    assert AuditRecord.objects.get().reason == "Gone"
