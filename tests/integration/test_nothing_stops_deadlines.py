"""Deadlines that nothing stops, tried as production runs: PostgreSQL, Redis, real workers.

A fresh checkout's beat runs the sweep; a worker outlives its Redis; an outsider's analysis
requests cannot delay a deadline; a move made while the broker is down is kept, and the
computer answers it once the broker is back.
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine.play import format_play
from games.log.integrity import log_problems
from games.models import Heartbeat, Match, MatchAnalysis
from tests.games.factories import act, make_user, start_match, state_of
from tests.integration.conftest import (
    WORKER_BROKER,
    finished,
    live_match_about_to_run_out,
    needs_postgres_and_redis,
    timeouts,
    wait_for,
)

pytestmark = [needs_postgres_and_redis, pytest.mark.django_db(transaction=True)]

#: The queues of docs/deployment.md's two workers.
URGENT = ("-Q", "urgent")
BACKGROUND = ("-Q", "analysis,email,celery")


def overdue_correspondence_match(*names: str, by: timedelta) -> Match:
    first, second = names
    match = start_match(make_user(first), make_user(second))
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - by)
    return Match.objects.get(pk=match.pk)


def test_a_fresh_checkout_with_a_redis_broker_runs_the_sweep(broker, start_worker, tmp_path):
    fresh_var = tmp_path / "checkout" / "var"  # nothing of it exists yet
    match = overdue_correspondence_match("alice", "bob", by=timedelta(minutes=1))

    worker = start_worker("-B", *URGENT, DJANGO_VAR_DIR=str(fresh_var), SWEEP_INTERVAL="2")

    assert wait_for(lambda: finished(match), 40), "the sweep did not time the match out"
    assert wait_for(lambda: Heartbeat.objects.filter(name="sweep").exists(), 10)
    assert any(fresh_var.glob("celerybeat-schedule*"))
    assert worker.poll() is None
    assert timeouts(match) == 1
    assert log_problems(Match.objects.get(pk=match.pk)) == []


def test_a_worker_keeps_working_when_its_redis_stops_and_starts_again(
    own_redis, start_worker, broker
):
    own_redis.start()
    match = live_match_about_to_run_out(8, "alice", "bob")
    worker = start_worker("-B", *URGENT, CELERY_BROKER_URL=own_redis.url, SWEEP_INTERVAL="2")
    # The countdown the service queues when a live deadline is set: the worker holds it,
    # unacknowledged, until its ETA. Losing Redis with such a task in hand used to kill it.
    from celery import Celery

    client = Celery("redis-restart", broker=own_redis.url, set_as_current=False)
    client.send_task(
        "games.tasks.enforce_deadline",
        args=(match.pk, match.seq),
        eta=match.deadline,
        queue="urgent",
    )
    client.close()
    time.sleep(3)

    own_redis.stop()
    time.sleep(8)  # the deadline passes while Redis is away
    assert worker.poll() is None, "the worker exited when Redis went away"
    assert not finished(match)
    own_redis.start()  # empty: a restart loses what was queued

    assert wait_for(lambda: finished(match), 60), (
        "the timeout was not applied after Redis came back"
    )
    time.sleep(5)  # a second copy, if any, has had its chance to act twice
    assert worker.poll() is None
    assert timeouts(match) == 1
    assert log_problems(Match.objects.get(pk=match.pk)) == []


def test_an_outsiders_analysis_requests_cannot_delay_a_deadline(
    broker, start_worker, publish_to, monkeypatch, settings
):
    # The workers analyse as this process asks (bgsage alone, at its 2 plies): an analysis
    # they finish is then up to date here, and a request for it asks for none again.
    settings.MATCH_ANALYSIS_PLIES, settings.GNUBG_PATH = 2, ""
    publish_to(WORKER_BROKER)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    ended = start_match(alice, bob, length=1)
    ended = act(ended, ended.to_act, "resign", points=1)
    ended = act(ended, ended.to_act, "accept_resign")
    playing = start_match(alice, bob)
    queued: list[int] = []
    from games import tasks

    publish = tasks.analyse_match.apply_async

    def counted(args: Any, **options: Any) -> Any:
        queued.append(args[0])
        return publish(args, **options)

    monkeypatch.setattr(tasks.analyse_match, "apply_async", counted)
    start_worker("-B", *URGENT, GNUBG_PATH="")  # the sweep every minute, as deployed
    start_worker(*BACKGROUND, GNUBG_PATH="")
    due_at = timezone.now() + timedelta(seconds=20)
    overdue = start_match(make_user("dora"), make_user("eve"))
    Match.objects.filter(pk=overdue.pk).update(deadline=due_at)

    answers = {}
    for outsider, match in ((carol, playing), (make_user("dave"), ended)):
        client = APIClient()
        client.force_authenticate(outsider)
        url = reverse("api-match-analysis", args=[match.pk])
        answers[match.pk] = [client.post(url).status_code for _ in range(30)]
    # A match being played is never analysed; a player may ask 20 times an hour.
    assert answers[playing.pk] == [409] * 20 + [429] * 10
    assert answers[ended.pk] == [202] * 20 + [429] * 10
    assert len(queued) <= 1  # queued when it ended; at most once more, never per request
    # The analysis queue is as full as an outsider could ever have made it.
    for _ in range(28):
        broker.send_task("games.tasks.analyse_match", args=(ended.pk,), queue="analysis")

    assert wait_for(lambda: finished(overdue), 120), "the deadline was never enforced"
    lost_at = Match.objects.get(pk=overdue.pk).finished_at
    assert lost_at - due_at < timedelta(seconds=90)
    assert timeouts(overdue) == 1
    assert not MatchAnalysis.objects.filter(match=playing).exists()


def test_a_move_against_the_computer_while_the_broker_is_down_is_answered_later(
    own_redis, start_worker, publish_to
):
    import importlib

    from django.apps import apps

    # A test that empties the database (transaction=True) takes away the bots the migration
    # made: put them back.
    importlib.import_module("accounts.migrations.0005_computer_opponents").create_bots(apps, None)
    beginner = get_user_model().objects.get(username="BeginnerBot")
    alice = make_user("alice")
    publish_to(own_redis.url)  # and that Redis is down
    match = start_match(alice, beginner)
    while match.to_act_id != alice.pk:
        match = start_match(alice, beginner)

    plays = state_of(match).legal_plays()
    client = APIClient()
    client.force_authenticate(alice)
    response = client.post(
        reverse("api-match-actions", args=[match.pk]),
        {"seq": match.seq, "action": "move", "play": format_play(plays[0]) if plays else ""},
        format="json",
    )
    assert response.status_code == 200, response.content
    moved = Match.objects.get(pk=match.pk)
    assert moved.seq > match.seq and moved.to_act_id == beginner.pk

    start_worker("-B", *URGENT, CELERY_BROKER_URL=own_redis.url, SWEEP_INTERVAL="5")
    time.sleep(5)  # the worker has been trying to reach the broker
    own_redis.start()
    back = time.monotonic()

    assert wait_for(
        lambda: Match.objects.get(pk=match.pk).to_act_id != beginner.pk or finished(match),
        150,
    ), "the computer never moved"
    assert time.monotonic() - back < 120
    assert log_problems(Match.objects.get(pk=match.pk)) == []


def test_the_worker_stops_failing_when_its_beat_cannot_start(broker, start_worker, tmp_path):
    unusable = tmp_path / "a-file"
    unusable.write_text("beat cannot keep its schedule under a file")
    worker = start_worker("-B", *URGENT, "-s", str(unusable / "celerybeat-schedule"))
    assert wait_for(lambda: worker.poll() is not None, 30), "the worker ran on without beat"
    assert worker.returncode != 0
    log = (tmp_path / "worker-0.log").read_text()
    assert "Beat has stopped" in log


def test_a_live_clock_outlives_a_kill_of_the_urgent_worker(broker, start_worker, publish_to):
    import redis

    publish_to(WORKER_BROKER)
    # No beat, so no sweep to rescue the clock, and a visibility timeout of an hour, as
    # deployed: the countdown the killed worker held comes back from Redis only after it.
    held = {"CELERY_VISIBILITY_TIMEOUT": "3600"}
    worker = start_worker(*URGENT, **held)
    assert wait_for(lambda: Heartbeat.objects.filter(name="worker:urgent").exists(), 60)
    match = live_match_about_to_run_out(20, "alice", "bob")
    from games import tasks

    tasks.enforce_deadline.apply_async((match.pk, match.seq), eta=match.deadline)
    unacked = redis.Redis.from_url(WORKER_BROKER)
    assert wait_for(lambda: unacked.hlen("unacked") >= 2, 30), "the worker holds no countdown"

    worker.kill()
    worker.wait()
    start_worker(*URGENT, **held)

    assert wait_for(lambda: finished(match), 90), "the live clock's timeout was lost"
    late = Match.objects.get(pk=match.pk).finished_at - match.deadline
    print(f"timeout applied {late.total_seconds():.2f} s after the deadline")
    assert timeouts(match) == 1
    assert log_problems(Match.objects.get(pk=match.pk)) == []
