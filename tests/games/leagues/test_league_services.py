"""Leagues through the services: creating, signing up and withdrawing, a season's opening
with its divisions and round robin, the close with promotion and relegation, and refusals
that change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.guests import new_guest
from backgammon_site.core.errors import ApplicationError, Forbidden
from games import services
from games.clocks import sweep
from games.models import League, LeagueEntry, LeagueMatch, LeagueSeason, Match, Notification
from games.services.leagues import division_sizes
from tests.games.factories import make_user
from tests.games.leagues.helpers import (
    award,
    division_names,
    entry_of,
    make_league,
    pairings_of,
    play_out,
    rated_player,
    start_season,
)

RUNNING = LeagueSeason.Status.RUNNING
FINISHED = LeagueSeason.Status.FINISHED


def test_divisions_are_as_few_and_as_even_as_the_size_allows() -> None:
    assert division_sizes(4, 6) == [4]
    assert division_sizes(6, 6) == [6]
    assert division_sizes(13, 7) == [7, 6]
    assert division_sizes(13, 6) == [5, 4, 4]
    assert division_sizes(20, 10) == [10, 10]


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"division_size": 5}, "division_size"),
        ({"division_size": 11}, "division_size"),
        ({"promoted": 3}, "promoted"),
        ({"season_days": 0}, "season_days"),
        ({"match_length": 0}, "match_length"),
        ({"name": "  "}, "name"),
        ({"starts_at": timezone.now() - timedelta(minutes=1)}, "starts_at"),
        ({"variant": "chess"}, "invalid"),
    ],
)
def test_a_league_with_bad_terms_is_refused_and_nothing_is_made(
    moderator: Any, options: dict[str, Any], code: str
) -> None:
    with pytest.raises(ApplicationError) as refused:
        make_league(moderator, **options)
    assert refused.value.code == code
    assert not League.objects.exists() and not LeagueSeason.objects.exists()


def test_only_moderators_create_leagues_unless_open_to_players(alice: Any, settings: Any) -> None:
    settings.TOURNAMENTS_OPEN_TO_PLAYERS = False
    with pytest.raises(Forbidden):
        make_league(alice)
    settings.TOURNAMENTS_OPEN_TO_PLAYERS = True
    assert make_league(alice).seasons.get().number == 1


def test_signing_up_and_withdrawing_before_the_start(moderator: Any, alice: Any) -> None:
    league = make_league(moderator)
    services.league_sign_up(league_id=league.pk, player=alice)
    with pytest.raises(ApplicationError) as twice:
        services.league_sign_up(league_id=league.pk, player=alice)
    assert twice.value.code == "already_entered"
    services.league_withdraw(league_id=league.pk, player=alice)
    with pytest.raises(ApplicationError) as again:
        services.league_withdraw(league_id=league.pk, player=alice)
    assert again.value.code == "not_entered"
    services.league_sign_up(league_id=league.pk, player=alice)
    assert LeagueEntry.objects.get(player=alice).withdrawn is False


def test_guests_and_computers_cannot_sign_up(moderator: Any) -> None:
    league = make_league(moderator)
    with pytest.raises(Forbidden):
        services.league_sign_up(league_id=league.pk, player=new_guest())
    assert not LeagueEntry.objects.exists()


def test_a_season_opens_with_divisions_by_rating_and_a_round_robin_in_each(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = make_league(moderator, division_size=7)
    players = [rated_player(f"p{n:02}", 2000 - 10 * n) for n in range(13)]
    for player in reversed(players):  # the weakest first: the order of sign-up does not count
        services.league_sign_up(league_id=league.pk, player=player)
    with django_capture_on_commit_callbacks(execute=True):
        season = start_season(league)

    assert season.status == RUNNING and season.ends_at == season.started_at + timedelta(days=30)
    assert division_names(season) == [
        [f"p{n:02}" for n in range(7)],
        [f"p{n:02}" for n in range(7, 13)],
    ]
    pairings = pairings_of(season)
    assert len(pairings) == 21 + 15
    for pairing in pairings:
        assert pairing.first.division_id == pairing.second.division_id == pairing.division_id
        assert {pairing.match.first_player, pairing.match.second_player} == {
            pairing.first.player,
            pairing.second.player,
        }
        assert pairing.match.match_length == 1 and pairing.match.variant == "backgammon"
    # Everyone starts about half their matches: 6 matches each in the top division, 3 first.
    top = [p for p in pairings if p.division.level == 1]
    for name in ("p00", "p03", "p06"):
        assert sum(p.match.first_player.username == name for p in top) == 3
    # Each player hears of all their matches at once: one piece of news each.
    assert Notification.objects.filter(kind=Notification.Kind.TOURNAMENT_MATCH).count() == 13
    subjects = {message.subject for message in mail.outbox}
    assert "Your 6 matches in Tuesday league (season 1, division 1) have started" in subjects
    assert "Your 5 matches in Tuesday league (season 1, division 2) have started" in subjects
    # The next season signs up already, every player of this one carried over.
    following = league.seasons.get(status=LeagueSeason.Status.SIGNING_UP)
    assert following.number == 2 and following.starts_at == season.ends_at
    assert following.entries.filter(withdrawn=False).count() == 13
    # Signing up or withdrawing now is for season 2; this one cannot be left.
    services.league_withdraw(league_id=league.pk, player=players[0])
    assert entry_of(season, "p00").withdrawn is False


def test_too_few_players_postpone_the_season_by_its_length(moderator: Any) -> None:
    league = make_league(moderator)
    for n in range(3):
        services.league_sign_up(league_id=league.pk, player=make_user(f"few{n}"))
    season = league.seasons.get()
    due = season.starts_at
    assert services.league_advance(league_id=league.pk, now=due) == 1
    season.refresh_from_db()
    assert season.status == LeagueSeason.Status.SIGNING_UP
    assert season.starts_at == due + timedelta(days=30)
    assert not Match.objects.exists()


def test_an_advance_run_twice_does_nothing_the_second_time(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = make_league(moderator)
    players = [rated_player(f"q{n}", 1600 - n) for n in range(4)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    season = league.seasons.get()
    assert services.league_advance(league_id=league.pk, now=season.starts_at) == 1
    assert services.league_advance(league_id=league.pk, now=season.starts_at) == 0
    assert Match.objects.count() == 6

    with django_capture_on_commit_callbacks(execute=True):
        play_out(season, moderator, lambda a, b: a.username < b.username)
    # The receiver closed the season when its last match ended and opened season 2 at once.
    season.refresh_from_db()
    assert season.status == FINISHED
    assert league.seasons.get(number=2).status == RUNNING
    assert Match.objects.count() == 12
    assert services.league_advance(league_id=league.pk) == 0
    assert sweep.leagues_moved_on(timezone.now()) == 0
    assert Match.objects.count() == 12 and league.seasons.count() == 3


def test_standings_order_wins_then_points_difference_then_head_to_head(moderator: Any) -> None:
    league = make_league(moderator, match_length=5)
    names = ["a", "b", "c", "d"]
    for name in names:
        services.league_sign_up(league_id=league.pk, player=rated_player(name, 1500))
    season = start_season(league)
    # a beats b 5-4 and c 5-0; b beats c 5-0 and d 5-0; c beats d 5-4; d beats a 5-0.
    scores = {
        ("a", "b"): (5, 4),
        ("a", "c"): (5, 0),
        ("b", "c"): (5, 0),
        ("b", "d"): (5, 0),
        ("c", "d"): (5, 4),
        ("d", "a"): (5, 0),
    }
    for pairing in pairings_of(season):
        match = pairing.match
        seats = (match.first_player.username, match.second_player.username)
        winner, loser = next(pair for pair in scores if set(pair) == set(seats))
        won, lost = scores[(winner, loser)]
        award(match, match.first_player if seats[0] == winner else match.second_player, moderator)
        state = Match.objects.get(pk=match.pk).state
        state["score"] = [won, lost] if seats[0] == winner else [lost, won]
        Match.objects.filter(pk=match.pk).update(state=state)
    from games.services.league_tables import season_tables

    season.refresh_from_db()
    table = season_tables(season)[0].standings
    # a and b have 2 wins and +6 each (a: 10-9... ) so head to head decides: a beat b.
    lines = {line.entry.player.username: line for line in table}
    assert (lines["a"].won, lines["a"].points_won, lines["a"].points_lost) == (2, 10, 9)
    assert (lines["b"].won, lines["b"].points_won, lines["b"].points_lost) == (2, 14, 5)
    assert [line.entry.player.username for line in table] == ["b", "a", "d", "c"]
    assert (lines["c"].won, lines["d"].won) == (1, 1)
    assert lines["d"].points_difference == 9 - 10 and lines["c"].points_difference == 5 - 14


def test_head_to_head_decides_and_the_sweep_closes_a_season_whose_task_was_lost(
    moderator: Any,
) -> None:
    league = make_league(moderator)
    # Signed up in the reverse of the order the table ends in, all rated alike.
    for name in ["z", "y", "x", "w"]:
        services.league_sign_up(league_id=league.pk, player=rated_player(name, 1500))
    season = start_season(league)
    # w > x > y > z > w in a cycle, and w > y, x > z: w and x 2 wins, y and z 1; all 1-0.
    beats = {("w", "x"), ("x", "y"), ("y", "z"), ("z", "w"), ("w", "y"), ("x", "z")}
    # Without the commit callbacks the advance task is never queued: as if it were lost.
    play_out(season, moderator, lambda a, b: (a.username, b.username) in beats)
    season.refresh_from_db()
    assert season.status == RUNNING
    assert sweep.leagues_moved_on(timezone.now()) == 1
    season.refresh_from_db()
    assert season.status == FINISHED
    order = list(season.entries.order_by("position").values_list("player__username", flat=True))
    # w and x are level on wins and difference: w beat x. y and z too: y beat z.
    assert order == ["w", "x", "y", "z"]
    assert league.seasons.get(number=2).status == RUNNING


def test_promotion_relegation_and_new_players_by_rating(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    league = make_league(moderator, division_size=7, promoted=2)
    players = [rated_player(f"r{n:02}", 2000 - 10 * n) for n in range(12)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    newcomers = [rated_player("strong", 1975), rated_player("weak", 1000)]
    season = start_season(league)
    assert division_names(season) == [
        [f"r{n:02}" for n in range(6)],
        [f"r{n:02}" for n in range(6, 12)],
    ]
    for newcomer in newcomers:
        services.league_sign_up(league_id=league.pk, player=newcomer)
    services.league_withdraw(league_id=league.pk, player=players[11])
    # The lower-rated player wins every match: the table is upside down.
    with django_capture_on_commit_callbacks(execute=True):
        play_out(season, moderator, lambda a, b: a.username > b.username)
    season.refresh_from_db()
    assert season.status == FINISHED
    moves = {
        e.player.username: (e.position, e.move) for e in season.entries.select_related("player")
    }
    assert (
        moves["r05"] == (1, "stay") and moves["r00"] == (6, "down") and moves["r01"] == (5, "down")
    )
    assert moves["r11"] == (1, "up") and moves["r10"] == (2, "up") and moves["r06"] == (6, "stay")

    following = league.seasons.get(number=2)
    assert following.status == RUNNING
    # In order: those who stay at the top by their place (r05 to r02), r10 who came up (r11
    # withdrew), the strong newcomer (1975 is above the top's average), then r01 and r00 who
    # came down, those who stayed below, and the weak newcomer. 13 players make divisions of
    # 7 and 6, so r01 fills the place r11 left.
    assert division_names(following) == [
        ["r01", "r02", "r03", "r04", "r05", "r10", "strong"],
        ["r00", "r06", "r07", "r08", "r09", "weak"],
    ]


def test_a_season_over_at_its_end_date_counts_unfinished_matches_as_unplayed(
    moderator: Any,
) -> None:
    league = make_league(moderator)
    for name in ("s1", "s2", "s3", "s4"):
        services.league_sign_up(league_id=league.pk, player=rated_player(name, 1500))
    season = start_season(league)
    pairings = pairings_of(season)
    for pairing in pairings[:-1]:
        award(pairing.match, pairing.first.player, moderator)
    late = pairings[-1]
    season.refresh_from_db()
    assert season.status == RUNNING
    assert sweep.leagues_moved_on(season.ends_at - timedelta(minutes=1)) == 0
    closing = timezone.now()
    LeagueSeason.objects.filter(pk=season.pk).update(ends_at=closing)
    assert sweep.leagues_moved_on(closing) == 1
    season.refresh_from_db()
    assert season.status == FINISHED and season.finished_at == closing
    late.match.refresh_from_db()
    assert late.match.status == Match.Status.ACTIVE  # it goes on...
    from games.services.league_tables import season_tables

    before = [(line.entry.pk, line.won) for line in season_tables(season)[0].standings]
    award(late.match, late.second.player, moderator)
    after = [(line.entry.pk, line.won) for line in season_tables(season)[0].standings]
    assert before == after  # ...but finished after the close it counts as unplayed
    cell = next(
        cell
        for row in season_tables(season)[0].grid
        for cell in row
        if cell and cell.pairing.pk == late.pk
    )
    assert cell.outcome == "unplayed"
    assert sum(line.played for line in season_tables(season)[0].standings) == 2 * 5


def test_the_sweep_opens_a_season_at_its_start(moderator: Any) -> None:
    league = make_league(moderator)
    for name in ("t1", "t2", "t3", "t4", "t5"):
        services.league_sign_up(league_id=league.pk, player=make_user(name))
    season = league.seasons.get()
    assert sweep.leagues_moved_on(season.starts_at - timedelta(seconds=1)) == 0
    with pytest.raises(ApplicationError):
        # at its start time, sign-up is over even before the sweep has opened it
        LeagueSeason.objects.filter(pk=season.pk).update(starts_at=timezone.now())
        services.league_sign_up(league_id=league.pk, player=make_user("latecomer"))
    assert sweep.leagues_moved_on(timezone.now()) == 1
    assert LeagueMatch.objects.count() == 10
