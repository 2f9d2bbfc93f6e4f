"""`manage.py verify_matches`: replay every log and check it against its snapshot and digests."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.log.anchors import AnchorError, anchor_files, anchors_check
from games.log.integrity import log_problems
from games.models import Match


class Command(BaseCommand):
    help = (
        "Re-fold every match's log through the rules engine and check the digest chain, the "
        "snapshot, the status and the winner. Exits non-zero and names each broken match."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="Only these matches.")
        parser.add_argument(
            "--anchors",
            type=Path,
            help="Also check every match against these anchor files (a file, or a directory of "
            "them, written by anchor_matches and signed with LOG_ANCHOR_KEY): catches a log "
            "rewritten with its chain recomputed, and a vanished match.",
        )

    def handle(
        self, *args: Any, match_ids: list[int], anchors: Path | None, **options: Any
    ) -> None:
        matches = Match.objects.order_by("pk")
        if match_ids:
            matches = matches.filter(pk__in=match_ids)
        checked = broken = 0
        for match in matches.iterator(chunk_size=200):
            checked += 1
            problems = log_problems(match)
            if problems:
                broken += 1
                for problem in problems:
                    self.stderr.write(f"match {match.pk}: {problem}")
        summary = f"{checked} matches checked, {broken} with problems"
        if anchors is not None:
            try:
                files = anchor_files(anchors)
                disagreements = anchors_check(files)
            except AnchorError as error:
                raise CommandError(str(error)) from error
            for problem in disagreements:
                self.stderr.write(problem)
            summary += f"; {len(files)} anchor files, {len(disagreements)} disagreements"
            broken += len(disagreements)
        if broken:
            raise CommandError(summary)
        self.stdout.write(summary)
