"""`manage.py health`: is time being enforced? Exit 0 when it is, 1 when not, for a monitor."""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from games.clocks.health import time_health


class Command(BaseCommand):
    help = (
        "Say when the deadline sweep last ran, when each Celery worker (urgent, background) "
        "last said it was alive, how many deadlines are overdue, whether a computer opponent "
        "is keeping anyone waiting, and how full the broker's queues are. "
        f"Exits 1 if the sweep has not run for {settings.HEALTH_SWEEP_LATE} s, or a worker "
        f"has not said it is alive for {settings.HEALTH_WORKER_LATE} s, or a deadline "
        f"or a computer's turn is over {settings.HEALTH_OVERDUE} s overdue, or the broker "
        "cannot be reached."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-broker", action="store_true", help="Do not look at the broker's queues."
        )

    def handle(self, *args: Any, no_broker: bool, **options: Any) -> None:
        health = time_health()
        now = timezone.now()
        if health.sweep_ran_at is None:
            self.stdout.write("sweep: never ran")
        else:
            ago = int((now - health.sweep_ran_at).total_seconds())
            self.stdout.write(
                f"sweep: last ran {health.sweep_ran_at:%Y-%m-%d %H:%M:%S} UTC, {ago} s ago"
            )
        for kind, seen in health.workers_seen.items():
            if seen is None:
                self.stdout.write(f"{kind} worker: never seen")
            else:
                ago = int((now - seen).total_seconds())
                self.stdout.write(f"{kind} worker: alive {ago} s ago")
        most = int(health.most_overdue.total_seconds()) if health.most_overdue else 0
        self.stdout.write(f"deadlines overdue: {health.overdue} (most overdue by {most} s)")
        longest = (
            int(health.longest_computer_wait.total_seconds()) if health.longest_computer_wait else 0
        )
        self.stdout.write(
            f"computer turns waiting over a minute: {health.computer_waiting} (longest {longest} s)"
        )
        problems = health.problems()
        if not no_broker:
            try:
                sizes = queue_sizes()
            except Exception as error:  # any failure to reach the broker is the finding
                problems.append(f"the broker cannot be reached: {error}")
                self.stdout.write("broker: unreachable")
            else:
                listed = ", ".join(f"{name} {size}" for name, size in sizes.items())
                self.stdout.write(f"broker: reachable; tasks waiting: {listed}")
        if problems:
            raise CommandError("unhealthy: " + "; ".join(problems), returncode=1)
        self.stdout.write("healthy")


def queue_sizes() -> dict[str, int]:
    """How many tasks wait on each of the service's queues."""
    queues = [queue for names in settings.WORKER_QUEUES.values() for queue in names]
    with current_app.connection_for_read() as connection:
        connection.ensure_connection(max_retries=1, timeout=5)
        channel = connection.default_channel
        return {name: channel.queue_declare(queue=name).message_count for name in queues}
