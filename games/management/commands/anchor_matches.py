"""`manage.py anchor_matches`: write the signed list of every match's head digest."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.log.anchors import AnchorError, anchors_write


class Command(BaseCommand):
    help = (
        "Write an anchor file: every match's seq and head digest now, signed with "
        "LOG_ANCHOR_KEY, into --dir (LOG_ANCHOR_DIR), a directory the database roles cannot "
        "write. Run it daily; `verify_matches --anchors DIR` then catches a log rewritten "
        "before it and a match that vanished (docs/database-role.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dir", type=Path, help="Where to write (LOG_ANCHOR_DIR).")

    def handle(self, *args: Any, dir: Path | None, **options: Any) -> None:
        directory = dir or (Path(settings.LOG_ANCHOR_DIR) if settings.LOG_ANCHOR_DIR else None)
        if directory is None:
            raise CommandError("Name the anchors' directory: --dir DIR or LOG_ANCHOR_DIR.")
        try:
            path = anchors_write(directory)
        except (AnchorError, OSError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Anchored every match's head in {path}")
