"""Swiss, double elimination and round robin through the services, played to the end, and the
pairing rules they follow (docs/tournaments.md)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from backgammon_site.core.errors import ApplicationError
from games import services
from games.clocks import sweep
from games.computer.decisions import bot_action, level_named
from games.engine import state_from_snapshot
from games.models import BracketMatch, Match, Tournament
from games.services import turns
from games.services.pairings import (
    NoPairing,
    elimination_feeds,
    round_robin_rounds,
    swiss_pairings,
    swiss_round_count,
)
from games.services.tournament_tables import round_robin_table, swiss_standings
from tests.games.factories import act
from tests.games.services.test_tournaments import CORRESPONDENCE, rated_player, time_out, win
from tests.games.services.test_variants import play_to_the_end


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's dice from a seeded generator: who opens each match (and so whether the
    loser is to act when a resignation comes round) is the same on every run."""
    rng = random.Random(2026)
    monkeypatch.setattr(turns, "next_roll", lambda match: (rng.randint(1, 6), rng.randint(1, 6)))


def event(moderator: Any, format: str, size: int, **options: Any) -> Tournament:
    return services.tournament_create(
        creator=moderator,
        name=f"{format} event",
        size=size,
        start_mode="when_full",
        match_length=1,
        time_control=CORRESPONDENCE,
        format=format,
        **options,
    )


def entered(tournament: Tournament, count: int, prefix: str, capture: Any) -> dict[str, Any]:
    """``count`` players rated in seed order (``prefix``1 the best) signed up, weakest first."""
    players = {
        f"{prefix}{n}": rated_player(f"{prefix}{n}", 2000 - 20 * n) for n in range(1, count + 1)
    }
    with capture(execute=True):
        for name in reversed(players):
            services.tournament_sign_up(tournament_id=tournament.pk, player=players[name])
    return players


def resign(match: Match, loser: Any, winner: Any) -> None:
    match.refresh_from_db()
    assert match.to_act == loser
    match = act(match, loser, "resign", points=1)
    act(match, winner, "accept_resign")


def under_way(tournament: Tournament) -> list[BracketMatch]:
    return list(
        BracketMatch.objects.filter(tournament=tournament, match__status=Match.Status.ACTIVE)
        .select_related("first__player", "second__player", "match")
        .order_by("part", "round", "slot")
    )


def play_out(
    tournament: Tournament,
    moderator: Any,
    capture: Any,
    winner_of: Callable[[BracketMatch], Any],
    ends: tuple[str, ...] = ("award", "timeout", "resign", "abort"),
    ended: Counter[str] | None = None,
) -> list[BracketMatch]:
    """End every match as it starts, each won by ``winner_of(pairing)``, in turn by an award,
    a timeout, a resignation and the loser's abort, until the tournament is over; returns the
    pairings played, in the order they ended. A timeout or a resignation waits for a match in
    which the loser is to act (the others are awarded); ``ended`` counts how each ended."""
    ended = Counter() if ended is None else ended
    cycle = itertools.cycle(ends)
    played = []
    for _ in range(100):
        pairings = under_way(tournament)
        if not pairings:
            break
        for pairing in pairings:
            match = pairing.match
            winner = winner_of(pairing)
            players = {pairing.first.player, pairing.second.player}
            loser = (players - {winner}).pop()
            with capture(execute=True):
                end = next(cycle)
                match.refresh_from_db()
                if end in ("timeout", "resign") and match.to_act != loser:
                    end = "award"
                if end == "timeout":
                    assert time_out(match) == loser
                elif end == "resign":
                    resign(match, loser, winner)
                elif end == "abort":
                    services.match_act(
                        match_id=match.pk, actor=loser, expected_seq=match.seq, action="abort"
                    )
                else:
                    win(match, winner, moderator)
                ended[end] += 1
            played.append(pairing)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return played


def seed_of(player: Any) -> int:
    return int(player.username[1:])


def higher_seed(pairing: BracketMatch) -> Any:
    return min(pairing.first.player, pairing.second.player, key=seed_of)


# -- pairing rules, as pure functions -------------------------------------------------------


