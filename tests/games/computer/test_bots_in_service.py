"""Bots in the service: they accept challenges at once and play whole matches through the
services from Celery tasks; a stale task does nothing; a finished match is analysed."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import is_computer
from games import services, tasks
from games.models import Challenge, Match, MatchAnalysis
from tests.games.computer.conftest import bot
from tests.games.factories import act, events_of, reload, start_match

pytestmark = pytest.mark.django_db


def test_the_four_bots_exist_as_marked_accounts():
    for name, level in [
        ("BeginnerBot", "beginner"),
        ("IntermediateBot", "intermediate"),
        ("AdvancedBot", "advanced"),
        ("ExpertBot", "expert"),
    ]:
        player = bot(name)
        assert player.profile.bot_level == level and is_computer(player)
        assert not player.has_usable_password()


@pytest.mark.slow
def test_a_bot_plays_a_whole_match_against_another_through_the_services(
    django_capture_on_commit_callbacks: Any, analyses: None
) -> None:
    beginner, intermediate = bot("BeginnerBot"), bot("IntermediateBot")
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.challenge_create(
            challenger=beginner, opponent=intermediate, match_length=1, rated=True
        )
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.ACCEPTED
    match = Match.objects.get(pk=challenge.match_id)
    assert match.status == Match.Status.FINISHED
    assert match.winner in (beginner, intermediate)
    actors = {event.actor_id for event in events_of(match) if event.actor_id is not None}
    assert actors <= {beginner.pk, intermediate.pk} and len(actors) == 2
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.DONE and analysis.seq == match.seq
    assert sum(p["decisions"] for p in analysis.result["players"]["bgsage"]) > 0


def test_a_bot_accepts_a_challenge_and_makes_its_first_decision(
    alice: Any, dice: Any, django_capture_on_commit_callbacks: Any
) -> None:
    expert = bot("ExpertBot")
    dice.add(1, 3)  # the bot starts with 3-1
    with django_capture_on_commit_callbacks(execute=True):
        challenge = services.challenge_create(challenger=alice, opponent=expert, match_length=3)
    challenge.refresh_from_db()
    match = Match.objects.get(pk=challenge.match_id)
    assert [e.payload.get("play") for e in events_of(match) if e.kind == "move"] == ["8/5 6/5"]
    assert match.to_act == alice


def test_an_open_challenge_or_one_to_a_person_is_left_alone(
    alice: Any, bob: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        to_bob = services.challenge_create(challenger=alice, opponent=bob)
        open_one = services.challenge_create(challenger=alice, opponent=None)
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 2
    assert tasks.bot_accept_challenge(to_bob.pk) == "not for a bot"
    assert tasks.bot_accept_challenge(open_one.pk) == "not for a bot"


def test_a_stale_bot_task_does_nothing(alice: Any, dice: Any) -> None:
    expert = bot("ExpertBot")
    dice.add(3, 1)  # alice starts
    match = start_match(alice, expert)
    stale_seq = match.seq
    match = act(match, alice, "move", play="8/5 6/5")
    dice.add(6, 5)
    assert tasks.bot_act(match.pk, stale_seq) == "stale"
    assert reload(match).seq == match.seq
    # At the current seq it acts: it rolls (it cannot sensibly double), then plays.
    assert tasks.bot_act(match.pk, match.seq) == "roll"
    match = reload(match)
    assert tasks.bot_act(match.pk, match.seq) == "move"
    assert reload(match).to_act == alice
    assert tasks.bot_act(match.pk, reload(match).seq) == "no bot to act"


def test_a_match_won_is_analysed_once_and_an_aborted_one_is_not(
    alice: Any, bob: Any, dice: Any, django_capture_on_commit_callbacks: Any, analyses: None
) -> None:
    from tests.games.factories import make_moderator

    dice.add(3, 1, 3, 1)
    won, aborted = start_match(alice, bob, length=3), start_match(alice, bob, length=3)
    with django_capture_on_commit_callbacks(execute=True):
        won = act(won, alice, "move", play="8/5 6/5")
        won = act(won, bob, "resign", points=3)
        won = act(won, alice, "accept_resign")
        services.match_abort(match_id=aborted.pk, moderator=make_moderator("mod"), reason="x")
    assert reload(won).status == Match.Status.FINISHED
    analysis = MatchAnalysis.objects.get(match=won)
    assert analysis.status == MatchAnalysis.Status.DONE
    bests = [d["opinions"]["bgsage"]["best"] for d in analysis.result["decisions"]]
    assert bests == ["8/5 6/5"]
    assert not MatchAnalysis.objects.filter(match=aborted).exists()
