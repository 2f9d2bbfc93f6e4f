"""Time per move and reserve, vacation, live Fischer clocks, and timeouts: on a frozen clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import Profile
from accounts.vacation import VacationAllowance
from backgammon_site.core.errors import ApplicationError, IllegalAction
from games import services
from games.clocks import sweep
from games.clocks.rules import vacation_days_used
from games.models import Match, MatchEvent
from games.signals import deadline_near
from ratings.models import RatingChange
from tests.games.api.conftest import client_for
from tests.games.factories import act, kinds_of, make_user, reload, start_match, state_of

START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
ONE_PLUS_EIGHT = {"kind": "correspondence", "days_per_move": 1, "reserve_days": 8}
LIVE = {"kind": "live", "minutes": 8, "increment_seconds": 10}

pytestmark = pytest.mark.django_db


class Clock:
    """The time every part of the service reads, moved on by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = START
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def advance(self, by: timedelta) -> datetime:
        self.now += by
        return self.now


@pytest.fixture
def clock(monkeypatch):
    return Clock(monkeypatch)


def opened(dice, alice, bob, time_control, **options):
    """A match in which alice has rolled 3-1 at START and must move."""
    dice.add(3, 1)
    return start_match(alice, bob, time_control=time_control, **options)


def seconds(delta: timedelta) -> float:
    return delta.total_seconds()


# --- Correspondence: time per move and reserve ---


def test_a_decision_has_the_time_per_move_and_the_whole_reserve(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)

    assert match.to_act == alice
    assert match.clocks == [seconds(8 * DAY), seconds(8 * DAY)]
    assert match.deadline == START + 9 * DAY
    assert match.warn_at == START + 9 * DAY - 12 * HOUR