def test_a_swiss_first_round_is_top_half_against_bottom_half_with_the_bye_to_the_last() -> None:
    players = list(range(1, 10))
    pairs, bye = swiss_pairings(players, dict.fromkeys(players, 0), set(), set())
    assert bye == 9
    assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_a_swiss_pairs_within_score_groups_and_floats_the_odd_one_down() -> None:
    wins = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0}
    pairs, bye = swiss_pairings(list(wins), wins, set(), set())
    assert bye is None
    assert pairs[0] == (1, 2)  # a group of three: top v half way, the third floats down
    assert (3, 4) in pairs


def test_a_swiss_never_pairs_a_rematch() -> None:
    wins = {1: 1, 2: 1, 3: 0, 4: 0}
    met = {frozenset((1, 2)), frozenset((3, 4))}
    pairs, _ = swiss_pairings(list(wins), wins, met, set())
    assert all(frozenset(pair) not in met for pair in pairs)
    assert pairs == [(1, 3), (2, 4)]
    everyone_met = {frozenset(pair) for pair in itertools.combinations(range(1, 5), 2)}
    with pytest.raises(NoPairing):
        swiss_pairings(list(wins), wins, everyone_met - {frozenset((1, 2))}, set())


def test_the_bye_goes_to_the_lowest_scored_player_without_one() -> None:
    wins = {1: 2, 2: 1, 3: 1, 4: 0, 5: 0}
    _, bye = swiss_pairings(list(wins), wins, set(), had_bye={5})
    assert bye == 4


def test_swiss_rounds_by_default() -> None:
    assert [swiss_round_count(n) for n in (4, 5, 8, 9, 16, 17)] == [2, 3, 3, 4, 4, 5]


def test_a_round_robin_pairs_everyone_once() -> None:
    rounds = round_robin_rounds([1, 2, 3, 4, 5])
    pairs = [frozenset(pair) for pairs in rounds for pair in pairs]
    assert len(rounds) == 5 and all(len(pairs) == 2 for pairs in rounds)
    assert sorted(map(sorted, pairs)) == sorted(map(list, itertools.combinations(range(1, 6), 2)))


def test_a_double_elimination_has_a_losers_bracket_and_a_grand_final_with_a_reset() -> None:
    feeds = elimination_feeds(8, double=True)
    parts = Counter(part for part, _, _ in feeds)
    assert parts == {"main": 7, "losers": 6, "final": 2}
    assert elimination_feeds(8, double=False).keys() == {key for key in feeds if key[0] == "main"}


# -- whole events ---------------------------------------------------------------------------


