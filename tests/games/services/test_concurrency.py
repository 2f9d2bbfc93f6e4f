"""One writer per match: twenty players' clients submitting the same action at the same seq at
once get one success and nineteen conflicts, and the log stays gapless and verifiable.

PostgreSQL only: SQLite has no row locks for select_for_update, and CI runs this on PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from backgammon_site.core.errors import ApplicationError, Conflict
from games import services
from games.log.integrity import log_problems
from games.models import Match, MatchEvent
from tests.games.factories import act, make_user, script_dice, start_match

THREADS = 20


@pytest.fixture
def postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL's row locks (select_for_update); CI runs this against PostgreSQL"
        )


def submit_at_once(match_id, actor, expected_seq, action, **options):
    """Each thread waits at the barrier, then submits; returns what each call ended with."""
    barrier = threading.Barrier(THREADS)
    outcomes = [None] * THREADS

    def submit(index):
        try:
            barrier.wait(timeout=30)
            services.match_act(
                match_id=match_id,
                actor=actor,
                expected_seq=expected_seq,
                action=action,
                **options,
            )
            outcomes[index] = "ok"
        except Exception as error:  # every outcome is checked below
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a submission hung"
    return outcomes


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("action", ["roll", "move"])
def test_the_same_action_at_the_same_seq_succeeds_once(postgresql_only, monkeypatch, action):
    alice, bob = make_user("alice"), make_user("bob")
    dice = script_dice(monkeypatch, 3, 1)
    match = act(start_match(alice, bob), alice, "move", play="8/5 6/5")
    options = {}
    if action == "move":
        dice.add(4, 2)
        match = act(match, bob, "roll")
        options = {"play": "8/4 6/4"}
    else:
        dice.add(4, 2)  # the winner's roll; a loser rolling would exhaust the script
    seq = match.seq

    outcomes = submit_at_once(match.pk, bob, seq, action, **options)

    assert outcomes.count("ok") == 1, outcomes
    conflicts = [o for o in outcomes if isinstance(o, Conflict)]
    assert len(conflicts) == THREADS - 1, outcomes
    stored = Match.objects.get(pk=match.pk)
    assert stored.seq == seq + 1
    assert all(conflict.details["current_seq"] == stored.seq for conflict in conflicts)
    seqs = list(
        MatchEvent.objects.filter(match=stored).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, stored.seq + 1))
    assert log_problems(stored) == []
    assert dice.left == []


@pytest.mark.django_db(transaction=True)
def test_an_open_challenge_accepted_by_twenty_players_at_once_starts_one_match(postgresql_only):
    challenger = make_user("host")
    guests = [make_user(f"guest{i}") for i in range(THREADS)]
    challenge = services.challenge_create(challenger=challenger, opponent=None)
    barrier = threading.Barrier(THREADS)
    outcomes = [None] * THREADS

    def accept(index):
        try:
            barrier.wait(timeout=30)
            outcomes[index] = services.challenge_accept(
                challenge_id=challenge.pk, user=guests[index]
            )
        except Exception as error:  # every outcome is checked below
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    matches = [o for o in outcomes if isinstance(o, Match)]
    closed = [o for o in outcomes if isinstance(o, ApplicationError)]
    assert len(matches) == 1, outcomes
    assert len(closed) == THREADS - 1 and {e.code for e in closed} == {"challenge_closed"}
    assert Match.objects.count() == 1
    challenge.refresh_from_db()
    assert (challenge.status, challenge.match_id) == ("accepted", matches[0].pk)
    assert challenge.opponent_id == matches[0].second_player_id
    assert log_problems(Match.objects.get()) == []
