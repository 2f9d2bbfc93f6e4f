"""manage.py purge_guests: remove guests idle for 30 days (or --days) and their matches."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.guests import IDLE_DAYS, idle_guests
from games.services.guests import idle_guests_purge


class Command(BaseCommand):
    help = "Remove guests (players who never signed up) idle for 30 days, with their matches."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=IDLE_DAYS, help="Idle for this long.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Only say how many guests would go."
        )

    def handle(self, *args: Any, days: int, dry_run: bool, **options: Any) -> None:
        if dry_run:
            self.stdout.write(f"{idle_guests(idle_days=days).count()} guests would be removed.")
            return
        guests, matches = idle_guests_purge(idle_days=days)
        self.stdout.write(f"Removed {guests} guests and {matches} matches.")