def test_a_swiss_of_nine_over_four_rounds_played_to_the_end(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "swiss", 9, rounds=4)
    players = entered(tournament, 9, "s", django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.rounds == 4
    first_round = list(BracketMatch.objects.filter(tournament=tournament, round=1))
    assert sorted(
        (row.first.player.username, row.second.player.username if row.second else None)
        for row in first_round
    ) == [("s1", "s5"), ("s2", "s6"), ("s3", "s7"), ("s4", "s8"), ("s9", None)]
    # The second round waits for every match of the first.
    assert not BracketMatch.objects.filter(tournament=tournament, round=2).exists()

    # The higher seed wins, except that s1 loses to s5 in round one.
    def winner_of(pairing: BracketMatch) -> Any:
        if {pairing.first.player.username, pairing.second.player.username} == {"s1", "s5"}:
            return players["s5"]
        return higher_seed(pairing)

    ended: Counter[str] = Counter()
    play_out(tournament, moderator, django_capture_on_commit_callbacks, winner_of, ended=ended)
    assert set(ended) == {"award", "timeout", "resign", "abort"}, ended
    rows = list(BracketMatch.objects.filter(tournament=tournament))
    assert {row.round for row in rows} == {1, 2, 3, 4}
    met = [frozenset((row.first_id, row.second_id)) for row in rows if row.second_id]
    assert len(met) == len(set(met)) == 16  # no rematch
    byes = [row.first_id for row in rows if row.bye]
    assert len(byes) == 4 and len(set(byes)) == 4
    table = swiss_standings(tournament)
    assert [line.won for line in table] == sorted((line.won for line in table), reverse=True)
    assert sum(line.won for line in table) == 20 and sum(line.lost for line in table) == 16
    for line in table:  # Buchholz: the opponents' wins
        opponents = [
            row.second_id if row.first_id == line.entry.pk else row.first_id
            for row in rows
            if row.second_id and line.entry.pk in (row.first_id, row.second_id)
        ]
        wins = {other.entry.pk: other.won for other in table}
        assert line.buchholz == sum(wins[other] for other in opponents)
    # Worked by hand from the rules: the byes go to s9, s8, s7 and s6 in turn; round 2 is
    # s2-s4, s3-s5, s9-s1 (s9 floats down), s6-s7; round 3 avoids s4-s8, a rematch, with
    # s4-s5 and s8-s9; after round 4 s1, s2 and s3 have 3 wins each, split by Buchholz.
    by_round = {
        number: {
            frozenset((row.first.player.username, row.second.player.username))
            for row in rows
            if row.round == number and row.second_id
        }
        for number in (2, 3)
    }
    assert by_round[2] == {frozenset(pair.split()) for pair in ("s2 s4", "s3 s5", "s9 s1", "s6 s7")}
    assert {frozenset(("s4", "s5")), frozenset(("s8", "s9"))} <= by_round[3]
    bye_order = sorted((row.round, row.first.player.username) for row in rows if row.bye)
    assert [name for _, name in bye_order] == ["s9", "s8", "s7", "s6"]
    top = [(line.entry.player.username, line.won, line.buchholz) for line in table[:4]]
    assert top == [("s2", 3, 10), ("s3", 3, 9), ("s1", 3, 8), top[3]] and top[3][1] == 2
    tournament.refresh_from_db()
    assert (tournament.winner, tournament.second) == (players["s2"], players["s3"])
    assert services.tournament_advance(tournament_id=tournament.pk) == 0


def test_a_double_elimination_of_six_played_to_the_end_with_a_reset(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "double_elimination", 6)
    players = entered(tournament, 6, "d", django_capture_on_commit_callbacks)
    grand_final = {"won": 0}

    # The higher seed wins, but d2, out of the winners' bracket, wins both grand finals.
    def winner_of(pairing: BracketMatch) -> Any:
        if pairing.part == "final":
            grand_final["won"] += 1
            return players["d2"]
        return higher_seed(pairing)

    ended: Counter[str] = Counter()
    played = play_out(
        tournament, moderator, django_capture_on_commit_callbacks, winner_of, ended=ended
    )
    assert set(ended) == {"award", "timeout", "resign", "abort"}, ended
    assert grand_final["won"] == 2
    assert len(played) == 2 * 6 - 2 + 1  # each but the winner loses twice, plus the reset
    losses: Counter[str] = Counter()
    for pairing in BracketMatch.objects.filter(tournament=tournament).exclude(match=None):
        pairing.match.refresh_from_db()
        names = {pairing.first.player.username, pairing.second.player.username}
        winner = pairing.winner.player.username
        losses[(names - {winner}).pop()] += 1
    assert losses == {"d1": 2, "d2": 1, "d3": 2, "d4": 2, "d5": 2, "d6": 2}
    tournament.refresh_from_db()
    assert (tournament.winner, tournament.second) == (players["d2"], players["d1"])
    assert services.tournament_advance(tournament_id=tournament.pk) == 0


def test_a_double_elimination_ends_at_the_grand_final_when_the_unbeaten_player_wins_it(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "double_elimination", 5)
    players = entered(tournament, 5, "e", django_capture_on_commit_callbacks)
    play_out(tournament, moderator, django_capture_on_commit_callbacks, higher_seed)
    reset = BracketMatch.objects.get(tournament=tournament, part="final", round=2)
    assert reset.match is None and reset.winner is None
    tournament.refresh_from_db()
    assert (tournament.winner, tournament.second) == (players["e1"], players["e2"])
    assert Match.objects.filter(bracket_match__tournament=tournament).count() == 2 * 5 - 2


def test_a_round_robin_played_to_the_end(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "round_robin", 5)
    players = entered(tournament, 5, "r", django_capture_on_commit_callbacks)
    assert len(under_way(tournament)) == 10  # everyone plays everyone, all at once

    # The higher seed wins, except that r2 beats r1.
    def winner_of(pairing: BracketMatch) -> Any:
        if {pairing.first.player.username, pairing.second.player.username} == {"r1", "r2"}:
            return players["r2"]
        return higher_seed(pairing)

    play_out(
        tournament,
        moderator,
        django_capture_on_commit_callbacks,
        winner_of,
        ends=("award", "timeout", "resign"),
    )
    table = round_robin_table(tournament)
    tournament.refresh_from_db()
    assert tournament.winner == players["r2"] and tournament.second == players["r1"]
    assert table.standings[0].entry.player == players["r2"]
    assert [line.won for line in table.standings] == [4, 3, 2, 1, 0]
    assert all(line.played == 4 for line in table.standings)


def test_advancing_a_swiss_twice_pairs_the_next_round_once(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "swiss", 4)
    entered(tournament, 4, "i", django_capture_on_commit_callbacks)
    for pairing in under_way(tournament):
        win(pairing.match, higher_seed(pairing), moderator)  # no commit: no task ran
    assert services.tournament_advance(tournament_id=tournament.pk) > 0
    assert services.tournament_advance(tournament_id=tournament.pk) == 0
    assert BracketMatch.objects.filter(tournament=tournament, round=2).count() == 2
    assert Match.objects.count() == 4


def test_a_player_removed_from_a_swiss_is_not_paired_again(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "swiss", 6, rounds=3)
    players = entered(tournament, 6, "w", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.event_entry_remove(
            director=moderator, event=tournament, player=players["w6"], reason="no-show"
        )
    play_out(tournament, moderator, django_capture_on_commit_callbacks, higher_seed)
    later = BracketMatch.objects.filter(tournament=tournament, round__gt=1)
    assert not later.filter(first__player=players["w6"]).exists()
    assert not later.filter(second__player=players["w6"]).exists()
    assert later.filter(bye=True).count() == 2  # five players left: a bye each round


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"format": "ladder"}, "format"),
        ({"format": "knockout", "rounds": 3}, "rounds"),
        ({"format": "swiss", "rounds": 8}, "rounds"),
        ({"format": "swiss", "rounds": 0}, "rounds"),
    ],
)
def test_a_format_or_rounds_out_of_bounds_is_refused(
    moderator: Any, options: dict[str, Any], code: str
) -> None:
    with pytest.raises(ApplicationError) as refused:
        services.tournament_create(
            creator=moderator,
            name="Bad",
            size=8,
            start_mode="when_full",
            time_control=CORRESPONDENCE,
            **options,
        )
    assert refused.value.code == code
    assert not Tournament.objects.exists()


