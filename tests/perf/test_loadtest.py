"""`manage.py loadtest` end to end on a tiny run: the web server, locust, each scenario, the log
check."""

import importlib.util
import os
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from games.management.loadtest import cpu
from games.management.loadtest.floors import FLOOR_KEY_PREFIX
from games.models import IdempotencyRecord


@pytest.mark.django_db(transaction=True)
def test_a_tiny_load_test_prints_its_figures_and_a_clean_last_line(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the load test runs gunicorn's workers against PostgreSQL (set DATABASE_URL)")
    for module in ("gunicorn", "uvicorn_worker", "locust"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed")
    database = settings.DATABASES["default"]
    # The server's workers must see this test's database, whose name the test run chose.
    monkeypatch.setenv(
        "DATABASE_URL",
        f"postgres://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:"
        f"{database['PORT']}/{database['NAME']}",
    )
    if settings.CELERY_BROKER_URL.startswith("redis://"):
        # As deployed: sessions read from Redis first (the test's own process wrote them to
        # the database only, so the workers' first reads fall back to it).
        monkeypatch.setenv("CACHE_URL", settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/15")
    out = StringIO()

    call_command(
        "loadtest",
        "--duration=4",
        "--clients=2",
        "--workers=2",
        "--running-matches=1",
        "--length=1",
        "--seed=9",
        stdout=out,
    )

    lines = out.getvalue().splitlines()
    scenarios = ("bare", "bare_auth", "floor_post", "board", "state", "state_304", "submit")
    for scenario in scenarios:
        assert any(line.startswith(scenario + " ") and "req/s" in line for line in lines), lines
    if Path("/proc/stat").exists():
        cpu_lines = [line for line in lines if line.startswith("  cpu: server ")]
        assert len(cpu_lines) == len(scenarios), lines
    words = lines[-1].split()
    assert words[0::2] == [
        "board_ratio:",
        "submit_moves_per_s:",
        "errors:",
        "board_vs_floor:",
        "action_cpu_ms:",
    ], lines[-1]
    assert float(words[1]) > 0 and float(words[3]) > 0 and float(words[7]) > 0
    assert words[5] == "0", out.getvalue()
    if Path("/proc/stat").exists():
        assert float(words[9]) > 0, lines[-1]
    assert any(
        line.startswith("board_vs_floor: ") and "action_vs_floor: " in line for line in lines
    )
    assert not IdempotencyRecord.objects.filter(key__startswith=FLOOR_KEY_PREFIX).exists()


def test_processor_time_is_told_in_cores_by_group(monkeypatch):
    monkeypatch.setattr(cpu.os, "sysconf", lambda name: 100)
    monkeypatch.setattr(cpu.os, "cpu_count", lambda: 2)
    before = cpu.Sample(
        at=10.0,
        ticks={("server", 7): 1000, ("PostgreSQL", 8): 50, ("PostgreSQL", 9): 40},
        idle_ticks=500,
        children_seconds=3.0,
    )
    after = cpu.Sample(
        at=12.0,
        # A worker started meanwhile (11), a PostgreSQL backend ended (9).
        ticks={("server", 7): 1200, ("server", 11): 120, ("PostgreSQL", 8): 86, ("other", 1): 2},
        idle_ticks=524,
        children_seconds=3.3,
    )

    told = cpu.cores_used(before, after)

    assert told == (
        "server 1.60, PostgreSQL 0.18, clients 0.15, other 0.01, idle 0.12 (of 2 cores)"
    )
    assert cpu.cores_used(None, after) == ""
    assert cpu.server_seconds(before, after) == pytest.approx(3.2)
    assert cpu.server_seconds(None, after) is None


def test_a_sample_of_this_machine_counts_this_process():
    if not Path("/proc/stat").exists():
        pytest.skip("no /proc: processor time is told only on Linux")
    first = cpu.sample()
    sum(range(3_000_000))
    second = cpu.sample()

    assert first is not None and second is not None
    me = ("other", os.getpid())
    assert second.ticks[me] > first.ticks[me]
