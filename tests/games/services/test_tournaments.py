"""Knock-out tournaments through the services: from sign-up to winner, the bracket, and the
refusals that change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from backgammon_site.core.errors import ApplicationError
from games import services
from games.clocks import sweep
from games.models import BracketMatch, Match, Notification, Tournament, TournamentEntry
from games.services.pairings import bracket_order
from ratings.models import PlayerRating
from tests.games.factories import make_user

CORRESPONDENCE = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 0}


def rated_player(name: str, rating: float) -> Any:
    player = make_user(name, email=f"{name}@example.com")
    PlayerRating.objects.create(user=player, rating=rating, deviation=60, volatility=0.06)
    return player


def knockout(moderator: Any, *, size: int = 8, **options: Any) -> Tournament:
    values = {
        "name": "Winter knock-out",
        "size": size,
        "start_mode": "when_full",
        "match_length": 1,
        "time_control": CORRESPONDENCE,
        **options,
    }
    return services.tournament_create(creator=moderator, **values)


def pairing(tournament: Tournament, round_number: int, slot: int) -> BracketMatch:
    return BracketMatch.objects.select_related(
        "first__player", "second__player", "winner__player", "match"
    ).get(tournament=tournament, round=round_number, slot=slot)


def names(row: BracketMatch) -> tuple[str | None, str | None]:
    return (
        row.first.player.username if row.first else None,
        row.second.player.username if row.second else None,
    )


def win(match: Match, winner: Any, moderator: Any) -> None:
    services.match_award(match_id=match.pk, moderator=moderator, winner=winner, reason="test")


def time_out(match: Match) -> Any:
    """The player to act lets their deadline pass; returns them."""
    match.refresh_from_db()
    loser = match.to_act
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk).timed_out
    return loser


def test_bracket_order_puts_the_top_seeds_in_opposite_halves() -> None:
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(bracket_order(256)) == list(range(1, 257))


def test_seven_players_from_sign_up_to_winner_with_a_bye_and_a_timeout(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = knockout(moderator, size=7)
    players = {f"p{n}": rated_player(f"p{n}", 2000 - 50 * n) for n in range(1, 8)}
    # They sign up weakest first: the seeds come from the ratings, not the order.
    for name in sorted(players, reverse=True):
        with django_capture_on_commit_callbacks(execute=True):
            services.tournament_sign_up(tournament_id=tournament.pk, player=players[name])

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    seeds = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list(
            "player__username", "seed"
        )
    )
    assert seeds == {f"p{n}": n for n in range(1, 8)}
    # Seed 1 has the bye (seed 8 does not exist) and is in round 2 at once.
    bye = pairing(tournament, 1, 0)
    assert bye.bye and names(bye) == ("p1", None) and bye.winner.player.username == "p1"
    assert bye.match is None
    assert [names(pairing(tournament, 1, slot)) for slot in (1, 2, 3)] == [
        ("p4", "p5"),
        ("p2", "p7"),
        ("p3", "p6"),
    ]
    assert names(pairing(tournament, 2, 0)) == ("p1", None)
    first_round = [pairing(tournament, 1, slot).match for slot in (1, 2, 3)]
    assert all(match is not None for match in first_round)
    # The higher seed sits first, and each player heard their match started.
    assert first_round[0].first_player == players["p4"]
    news = Notification.objects.filter(kind=Notification.Kind.TOURNAMENT_MATCH)
    assert news.count() == 6
    assert any("Winter knock-out" in email.subject for email in mail.outbox)

    # p5 beats p4; p2's opponent, p7, wins on time; p3 beats p6.
    with django_capture_on_commit_callbacks(execute=True):
        win(first_round[0], players["p5"], moderator)
    first_round[1].refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        loser = time_out(first_round[1])
    timeout_winner = "p7" if loser == players["p2"] else "p2"
    with django_capture_on_commit_callbacks(execute=True):
        win(first_round[2], players["p3"], moderator)

    semi_top, semi_bottom = pairing(tournament, 2, 0), pairing(tournament, 2, 1)
    assert names(semi_top) == ("p1", "p5")
    assert names(semi_bottom) == (timeout_winner, "p3")
    assert semi_top.match is not None and semi_bottom.match is not None
    with django_capture_on_commit_callbacks(execute=True):
        win(semi_top.match, players["p5"], moderator)
        win(semi_bottom.match, players["p3"], moderator)

    final = pairing(tournament, 3, 0)
    assert names(final) == ("p5", "p3")
    assert final.match.first_player == players["p3"]  # the higher seed sits first
    with django_capture_on_commit_callbacks(execute=True):
        win(final.match, players["p5"], moderator)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert (tournament.winner, tournament.second) == (players["p5"], players["p3"])
    assert Match.objects.filter(bracket_match__tournament=tournament).count() == 6
    assert services.tournament_advance(tournament_id=tournament.pk) == 0


def test_a_player_who_aborts_forfeits(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"o{n}", 1900 - 10 * n) for n in range(1, 5)]
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    match = pairing(tournament, 1, 1).match  # o2 v o3
    assert match is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.match_act(
            match_id=match.pk, actor=players[1], expected_seq=match.seq, action="abort"
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner is None
    assert names(pairing(tournament, 2, 0)) == (None, "o3")


def test_a_match_a_moderator_aborts_sends_the_higher_seed_on(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"q{n}", 1900 - 10 * n) for n in range(1, 5)]
    with django_capture_on_commit_callbacks(execute=True):
        for player in players:
            services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    match = pairing(tournament, 1, 1).match  # q2 v q3
    assert match is not None
    with django_capture_on_commit_callbacks(execute=True):
        services.match_abort(match_id=match.pk, moderator=moderator, reason="server trouble")
    assert names(pairing(tournament, 2, 0)) == (None, "q2")


def test_advancing_twice_does_it_once(moderator: Any) -> None:
    """A task delivered twice (a crash between the commit and the ack): the second run finds
    nothing to do, and no second match is made."""
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"r{n}", 1700 - n) for n in range(1, 5)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    top = pairing(tournament, 1, 0).match
    bottom = pairing(tournament, 1, 1).match
    win(top, players[0], moderator)
    win(bottom, players[1], moderator)
    # The receivers' tasks never ran (no commit in this test): the task runs now, twice.
    assert services.tournament_advance(tournament_id=tournament.pk) > 0
    assert services.tournament_advance(tournament_id=tournament.pk) == 0
    final = pairing(tournament, 2, 0)
    assert names(final) == ("r1", "r2") and final.match is not None
    assert Match.objects.count() == 3


def test_a_crash_before_the_commit_is_redone_by_the_sweep(
    moderator: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies inside the advance leaves nothing half done: the transaction is
    rolled back, and the minute sweep finds the bracket waiting and advances it once."""
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"s{n}", 1700 - n) for n in range(1, 5)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    win(pairing(tournament, 1, 0).match, players[0], moderator)
    win(pairing(tournament, 1, 1).match, players[1], moderator)

    from games.services import tournament_formats

    real_start = tournament_formats.match_start

    def crash(**kwargs: Any) -> Match:
        real_start(**kwargs)
        raise SystemExit("worker killed")

    monkeypatch.setattr(tournament_formats, "match_start", crash)
    with pytest.raises(SystemExit):
        services.tournament_advance(tournament_id=tournament.pk)
    final = pairing(tournament, 2, 0)
    assert names(final) == (None, None) and final.match is None
    assert pairing(tournament, 1, 0).winner is None
    assert Match.objects.count() == 2

    monkeypatch.setattr(tournament_formats, "match_start", real_start)
    assert sweep.tournaments_moved_on(timezone.now()) == 1
    assert sweep.tournaments_moved_on(timezone.now()) == 0
    final = pairing(tournament, 2, 0)
    assert names(final) == ("s1", "s2") and final.match is not None
    assert Match.objects.count() == 3


