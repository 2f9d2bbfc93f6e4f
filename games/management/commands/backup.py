"""`manage.py backup --to FILE`: a pg_dump of the running service's database."""

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.log.backups import BackupError, database_dump, postgresql_settings


class Command(BaseCommand):
    help = (
        "Dump the PostgreSQL database of DATABASE_URL to FILE with pg_dump --format=custom: "
        "one consistent snapshot, taken while the service runs on. Check the file with "
        "manage.py restore_check FILE (docs/deployment.md, Backups)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--to", required=True, type=Path, help="The file to write.")

    def handle(self, *args: Any, to: Path, **options: Any) -> None:
        started = time.monotonic()
        try:
            database = postgresql_settings()
            database_dump(database, to)
        except BackupError as error:
            raise CommandError(str(error)) from error
        size = to.stat().st_size / 1_000_000
        self.stdout.write(
            f"backup: {to} {size:.1f} MB in {time.monotonic() - started:.1f} s "
            f"(pg_dump of {database['NAME']})"
        )