def test_a_swiss_round_left_waiting_is_paired_by_the_sweep(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The task that should follow the last result of a round is lost: the minute sweep pairs
    the next round, once."""
    tournament = event(moderator, "swiss", 6)
    entered(tournament, 6, "v", django_capture_on_commit_callbacks)
    for pairing in under_way(tournament):
        win(pairing.match, higher_seed(pairing), moderator)  # no commit: no task ran
    assert not BracketMatch.objects.filter(tournament=tournament, round=2).exists()
    assert sweep.tournaments_moved_on(timezone.now()) == 1
    assert sweep.tournaments_moved_on(timezone.now()) == 0
    second_round = BracketMatch.objects.filter(tournament=tournament, round=2)
    assert second_round.count() == 3 and all(row.match_id for row in second_round)


def test_a_player_removed_from_a_double_elimination_loses_by_walkover(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """d1, removed during their first match, forfeits it, drops to the losers' bracket and
    loses the pairing there by walkover: out, with no match made for them."""
    tournament = event(moderator, "double_elimination", 4)
    players = entered(tournament, 4, "x", django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        services.event_entry_remove(
            director=moderator, event=tournament, player=players["x1"], reason="no-show"
        )
    play_out(tournament, moderator, django_capture_on_commit_callbacks, higher_seed)
    losers_first = BracketMatch.objects.get(tournament=tournament, part="losers", round=1, slot=0)
    assert losers_first.match is None and losers_first.winner.player != players["x1"]
    assert players["x1"].pk in (losers_first.first.player_id, losers_first.second.player_id)
    tournament.refresh_from_db()
    assert tournament.winner == players["x2"]
    assert not Match.objects.filter(
        bracket_match__tournament=tournament, status=Match.Status.ACTIVE
    ).exists()


def test_one_email_per_player_at_a_round_robins_start(
    moderator: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTIFICATION_DELAY = 0
    tournament = event(moderator, "round_robin", 5)
    mail.outbox.clear()
    entered(tournament, 5, "m", django_capture_on_commit_callbacks)
    assert len(under_way(tournament)) == 10
    to = Counter(address for message in mail.outbox for address in message.to)
    assert to == {f"m{n}@example.com": 1 for n in range(1, 6)}
    message = next(m for m in mail.outbox if m.to == ["m1@example.com"])
    assert message.subject == "Your 4 matches in round_robin event have started"
    for n in range(2, 6):
        assert f"m{n}" in message.body


@pytest.mark.slow
def test_a_round_robin_whose_matches_are_played_out_move_by_move(
    dice: Any, moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Every match played to its end by both sides choosing at random among the legal plays
    (seeded dice): the winner is who the matches say."""
    dice.add_random(5000, seed=37)
    tournament = event(moderator, "round_robin", 4)
    players = entered(tournament, 4, "b", django_capture_on_commit_callbacks)
    chooser = random.Random(5)
    for pairing in under_way(tournament):
        with django_capture_on_commit_callbacks(execute=True):
            finished = play_to_the_end(pairing.match, chooser)
        assert finished.winner_id is not None
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    matches = list(Match.objects.filter(bracket_match__tournament=tournament))
    # The table's order for 1-point matches, all played: wins (the points difference follows
    # them), then wins among the players level, then the higher rating.
    wins = Counter(match.winner_id for match in matches)
    best = max(wins.values())
    level = {player.pk for player in players.values() if wins[player.pk] == best}
    among_level = Counter(
        match.winner_id
        for match in matches
        if {match.first_player_id, match.second_player_id} <= level
    )
    ratings = {player.pk: 2000 - 20 * seed_of(player) for player in players.values()}
    expected = max(level, key=lambda pk: (among_level[pk], ratings[pk]))
    assert tournament.winner_id == expected


def played_by_bots(match: Match, rng: random.Random, limit: int = 3000) -> Match:
    """The match played to its end by the Beginner bot's decisions on both sides."""
    beginner = level_named("beginner")
    for _ in range(limit):
        match.refresh_from_db()
        state = state_from_snapshot(match.state)
        if state.is_finished():
            return match
        player = state.player_to_act()
        assert player is not None, state.phase
        decision = bot_action(state, player, beginner, rng)
        assert decision is not None, state.phase
        services.match_act(
            match_id=match.pk,
            actor=match.players[player],
            expected_seq=match.seq,
            action=decision.action,
            play=decision.play,
            number=decision.number,
        )
    raise AssertionError(f"match {match.pk} did not end in {limit} actions")


def bots_play_out(tournament: Tournament, capture: Any) -> list[Match]:
    """Every match of the event played move by move by the bots, as it starts, to the end."""
    rng, played = random.Random(11), []
    for _ in range(100):
        pairings = under_way(tournament)
        if not pairings:
            break
        for pairing in pairings:
            with capture(execute=True):
                played.append(played_by_bots(pairing.match, rng))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    return played


@pytest.mark.slow
def test_a_swiss_of_nine_over_four_rounds_played_by_the_bots(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "swiss", 9, rounds=4)
    entered(tournament, 9, "w", django_capture_on_commit_callbacks)
    played = bots_play_out(tournament, django_capture_on_commit_callbacks)
    assert len(played) == 16 and all(match.winner_id for match in played)
    assert all(state_from_snapshot(m.state).games[-1].result != "award" for m in played)
    rows = list(BracketMatch.objects.filter(tournament=tournament))
    met = [frozenset((row.first_id, row.second_id)) for row in rows if row.second_id]
    assert len(met) == len(set(met)) == 16  # no rematch
    table = swiss_standings(tournament)
    assert tournament.winner == table[0].entry.player
    wins = Counter(match.winner_id for match in played)
    byes = Counter(row.first.player_id for row in rows if row.bye)
    assert table[0].won == max(wins[p] + byes[p] for p in {*wins, *byes})


@pytest.mark.slow
def test_a_double_elimination_of_six_played_by_the_bots(
    moderator: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = event(moderator, "double_elimination", 6)
    players = entered(tournament, 6, "x", django_capture_on_commit_callbacks)
    played = bots_play_out(tournament, django_capture_on_commit_callbacks)
    losses = Counter(
        match.first_player_id
        if match.winner_id == match.second_player_id
        else match.second_player_id
        for match in played
    )
    # The winner lost at most once (the grand final's reset); everyone else exactly twice.
    assert losses[tournament.winner_id] <= 1
    assert all(losses[p.pk] == 2 for p in players.values() if p.pk != tournament.winner_id)
    final = max(played, key=lambda match: match.pk)
    assert final.winner_id == tournament.winner_id