def test_the_sweep_starts_a_tournament_at_its_time(moderator: Any) -> None:
    starts_at = timezone.now() + timedelta(hours=1)
    tournament = knockout(moderator, size=16, start_mode="at_time", starts_at=starts_at)
    for n in range(5):
        services.tournament_sign_up(tournament_id=tournament.pk, player=rated_player(f"t{n}", 1500))
    assert sweep.tournaments_moved_on(starts_at - timedelta(minutes=1)) == 0
    assert sweep.tournaments_moved_on(starts_at) == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    # 5 players in a bracket of 8: the top three seeds have byes, so 4 v 5 is the first
    # round's one match, and 2 v 3 of the second round, both known at once, starts now too.
    rows = BracketMatch.objects.filter(tournament=tournament, round=1)
    assert rows.filter(bye=True).count() == 3
    assert rows.get(slot=1).match is not None
    assert pairing(tournament, 2, 1).match is not None
    assert pairing(tournament, 2, 0).match is None
    assert Match.objects.count() == 2


def test_a_tournament_due_with_too_few_players_is_cancelled(moderator: Any) -> None:
    starts_at = timezone.now() + timedelta(hours=1)
    tournament = knockout(moderator, start_mode="at_time", starts_at=starts_at)
    for n in range(3):
        services.tournament_sign_up(tournament_id=tournament.pk, player=rated_player(f"u{n}", 1500))
    services.tournament_start(tournament_id=tournament.pk, now=starts_at)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert not BracketMatch.objects.exists() and not Match.objects.exists()


def test_withdrawing_frees_the_place(moderator: Any) -> None:
    tournament = knockout(moderator, size=4)
    player = rated_player("v1", 1500)
    services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    services.tournament_withdraw(tournament_id=tournament.pk, player=player)
    entry = TournamentEntry.objects.get(tournament=tournament, player=player)
    assert entry.withdrawn
    services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    entry.refresh_from_db()
    assert not entry.withdrawn


