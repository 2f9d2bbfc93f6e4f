"""`manage.py largedata`: a large PostgreSQL database from simulated play, and what it costs."""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, models, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors, services
from games.clocks.sweep import SWEEP_BATCH, due_matches
from games.engine import state_from_snapshot
from games.log.integrity import event_digest
from games.management.commands.simulate_matches import random_action, simulated_players
from games.models import GENESIS_DIGEST, Match, MatchEvent

#: Lengths of the simulated matches whose logs are copied.
TEMPLATE_LENGTHS = (1, 3, 5, 7)


class Template:
    """A match played through the services, with its row as it stood after every action, so
    that a copy can stop at any of them (an active match) or run to the end (a finished one)."""

    def __init__(self, rows: list[dict[str, Any]], events: list[dict[str, Any]]) -> None:
        self.rows = rows  # by seq, ascending
        self.events = events

    def row_at_most(self, seq: int) -> dict[str, Any]:
        """The latest row whose log is no longer than ``seq`` events (the first if none is)."""
        chosen = self.rows[0]
        for row in self.rows:
            if row["seq"] > seq:
                break
            chosen = row
        return chosen


class Command(BaseCommand):
    help = (
        "Fill PostgreSQL with --matches matches and about --events events: a few hundred "
        "matches are played at random through the services, then their logs are copied in "
        "bulk (COPY), each copy stopped at an action or run to the end, with its own digest "
        "chain; one match is played on to a log of --long-log events. Then report the time to "
        "read a match state with the shortest and the longest log, the deadline sweep's query "
        "plan and time, the event table's size per event, and the board page's time. "
        "--report-only measures a database filled before."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=100_000)
        parser.add_argument("--events", type=int, default=5_000_000)
        parser.add_argument("--templates", type=int, default=40, help="Matches played (40).")
        parser.add_argument("--long-log", type=int, default=2000, help="Events of the long log.")
        parser.add_argument("--reads", type=int, default=200, help="Timed reads of each (200).")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--report-only", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("largedata fills PostgreSQL (set DATABASE_URL).")
        rng = random.Random(options["seed"])
        if not options["report_only"]:
            started = time.monotonic()
            templates = self._play_templates(options["templates"], rng)
            self._play_long_match(options["long_log"], rng)
            self.stdout.write(f"played in {time.monotonic() - started:.0f} s")
            started = time.monotonic()
            copied = self._copy(templates, options["matches"], options["events"], rng)
            self.stdout.write(f"copied {copied} events in {time.monotonic() - started:.0f} s")
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE games_match; ANALYZE games_matchevent")
        self._report(options["reads"])

    # --- Filling -------------------------------------------------------------------------------

    def _play_templates(self, count: int, rng: random.Random) -> list[Template]:
        players = simulated_players()
        templates = []
        for number in range(count):
            first, second = rng.sample(players, 2)
            match = services.match_start(
                first_player=first,
                second_player=second,
                match_length=TEMPLATE_LENGTHS[number % len(TEMPLATE_LENGTHS)],
                rated=False,
                time_control=services.DEFAULT_TIME_CONTROL,
            )
            rows = [_row(match.pk)]
            while match.status == Match.Status.ACTIVE:
                match = _act_at_random(match, rng)
                rows.append(_row(match.pk))
            events = list(
                MatchEvent.objects.filter(match=match)
                .order_by("seq")
                .values("seq", "kind", "payload", "actor_id")
            )
            templates.append(Template(rows, events))
        self.stdout.write(f"{count} matches played, {sum(len(t.events) for t in templates)} events")
        return templates

    def _play_long_match(self, events: int, rng: random.Random) -> None:
        first, second = simulated_players()[:2]
        match = services.match_start(
            first_player=first,
            second_player=second,
            match_length=25,
            rated=False,
            time_control=services.DEFAULT_TIME_CONTROL,
        )
        while True:
            state = state_from_snapshot(match.state)
            mover = state.player_to_act()
            if match.status != Match.Status.ACTIVE:
                raise CommandError(f"the long match ended at {match.seq} events; ask for fewer")
            if match.seq >= events and mover is not None and "move" in state.legal_actions(mover):
                break
            match = _act_at_random(match, rng, long=True)
        self.stdout.write(f"long match {match.pk}: {match.seq} events")

    def _copy(
        self, templates: list[Template], matches: int, events: int, rng: random.Random
    ) -> int:
        """Copy ``matches`` matches with ``events`` events between them, about."""
        match_columns = [
            field.column for field in Match._meta.concrete_fields if field.column != "id"
        ]
        json_columns = {
            field.column
            for field in Match._meta.concrete_fields
            if isinstance(field, models.JSONField)
        }
        event_columns = ["match_id", "seq", "kind", "payload", "actor_id", "created_at", "digest"]
        now = timezone.now()
        copied_events = 0
        made = 0
        batch = 2000
        while made < matches:
            size = min(batch, matches - made)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    "SELECT nextval(pg_get_serial_sequence('games_match', 'id')) "
                    "FROM generate_series(1, %s)",
                    [size],
                )
                ids = [row[0] for row in cursor.fetchall()]
                match_rows = []
                event_rows = []
                for match_id in ids:
                    left = max(matches - made, 1)
                    wanted = (events - copied_events) / left * rng.uniform(0.2, 1.8)
                    template = rng.choice(templates)
                    row = template.row_at_most(max(2, round(wanted)))
                    started_at = now - timedelta(days=rng.uniform(0, 365))
                    digest = GENESIS_DIGEST
                    for event in template.events[: row["seq"]]:
                        created_at = started_at + timedelta(minutes=event["seq"])
                        digest = event_digest(
                            digest,
                            match_id=match_id,
                            seq=event["seq"],
                            kind=event["kind"],
                            payload=event["payload"],
                            actor_id=event["actor_id"],
                            created_at=created_at,
                        )
                        event_rows.append(
                            (
                                match_id,
                                event["seq"],
                                event["kind"],
                                json.dumps(event["payload"]),
                                event["actor_id"],
                                created_at,
                                digest,
                            )
                        )
                    copied_events += row["seq"]
                    match_rows.append(
                        [match_id]
                        + [
                            _copied_value(column, row, json_columns, digest, started_at, now, rng)
                            for column in match_columns
                        ]
                    )
                    made += 1
                raw = cursor.cursor
                with raw.copy(
                    f"COPY games_match (id, {', '.join(match_columns)}) FROM STDIN"
                ) as copy:
                    for values in match_rows:
                        copy.write_row(values)
                with raw.copy(
                    f"COPY games_matchevent ({', '.join(event_columns)}) FROM STDIN"
                ) as copy:
                    for values in event_rows:
                        copy.write_row(values)
            self.stdout.write(f"  {made} matches, {copied_events} events", ending="\r")
            self.stdout.flush()
        self.stdout.write("")
        return copied_events

    # --- Measuring -----------------------------------------------------------------------------

    def _report(self, reads: int) -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM games_match")
            (matches,) = cursor.fetchone()
            cursor.execute("SELECT count(*) FROM games_matchevent")
            (events,) = cursor.fetchone()
            cursor.execute(
                "SELECT pg_relation_size('games_matchevent'), "
                "pg_indexes_size('games_matchevent'), "
                "pg_total_relation_size('games_matchevent')"
            )
            heap, indexes, total = cursor.fetchone()
        self.stdout.write(f"database: {matches} matches, {events} events")
        self.stdout.write(
            f"event table: {total / events:.0f} bytes an event in all "
            f"(rows and TOAST {(total - indexes) / events:.0f}, heap alone {heap / events:.0f}, "
            f"indexes {indexes / events:.0f}); {total / 2**20:.0f} MiB"
        )

        active = Match.objects.filter(status=Match.Status.ACTIVE, to_act__isnull=False)
        short = active.order_by("seq", "pk").first()
        long = active.order_by("-seq", "pk").first()
        if short is None or long is None:
            raise CommandError("no active match to read")
        for label, match in (("shortest", short), ("longest", long)):
            viewer = match.to_act
            timing, queries = _timed(
                lambda match=match, viewer=viewer: selectors.match_view(
                    selectors.match_with_players(match.pk, readers={viewer.pk}), viewer
                ),
                reads,
            )
            self.stdout.write(
                f"match state, {label} log ({match.seq} events): median {timing:.2f} ms, "
                f"{queries} queries"
            )

        now = timezone.now()
        sweep = due_matches(now).values_list("pk", "seq")[:SWEEP_BATCH]
        self.stdout.write("deadline sweep plan (due_matches):")
        for line in sweep.explain(analyze=True, buffers=True).splitlines():
            self.stdout.write(f"  {line}")
        timing, _ = _timed(lambda: list(sweep.all()), max(reads // 10, 5))
        due = due_matches(now).count()
        self.stdout.write(f"deadline sweep: median {timing:.2f} ms ({due} matches due)")

        client = Client()
        for label, match in (("shortest", short), ("longest", long)):
            client.force_login(match.to_act)
            path = f"/matches/{match.pk}/"
            # As a browser asks in production: over HTTPS, which the settings may insist on.
            assert client.get(path, secure=True).status_code == 200
            timing, _ = _timed(lambda path=path: client.get(path, secure=True), max(reads // 4, 5))
            self.stdout.write(
                f"board page, {label} log ({match.seq} events): median {timing:.2f} ms"
            )


def _row(match_id: int) -> dict[str, Any]:
    return Match.objects.filter(pk=match_id).values().get()


def _act_at_random(match: Match, rng: random.Random, long: bool = False) -> Match:
    """A random legal action; a ``long`` match never doubles or resigns, so it lasts."""
    state = state_from_snapshot(match.state)
    player = state.player_to_act()
    assert player is not None
    action, extra = random_action(state, player, rng)
    while long and action in ("resign", "double"):
        action, extra = random_action(state, player, rng)
    return services.match_act(
        match_id=match.pk,
        actor=match.players[player],
        expected_seq=match.seq,
        action=action,
        **extra,
    )


def _copied_value(
    column: str,
    row: dict[str, Any],
    json_columns: set[str],
    digest: str,
    started_at: datetime,
    now: datetime,
    rng: random.Random,
) -> Any:
    active = row["status"] == Match.Status.ACTIVE
    if column == "head_digest":
        return digest
    if column == "created_at":
        return started_at
    if column == "updated_at":
        return started_at + timedelta(minutes=row["seq"])
    if column == "finished_at":
        return None if active else started_at + timedelta(minutes=row["seq"])
    if column == "deadline":
        if not active:
            return None
        # Most deadlines lie days ahead; about one in a hundred has just passed.
        if rng.random() < 0.01:
            return now - timedelta(minutes=rng.uniform(1, 30))
        return now + timedelta(hours=rng.uniform(1, 72))
    if column == "warn_at":
        return None
    value = row[column]
    if column in json_columns:
        return json.dumps(value)
    if isinstance(value, memoryview):
        return bytes(value)
    return value


def _timed(read: Callable[[], Any], times: int) -> tuple[float, int]:
    """Median milliseconds of ``read``, and the queries one read makes."""
    read()
    with CaptureQueriesContext(connection) as queries:
        read()
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        read()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples), len(queries)
