"""On PostgreSQL the database defends the log itself (games migrations 0002, 0012, 0027): the
guest purge's function deletes only the events of matches that began between guests (and the
computer), TRUNCATE is refused to everyone, and a match cannot be deleted while its log
exists. (The flag alone opens the log to the tables' owner only: tests/games/log/
test_trigger_service_role.py tries it as the service.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from accounts.guests import new_guest
from accounts.models import Profile
from games.models import Match, MatchEvent
from games.services.guests import idle_guests_purge
from tests.games.factories import make_user, start_match

pytestmark = pytest.mark.django_db

PURGE_FLAG = "SET LOCAL games.purge = 'guest-matches'"


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("the trigger exists on PostgreSQL only; CI runs this against PostgreSQL")


def computer(name="TriggerBot"):
    """A computer opponent of the test's own (the migrations' bots go with a flushed database)."""
    bot = make_user(name)
    Profile.objects.create(user=bot, bot_level="beginner")
    return bot


def begun(dice, first, second):
    dice.add(3, 1)
    match = start_match(first, second, length=1)
    assert MatchEvent.objects.filter(match=match).exists()
    return match


def run(*statements):
    """Run the statements as a transaction of their own would (in a savepoint of the test's).

    Foreign keys are checked at commit: the test's own inserts are checked before, and the
    statements' changes after, as a commit would.
    """
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for sql, params in statements:
            cursor.execute(sql, params)
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def events_left(match):
    return MatchEvent.objects.filter(match=match).count()


def purge(*matches):
    return (
        "SELECT games_guest_matches_purge(%s::bigint[])",
        [[match.pk for match in matches]],
    )


@pytest.mark.parametrize("opponent", ["guest", "computer"])
def test_the_purge_function_deletes_the_log_of_a_match_between_guests(dice, opponent):
    match = begun(dice, new_guest(), new_guest() if opponent == "guest" else computer())

    run(purge(match), ("DELETE FROM games_match WHERE id = %s", [match.pk]))

    assert events_left(match) == 0
    assert not Match.objects.filter(pk=match.pk).exists()


@pytest.mark.parametrize("guest_seat", [0, 1])
def test_the_purge_function_refuses_a_match_with_a_signed_up_player(dice, alice, guest_seat):
    players = [alice, new_guest()] if guest_seat else [new_guest(), alice]
    match = begun(dice, *players)
    count = events_left(match)

    with pytest.raises(DatabaseError, match=f"match {match.pk} did not"):
        run(purge(match))

    assert events_left(match) == count


def test_the_purge_function_refuses_signed_up_players_and_computer_only_matches(dice, alice, bob):
    between_computers = begun(dice, computer("FirstBot"), computer("SecondBot"))
    for match in (begun(dice, alice, bob), begun(dice, computer(), alice), between_computers):
        with pytest.raises(DatabaseError, match="did not"):
            run(purge(match))
        assert events_left(match) > 0


def test_one_refused_match_and_the_purge_function_deletes_nothing(dice, alice):
    between_guests = begun(dice, new_guest(), new_guest())
    with_alice = begun(dice, new_guest(), alice)

    with pytest.raises(DatabaseError, match=f"match {with_alice.pk} did not"):
        run(purge(between_guests, with_alice))

    assert events_left(between_guests) > 0 and events_left(with_alice) > 0


def test_the_purge_function_trusts_the_first_event_not_the_profiles_now(dice, alice, bob):
    """Players who signed up, later marked as guests, are still the signed-up players their
    match began with; a guest who has signed up since is no longer a guest."""
    signed_up = begun(dice, alice, bob)
    converted_guest = new_guest()
    was_guests = begun(dice, converted_guest, new_guest())
    Profile.objects.filter(user__in=[alice, bob]).update(is_guest=True)
    Profile.objects.filter(user=converted_guest).update(is_guest=False)

    for match in (signed_up, was_guests):
        with pytest.raises(DatabaseError, match=f"match {match.pk} did not"):
            run(purge(match))
        assert events_left(match) > 0


def test_a_signed_up_players_match_cannot_lose_its_row_first_and_its_log_after(dice, alice):
    """Deleting the match row first (its foreign key waits for the commit) changes nothing:
    the log's own first event says who played."""
    match = begun(dice, new_guest(), alice)
    count = events_left(match)

    with pytest.raises(DatabaseError, match="did not"):
        run(("DELETE FROM games_match WHERE id = %s", [match.pk]), purge(match))

    assert events_left(match) == count and Match.objects.filter(pk=match.pk).exists()


def test_a_match_with_a_log_cannot_be_deleted_by_sql(dice, alice, bob):
    match = begun(dice, alice, bob)

    with pytest.raises(IntegrityError, match="games_matchevent"):
        run(("DELETE FROM games_match WHERE id = %s", [match.pk]))

    assert Match.objects.filter(pk=match.pk).exists()


def test_the_trigger_reads_the_real_tables_not_a_sessions_temporary_ones(dice, alice):
    """A session's temporary tables come first on its search path; the trigger names its
    schema, so fakes of the same names cannot make a signed-up player's match a guests'."""
    match = begun(dice, new_guest(), alice)
    count = events_left(match)
    fakes = (
        "CREATE TEMP TABLE games_match ON COMMIT DROP AS"
        " SELECT id, first_player_id, second_player_id FROM public.games_match",
        "CREATE TEMP TABLE accounts_profile ON COMMIT DROP AS"
        " SELECT user_id, true AS is_guest, bot_level FROM public.accounts_profile",
        "INSERT INTO accounts_profile SELECT id, true, '' FROM auth_user",
    )

    with pytest.raises(DatabaseError, match="did not"):
        run(*((sql, None) for sql in fakes), purge(match))

    assert events_left(match) == count


@pytest.mark.parametrize("flag", [False, True])
def test_truncate_is_refused_even_with_the_purge_flag(dice, alice, flag):
    match = begun(dice, new_guest(), new_guest())
    begun(dice, alice, new_guest())
    count = MatchEvent.objects.count()
    statements = [(PURGE_FLAG, None)] if flag else []

    for truncate in ("TRUNCATE games_matchevent", "TRUNCATE games_match CASCADE"):
        with pytest.raises(DatabaseError, match="append-only: TRUNCATE refused"):
            run(*statements, (truncate, None))

    assert MatchEvent.objects.count() == count and events_left(match) > 0


def test_idle_guests_purge_passes_the_trigger(dice, alice):
    """The purge end to end: the idle guest's match against the computer and a match between
    two idle guests go with their logs; a guest's match with a signed-up player stays."""
    long_ago = timezone.now() - timedelta(days=31)
    idle, other_idle, kept_guest = new_guest(), new_guest(), new_guest()
    against_computer = begun(dice, idle, computer())
    between_guests = begun(dice, other_idle, idle)
    with_alice = begun(dice, kept_guest, alice)
    get_user_model().objects.filter(pk__in=[idle.pk, other_idle.pk, kept_guest.pk]).update(
        date_joined=long_ago
    )
    Match.objects.update(updated_at=long_ago)

    assert idle_guests_purge() == (2, 2)

    assert not Match.objects.filter(pk__in=[against_computer.pk, between_guests.pk]).exists()
    assert not MatchEvent.objects.filter(match__in=[against_computer, between_guests]).exists()
    assert events_left(with_alice) > 0
