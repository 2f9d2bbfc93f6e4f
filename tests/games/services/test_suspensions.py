"""Suspension as a service: the account is suspended with a reason and an audit record, and
the moderator's choice for the matches under way (forfeit, or clocks paused until the account
is reactivated); refusals change nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.guests import new_guest
from backgammon_site.core.errors import ApplicationError, Forbidden
from games import services
from games.clocks import sweep
from games.models import AuditRecord, Match, Tournament
from games.services.guests import idle_guests_purge
from tests.games.clocks.test_time import DAY, HOUR, ONE_PLUS_EIGHT, opened, seconds
from tests.games.clocks.test_time import clock as clock  # noqa: F401 (the fixture)
from tests.games.factories import act, make_user, reload
from tests.games.services.test_tournaments import knockout, pairing, rated_player

pytestmark = pytest.mark.django_db


def test_suspension_with_forfeit_awards_every_match_under_way(
    clock: Any, dice: Any, alice: Any, bob: Any, carol: Any, moderator: Any
) -> None:
    waiting_for_alice = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    waiting_for_carol = opened(dice, carol, alice, ONE_PLUS_EIGHT)

    record = services.account_suspend(
        moderator=moderator, user=alice, reason="Multiple accounts", running_matches="forfeit"
    )

    alice.refresh_from_db()
    assert not alice.is_active
    for match, opponent in ((waiting_for_alice, bob), (waiting_for_carol, carol)):
        match = reload(match)
        assert match.status == Match.Status.FINISHED
        assert match.winner == opponent
        award = match.events.exclude(kind="dice_revealed").order_by("-seq").first()
        assert award.kind == "match_awarded"
        assert award.actor == moderator
        assert "Multiple accounts" in award.payload["reason"]
    assert record.kind == AuditRecord.Kind.ACCOUNT_SUSPENDED
    assert (record.acting_user, record.modified_user) == (moderator, alice)
    assert record.reason == "Multiple accounts"
    assert record.details == {
        "running_matches": "forfeit",
        "matches": sorted([waiting_for_alice.pk, waiting_for_carol.pk]),
    }


def test_suspension_with_pause_stops_the_clocks_until_reactivation(
    clock: Any, dice: Any, alice: Any, bob: Any, carol: Any, moderator: Any
) -> None:
    waiting_for_alice = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    waiting_for_carol = opened(dice, carol, alice, ONE_PLUS_EIGHT)
    clock.advance(2 * HOUR)

    services.account_suspend(
        moderator=moderator, user=alice, reason="Under review", running_matches="pause"
    )

    paused = reload(waiting_for_alice)
    assert (paused.deadline, paused.paused_time_left) == (None, seconds(9 * DAY - 2 * HOUR))
    # Carol's decision runs on; once it is alice's turn, hers waits paused.
    act(waiting_for_carol, carol, "move", play="8/5 6/5")
    handed = reload(waiting_for_carol)
    assert handed.to_act == alice
    assert (handed.deadline, handed.paused_time_left) == (None, seconds(9 * DAY))
    clock.advance(30 * DAY)
    assert sweep.sweep().timed_out == 0
    assert reload(waiting_for_alice).status == Match.Status.ACTIVE

    record = services.account_reactivate(moderator=moderator, user=alice, reason="Cleared")

    alice.refresh_from_db()
    assert alice.is_active
    resumed = reload(waiting_for_alice)
    assert resumed.paused_time_left is None
    assert resumed.deadline == clock.now + 9 * DAY - 2 * HOUR
    assert reload(waiting_for_carol).deadline == clock.now + 9 * DAY
    assert record.kind == AuditRecord.Kind.ACCOUNT_REACTIVATED
    assert sorted(record.details["resumed_matches"]) == sorted(
        [waiting_for_alice.pk, waiting_for_carol.pk]
    )
    # Reactivated, alice's next decisions run on the clock again.
    assert AuditRecord.objects.filter(modified_user=alice).count() == 2
    clock.advance(10 * DAY)
    assert sweep.sweep().timed_out == 2


def test_suspension_with_forfeit_takes_the_player_out_of_their_knockout(moderator: Any) -> None:
    tournament = knockout(moderator, size=4)
    players = {f"p{n}": rated_player(f"p{n}", 2000 - 50 * n) for n in range(1, 5)}
    for player in players.values():
        services.tournament_sign_up(tournament_id=tournament.pk, player=player)
    # p1 wins round one, then is suspended before the final is known.
    services.match_award(
        match_id=pairing(tournament, 1, 0).match.pk,
        moderator=moderator,
        winner=players["p1"],
        reason="test",
    )
    services.tournament_advance(tournament_id=tournament.pk)
    services.account_suspend(
        moderator=moderator, user=players["p1"], reason="Cheating", running_matches="forfeit"
    )
    services.match_award(
        match_id=pairing(tournament, 1, 1).match.pk,
        moderator=moderator,
        winner=players["p2"],
        reason="test",
    )
    services.tournament_advance(tournament_id=tournament.pk)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.winner == players["p2"]
    assert pairing(tournament, 2, 0).match is None


@pytest.mark.parametrize(
    ("who", "running", "reason", "error"),
    [
        ("bob", "forfeit", "Spam", Forbidden),
        ("mod", "forfeit", "Spam", None),
        ("mod", "resign", "Spam", ApplicationError),
        ("mod", "pause", "  ", ApplicationError),
    ],
)
def test_bad_suspensions_are_refused_and_change_nothing(
    dice: Any,
    alice: Any,
    bob: Any,
    moderator: Any,
    who: str,
    running: str,
    reason: str,
    error: Any,
) -> None:
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    actor = {"bob": bob, "mod": moderator}[who]
    if error is None:
        # A moderator cannot suspend their own account.
        alice = moderator
        error = Forbidden
    with pytest.raises(error) as refused:
        services.account_suspend(
            moderator=actor, user=alice, reason=reason, running_matches=running
        )
    assert refused.value.message
    alice.refresh_from_db()
    assert alice.is_active
    stored = reload(match)
    assert (stored.status, stored.deadline is not None) == (Match.Status.ACTIVE, True)
    assert not AuditRecord.objects.exists()


def test_a_suspended_account_is_not_suspended_twice(moderator: Any) -> None:
    player = make_user("pat")
    services.account_suspend(moderator=moderator, user=player, reason="Spam")
    with pytest.raises(ApplicationError) as refused:
        services.account_suspend(moderator=moderator, user=player, reason="Spam again")
    assert refused.value.code == "suspended"
    with pytest.raises(ApplicationError):
        services.account_reactivate(moderator=moderator, user=make_user("quin"), reason="x")
    assert AuditRecord.objects.count() == 1


def test_a_moderator_cannot_suspend_staff(moderator: Any) -> None:
    staff = make_user("sam", is_staff=True)
    with pytest.raises(Forbidden):
        services.account_suspend(moderator=moderator, user=staff, reason="No")
    staff.refresh_from_db()
    assert staff.is_active


def test_a_suspended_guest_is_kept_by_the_purge_with_its_record(moderator: Any) -> None:
    suspended, idle = new_guest("Spammer"), new_guest("Idle")
    services.account_suspend(moderator=moderator, user=suspended, reason="Spam in chat")
    long_ago = timezone.now() - timedelta(days=31)
    get_user_model().objects.filter(pk__in=[suspended.pk, idle.pk]).update(date_joined=long_ago)

    assert idle_guests_purge() == (1, 0)
    assert get_user_model().objects.filter(pk=suspended.pk).exists()
    assert AuditRecord.objects.get().modified_user_id == suspended.pk