def test_acting_within_the_time_per_move_keeps_the_reserve(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(23 * HOUR)

    match = act(match, alice, "move", play="8/5 6/5")

    assert match.clocks == [seconds(8 * DAY), seconds(8 * DAY)]
    assert match.to_act == bob
    assert match.deadline == clock.now + 9 * DAY


def test_time_beyond_the_time_per_move_comes_out_of_the_reserve(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(DAY + 5 * HOUR)

    match = act(match, alice, "move", play="8/5 6/5")

    assert match.clocks[0] == seconds(8 * DAY - 5 * HOUR)
    assert match.clocks[1] == seconds(8 * DAY)


def test_rolling_and_moving_are_two_decisions_each_with_the_time_per_move(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    match = act(match, alice, "move", play="8/5 6/5")
    clock.advance(20 * HOUR)
    dice.add(6, 5)
    match = act(match, bob, "roll")
    assert match.deadline == clock.now + 9 * DAY  # a new decision: moving
    clock.advance(20 * HOUR)

    match = act(match, bob, "move", play="24/13")

    assert match.clocks[1] == seconds(8 * DAY)


def test_a_player_without_a_reserve_has_exactly_the_time_per_move(clock, dice, alice, bob):
    match = opened(dice, alice, bob, {"kind": "correspondence", "days_per_move": 3})

    assert match.deadline == START + 3 * DAY
    assert match.clocks == [0, 0]


def test_a_short_deadline_is_not_warned_of_twice(clock, dice, alice, bob):
    match = opened(dice, alice, bob, {"kind": "correspondence", "days_per_move": 0.25})

    assert match.deadline == START + 6 * HOUR
    assert match.warn_at is None  # the turn's own notice says it all


# --- Timeouts ---


def test_the_player_to_act_loses_the_match_when_the_deadline_passes(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT, rated=True)
    clock.advance(9 * DAY)

    check = services.match_timeout(match_id=match.pk, seq=match.seq)

    match = reload(match)
    assert check.timed_out
    assert kinds_of(match)[-2:] == ["timeout", "dice_revealed"]
    assert (match.status, match.winner, match.to_act, match.deadline) == (
        "finished",
        bob,
        None,
        None,
    )
    assert state_of(match).end_reason == "timeout"
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_timeout_is_applied_exactly_once(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(10 * DAY)

    results = [services.match_timeout(match_id=match.pk, seq=match.seq) for _ in range(3)]
    results.append(services.match_timeout(match_id=match.pk))
    sweep.sweep()

    assert [result.timed_out for result in results] == [True, False, False, False]
    assert kinds_of(match).count("timeout") == 1


def test_no_timeout_before_the_deadline_or_at_another_seq(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(9 * DAY - timedelta(seconds=1))

    early = services.match_timeout(match_id=match.pk, seq=match.seq)
    clock.advance(timedelta(seconds=2))
    stale = services.match_timeout(match_id=match.pk, seq=match.seq - 1)

    assert (early.timed_out, early.deadline) == (False, START + 9 * DAY)
    assert (stale.timed_out, stale.deadline) == (False, None)
    assert reload(match).status == "active"


def test_acting_after_the_deadline_loses_on_time_instead(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(9 * DAY)

    with pytest.raises(IllegalAction, match="Time ran out: alice lost") as refusal:
        act(match, alice, "move", play="8/5 6/5")

    assert refusal.value.code == "timeout"
    match = reload(match)
    assert (match.status, match.winner) == ("finished", bob)
    assert "move" not in kinds_of(match)[1:]


@pytest.mark.parametrize("idempotency_key", [None, "late-move-1"])
def test_acting_too_late_over_the_api_loses_on_time_with_or_without_a_key(
    clock, dice, alice, bob, idempotency_key
):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(9 * DAY)
    headers = {"HTTP_IDEMPOTENCY_KEY": idempotency_key} if idempotency_key else {}

    answer = client_for(alice).post(
        f"/api/matches/{match.pk}/actions/",
        {"seq": match.seq, "action": "move", "play": "8/5 6/5"},
        format="json",
        **headers,
    )

    assert answer.status_code == 400 and answer.json()["code"] == "timeout"
    match = reload(match)
    assert (match.status, match.winner) == ("finished", bob)
    assert kinds_of(match).count("timeout") == 1


def test_the_sweep_finds_what_is_due_and_nothing_else(clock, dice, alice, bob):
    carol = make_user("carol")
    late = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(DAY)
    on_time = opened(dice, alice, carol, ONE_PLUS_EIGHT)
    clock.advance(8 * DAY)

    report = sweep.sweep()

    assert report.timed_out == 1
    assert reload(late).status == "finished"
    assert reload(on_time).status == "active"
    assert list(sweep.due_matches(clock.now)) == []


def test_each_deadline_gets_one_countdown_when_it_is_minutes_away(
    clock, dice, alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    started = []
    monkeypatch.setattr(sweep, "start_countdown", lambda *args: started.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        live = opened(dice, alice, bob, LIVE)  # 8 minutes: a countdown at once
    with django_capture_on_commit_callbacks(execute=True):
        post = opened(dice, bob, alice, {"kind": "correspondence", "days_per_move": 0.25})
    assert started == [(live.pk, live.seq, START + timedelta(minutes=8))]
    clock.advance(6 * HOUR - timedelta(seconds=60))

    sweep.sweep()
    sweep.sweep()

    assert started[1:] == [(post.pk, post.seq, START + 6 * HOUR)] * 2


def test_the_sweep_warns_once_per_decision(
    clock, dice, alice, bob, django_capture_on_commit_callbacks
):
    warnings = []

    def heard(sender, **details):
        warnings.append(details)

    deadline_near.connect(heard)
    try:
        match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
        clock.advance(9 * DAY - 12 * HOUR)
        with django_capture_on_commit_callbacks(execute=True):
            first = sweep.sweep()
        clock.advance(HOUR)
        with django_capture_on_commit_callbacks(execute=True):
            second = sweep.sweep()
    finally:
        deadline_near.disconnect(heard)

    assert (first.warned, second.warned) == (1, 0)
    assert warnings == [
        {
            "signal": deadline_near,
            "match_id": match.pk,
            "seq": match.seq,
            "player_id": alice.pk,
            "deadline": START + 9 * DAY,
        }
    ]
    assert reload(match).warn_at is None


def test_a_moderator_can_still_end_a_match_on_time_control(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    moderator = make_user("mod", is_staff=True, is_superuser=True)

    services.match_abort(match_id=match.pk, moderator=moderator, reason="duplicate")

    assert (reload(match).deadline, reload(match).warn_at) == (None, None)


# --- Live: Fischer clock ---


def test_a_live_clock_runs_only_for_the_player_who_must_decide(clock, dice, alice, bob):
    match = opened(dice, alice, bob, LIVE)
    assert match.deadline == START + timedelta(minutes=8)
    assert match.warn_at is None
    clock.advance(timedelta(seconds=70))

    match = act(match, alice, "move", play="8/5 6/5")

    assert match.clocks == [480 - 70 + 10, 480]
    assert match.deadline == clock.now + timedelta(seconds=480)


def test_the_increment_comes_after_a_completed_move_not_after_a_roll(clock, dice, alice, bob):
    match = opened(dice, alice, bob, LIVE)
    match = act(match, alice, "move", play="8/5 6/5")
    clock.advance(timedelta(seconds=30))
    dice.add(6, 5)
    match = act(match, bob, "roll")
    assert match.clocks[1] == 450
    clock.advance(timedelta(seconds=15))

    match = act(match, bob, "move", play="24/13")

    assert match.clocks[1] == 450 - 15 + 10


def test_a_live_player_who_runs_out_loses_on_time(clock, dice, alice, bob):
    match = opened(dice, alice, bob, LIVE)
    clock.advance(timedelta(minutes=8))

    assert services.match_timeout(match_id=match.pk, seq=match.seq).timed_out
    assert reload(match).winner == bob


# --- Vacation ---


def test_vacation_pauses_only_the_vacationers_deadlines(clock, dice, alice, bob):
    carol = make_user("carol")
    waiting_for_alice = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    waiting_for_carol = opened(dice, carol, alice, {"kind": "correspondence", "days_per_move": 1})
    clock.advance(2 * HOUR)

    services.vacation_start(user=alice)

    paused, running = reload(waiting_for_alice), reload(waiting_for_carol)
    assert (paused.deadline, paused.paused_time_left) == (None, seconds(9 * DAY - 2 * HOUR))
    assert running.deadline == START + DAY
    clock.advance(2 * DAY)
    assert sweep.sweep().timed_out == 1  # carol's: vacation is no shield for opponents
    assert reload(waiting_for_carol).winner == alice
    assert reload(waiting_for_alice).status == "active"


def test_switching_vacation_off_resumes_the_deadline_and_uses_whole_days(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    clock.advance(DAY)
    services.vacation_start(user=alice)
    clock.advance(DAY + HOUR)

    profile = services.vacation_end(user=alice)

    assert profile.vacation_days == 4 - 2
    assert profile.vacation_started_at is None
    assert reload(match).deadline == clock.now + 8 * DAY


def test_a_turn_that_starts_during_vacation_waits_for_its_end(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    services.vacation_start(user=bob)
    clock.advance(HOUR)

    match = act(match, alice, "move", play="8/5 6/5")

    assert (match.to_act, match.deadline, match.paused_time_left) == (bob, None, seconds(9 * DAY))


def test_acting_ends_the_vacation(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    services.vacation_start(user=alice)
    clock.advance(3 * HOUR)

    match = act(match, alice, "move", play="8/5 6/5")

    profile = Profile.objects.get(user=alice)
    assert (profile.vacation_started_at, profile.vacation_days) == (None, 3)
    assert match.clocks[0] == seconds(8 * DAY)  # the paused hours cost no reserve


def test_vacation_ends_when_its_days_run_out(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    services.vacation_start(user=alice)
    clock.advance(4 * DAY + 30 * 60 * timedelta(seconds=1))

    report = sweep.sweep()

    assert report.vacations_ended == 1
    profile = Profile.objects.get(user=alice)
    assert (profile.vacation_started_at, profile.vacation_days) == (None, 0)
    assert reload(match).deadline == START + 4 * DAY + 9 * DAY  # resumed when the days ran out
    with pytest.raises(ApplicationError, match="no vacation days left"):
        services.vacation_start(user=alice)


def test_vacation_cannot_be_switched_on_twice(clock, alice):
    services.vacation_start(user=alice)
    with pytest.raises(ApplicationError, match="already on vacation"):
        services.vacation_start(user=alice)


def test_live_matches_take_no_vacation(clock, dice, alice, bob):
    match = opened(dice, alice, bob, LIVE)

    services.vacation_start(user=alice)

    assert reload(match).deadline == START + timedelta(minutes=8)


def test_vacation_days_are_earned_two_a_month_up_to_thirty():
    allowance = VacationAllowance(4, START)

    assert allowance.at(START + 29 * DAY).days == 4
    assert allowance.at(START + 30 * DAY).days == 6
    assert allowance.at(START + 95 * DAY) == VacationAllowance(10, START + 90 * DAY)
    assert allowance.at(START + 3000 * DAY).days == 30


@pytest.mark.parametrize(
    ("length", "days"),
    [(timedelta(0), 1), (HOUR, 1), (DAY, 1), (DAY + timedelta(seconds=1), 2), (3 * DAY, 3)],
)
def test_vacation_is_used_in_whole_days(length, days):
    assert vacation_days_used(START, START + length) == days


# --- What the log keeps ---


def test_time_never_writes_to_the_log_except_the_timeout(clock, dice, alice, bob):
    match = opened(dice, alice, bob, ONE_PLUS_EIGHT)
    before = MatchEvent.objects.filter(match=match).count()

    services.vacation_start(user=alice)
    services.vacation_end(user=alice)
    sweep.sweep()

    assert MatchEvent.objects.filter(match=match).count() == before
    assert Match.objects.get(pk=match.pk).seq == match.seq
