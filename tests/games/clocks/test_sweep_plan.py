"""The deadline sweep is an index range scan: its cost follows the matches due, not all."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from games.clocks import sweep
from games.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="query plans are checked on PostgreSQL (CI)"
)
def test_the_sweep_reads_the_partial_deadline_index():
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = sweep.due_matches(timezone.now()).values_list("pk", "seq").explain()

    assert "match_deadline_due" in plan, plan


def test_the_sweep_asks_only_for_active_matches_that_are_due():
    sql = str(sweep.due_matches(timezone.now()).query)

    assert '"games_match"."status" = active' in sql
    assert '"games_match"."deadline" <=' in sql
    assert Match._meta.get_field("deadline").null