# --- Bad input: a clear error, and nothing changes ---


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    tournament.refresh_from_db()
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("player_id", "withdrawn", "seed")
    )
    return (tournament.status, entries, Match.objects.count(), BracketMatch.objects.count())


def refused(code: str, action: Any, tournament: Tournament) -> ApplicationError:
    before = snapshot(tournament)
    with pytest.raises(ApplicationError) as refusal:
        action()
    assert refusal.value.code == code
    assert snapshot(tournament) == before
    return refusal.value


def test_a_full_tournament_refuses_another_player(moderator: Any) -> None:
    starts_at = timezone.now() + timedelta(days=1)
    tournament = knockout(moderator, size=4, start_mode="at_time", starts_at=starts_at)
    for n in range(4):
        services.tournament_sign_up(tournament_id=tournament.pk, player=rated_player(f"w{n}", 1500))
    late = rated_player("w9", 1500)
    error = refused(
        "tournament_full",
        lambda: services.tournament_sign_up(tournament_id=tournament.pk, player=late),
        tournament,
    )
    assert "full" in error.message


def test_a_sign_up_after_the_start_is_refused(moderator: Any) -> None:
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"x{n}", 1500) for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    late = rated_player("x9", 1500)
    error = refused(
        "tournament_started",
        lambda: services.tournament_sign_up(tournament_id=tournament.pk, player=late),
        tournament,
    )
    assert "Too late" in error.message


def test_a_sign_up_once_the_start_time_has_passed_is_refused(moderator: Any) -> None:
    tournament = knockout(
        moderator, start_mode="at_time", starts_at=timezone.now() + timedelta(hours=1)
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - timedelta(seconds=5)
    )
    late = rated_player("y9", 1500)
    refused(
        "tournament_started",
        lambda: services.tournament_sign_up(tournament_id=tournament.pk, player=late),
        tournament,
    )


def test_a_withdrawal_after_the_start_is_refused(moderator: Any) -> None:
    tournament = knockout(moderator, size=4)
    players = [rated_player(f"z{n}", 1500) for n in range(4)]
    for player in players:
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    refused(
        "tournament_started",
        lambda: services.tournament_withdraw(tournament_id=tournament.pk, player=players[0]),
        tournament,
    )


@pytest.mark.parametrize("rating", [1399, 1801])
def test_a_rating_outside_the_limits_is_refused(moderator: Any, rating: int) -> None:
    tournament = knockout(moderator, min_rating=1400, max_rating=1800)
    player = rated_player("outside", rating)
    error = refused(
        "rating_outside_limits",
        lambda: services.tournament_sign_up(tournament_id=tournament.pk, player=player),
        tournament,
    )
    assert f"{rating}" in error.message and "1400 to 1800" in error.message


def test_a_new_player_is_rated_as_new_players_are(moderator: Any) -> None:
    tournament = knockout(moderator, min_rating=1400, max_rating=1600)
    services.tournament_sign_up(tournament_id=tournament.pk, player=make_user("newcomer"))
    assert TournamentEntry.objects.filter(tournament=tournament).count() == 1


def test_guests_and_computers_cannot_join(moderator: Any) -> None:
    from accounts.models import Profile

    tournament = knockout(moderator)
    guest = make_user("guest-1")
    Profile.objects.create(user=guest, is_guest=True)
    bot = make_user("bot-1")
    Profile.objects.create(user=bot, bot_level="beginner")
    for player in (guest, bot):
        refused(
            "forbidden",
            lambda player=player: services.tournament_sign_up(
                tournament_id=tournament.pk, player=player
            ),
            tournament,
        )


def test_a_player_cannot_create_one_unless_the_site_allows_it(alice: Any, settings: Any) -> None:
    settings.TOURNAMENTS_OPEN_TO_PLAYERS = False
    with pytest.raises(ApplicationError) as refusal:
        services.tournament_create(creator=alice, name="Mine", size=8, start_mode="when_full")
    assert refusal.value.code == "forbidden"
    assert not Tournament.objects.exists()
    settings.TOURNAMENTS_OPEN_TO_PLAYERS = True
    services.tournament_create(creator=alice, name="Mine", size=8, start_mode="when_full")
    assert Tournament.objects.count() == 1


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"size": 3}, "size"),
        ({"size": 257}, "size"),
        ({"size": True}, "size"),
        ({"name": "  "}, "name"),
        ({"match_length": 0}, "match_length"),
        ({"min_rating": 1800, "max_rating": 1700}, "rating_limits"),
        ({"start_mode": "sometime"}, "start_mode"),
        ({"start_mode": "at_time"}, "starts_at"),
        ({"time_control": {"kind": "blitz"}}, "time_control"),
    ],
)
def test_a_tournament_is_refused_for_bad_terms(
    moderator: Any, options: dict[str, Any], code: str
) -> None:
    with pytest.raises(ApplicationError) as refusal:
        knockout(moderator, **options)
    assert refusal.value.code == code
    assert not Tournament.objects.exists()
