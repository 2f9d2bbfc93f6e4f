"""Idempotency-Key records last a day: an older key is new again, and the daily purge deletes
the records that old (games.services.idempotency)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.models import Challenge, IdempotencyRecord
from games.services.idempotency import KEY_LIFETIME, idempotency_records_purge
from tests.games.api.conftest import actions, client_for

pytestmark = pytest.mark.django_db

CHALLENGE = {"opponent": "bob", "match_length": 3, "rated": False}


def challenge(client, key, body=CHALLENGE):
    return client.post("/api/challenges/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def made(age):
    """Make every record ``age`` old."""
    IdempotencyRecord.objects.update(created_at=timezone.now() - age)


def test_a_key_a_little_under_a_day_old_is_still_replayed(alice, bob):
    client = client_for(alice)
    first = challenge(client, "c1")
    made(KEY_LIFETIME - timedelta(minutes=1))

    again = challenge(client, "c1")

    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Challenge.objects.count() == 1


def test_a_key_older_than_a_day_is_new_and_its_record_replaced(alice, bob):
    client = client_for(alice)
    first = challenge(client, "c1")
    made(KEY_LIFETIME + timedelta(seconds=1))

    again = challenge(client, "c1")

    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert again.json()["id"] != first.json()["id"]
    assert Challenge.objects.count() == 2
    record = IdempotencyRecord.objects.get(key="c1")
    assert timezone.now() - record.created_at < timedelta(minutes=1)
    assert record.body == again.json()
    replayed = challenge(client, "c1")
    assert replayed["Idempotent-Replayed"] == "true" and replayed.json() == again.json()


def test_an_expired_key_may_carry_a_different_request(dice, match, bob):
    client = client_for(bob)
    dice.add(2, 1)
    rolled = client.post(
        actions(match),
        {"seq": match.seq, "action": "roll"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert rolled.status_code == 200, rolled.content
    made(KEY_LIFETIME + timedelta(seconds=1))

    response = client.post(
        "/api/challenges/", {"opponent": "alice"}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    )

    assert response.status_code == 201, response.content
    assert IdempotencyRecord.objects.get(key="k").body == response.json()


def test_the_daily_purge_deletes_only_records_older_than_a_day(alice, bob, settings):
    client = client_for(alice)
    for key in ("old-1", "old-2"):
        challenge(client, key)
    made(KEY_LIFETIME + timedelta(seconds=1))
    challenge(client, "fresh")
    assert settings.CELERY_BEAT_SCHEDULE["purge-idempotency-records"]["task"] == (
        "games.tasks.purge_idempotency_records"
    )

    assert tasks.purge_idempotency_records.delay().get() == "removed 2 idempotency records"

    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["fresh"]
    assert idempotency_records_purge(now=timezone.now() + KEY_LIFETIME) == 1
    assert not IdempotencyRecord.objects.exists()
