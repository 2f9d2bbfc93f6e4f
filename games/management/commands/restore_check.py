"""`manage.py restore_check FILE`: restore a backup into a scratch database and check it."""

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.log.backups import (
    BackupError,
    postgresql_settings,
    restore_check,
    scratch_drop,
    scratch_name,
    scratch_restore,
)


class Command(BaseCommand):
    help = (
        "Restore a backup made by manage.py backup into a new scratch database beside the live "
        "one (pg_restore), then check it: every log replays and chains (verify_matches), every "
        "match's head digest equals the live log's digest at the restored seq, and the "
        "append-only trigger refuses UPDATE, DELETE and TRUNCATE of events. Drops the scratch "
        "database unless --keep; exits non-zero on any mismatch. Needs the right to create "
        "databases (run it with the owner's DATABASE_URL)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="A file written by manage.py backup.")
        parser.add_argument("--scratch", help="The scratch database's name (LIVE_restore_check).")
        parser.add_argument("--keep", action="store_true", help="Keep the scratch database.")
        parser.add_argument("--jobs", type=int, default=1, help="pg_restore --jobs (1).")

    def handle(
        self, *args: Any, file: Path, scratch: str | None, keep: bool, jobs: int, **options: Any
    ) -> None:
        try:
            database = postgresql_settings()
            scratch = scratch or scratch_name(database)
            started = time.monotonic()
            scratch_restore(database, file, scratch, jobs=jobs)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"restored {file} into {scratch} in {time.monotonic() - started:.1f} s")
        try:
            started = time.monotonic()
            report = restore_check(database, scratch)
        except BackupError as error:
            raise CommandError(str(error)) from error
        finally:
            if not keep:
                scratch_drop(scratch)
        self.stdout.write(f"checked in {time.monotonic() - started:.1f} s")
        for problem in report.append_only_problems + report.mismatches:
            self.stderr.write(problem)
        if report.gone:
            self.stdout.write(
                f"{len(report.gone)} matches of the backup are no longer live (purged guests' "
                f"matches?): {', '.join(map(str, report.gone[:20]))}"
            )
        self.stdout.write(
            f"live since the backup: {report.moved_on} matches moved on, {report.newer} new"
        )
        append_only = "no" if report.append_only_problems else "yes"
        self.stdout.write(
            f"restore_check: matches {report.matches} events {report.events} "
            f"mismatches {len(report.mismatches)} append_only {append_only}"
        )
        if report.mismatches or report.append_only_problems:
            raise CommandError("the restored backup does not match the live database")
