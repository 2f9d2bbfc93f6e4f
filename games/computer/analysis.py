"""Analysing a match, played here or imported: run games.computer.review over its log and keep it
(in the variants without gnubg's board, games.computer.variant_review: the luck of each roll).

What is analysed is a ``Subject``: a match of the service (``match_subject``) or a match
imported from a .mat file (``import_subject``); both are analysed, stored (MatchAnalysis) and
shown the same way. Each decision is told by its ``seq``: the step of the replay that shows it
(a match's event seq; an imported event's place in its file, from 1).

A match is analysed by a Celery task when it ends, an import right after it is imported, and
either again when someone asks (the API and the replay page's button). Once a match's analysis
is stored, games.services.fair_play weighs it for the fair-play signals (once per match). A
match still being played is never analysed nor its analysis shown: best plays would help the
players. A request for an analysis already done to the last event, or already waiting for a
worker, queues nothing more, so no one can fill the analysis queue.

Every decision is weighed by bgsage and, where GNU Backgammon is installed (GNUBG_PATH), by
gnubg too: the second opinion. gnubg analyses the match's .mat export in a process of its own
while bgsage works. Where it is not installed, or fails, the analysis is bgsage's alone and
says why. Viewers pick the engine whose figures they read (``analysis_view``'s ``engine``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, cast

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import limits
from backgammon_site.core.errors import Conflict, NotFound
from games import services
from games.computer.gnubg import GnubgRun
from games.computer.review import ENGINES, Engine, review_match
from games.computer.variant_review import review_luck
from games.engine import MatchRules
from games.engine.events import Event
from games.engine.mat import export_mat
from games.log.records import imported_log, match_log, read_log, rules_of_log
from games.models import ImportedMatch, Match, MatchAnalysis
from games.signals import analysis_requested


@dataclass(frozen=True, slots=True)
class Subject:
    """What an analysis is of: ``field`` names MatchAnalysis's link to it."""

    field: Literal["match", "imported"]
    pk: int

    @property
    def key(self) -> dict[str, int]:
        """MatchAnalysis's lookup of this subject's analysis."""
        return {f"{self.field}_id": self.pk}

    def exists(self) -> bool:
        return _records(self).filter(pk=self.pk).exists()

    def analyse_later(self) -> None:
        """Have a Celery task analyse this subject (games/receivers.py queues it)."""
        analysis_requested.send(MatchAnalysis, subject=self)


def match_subject(match_id: int) -> Subject:
    return Subject("match", match_id)


def import_subject(import_id: int) -> Subject:
    return Subject("imported", import_id)


@dataclass(frozen=True, slots=True)
class AnalysedLog:
    """A subject's events the rules engine folds, each with its replay step."""

    match_length: int
    steps: list[int]
    events: list[Event]
    last_step: int
    rules: MatchRules


def analysis_plies() -> int:
    """The search depth of analyses: bgsage's 2 ply unless MATCH_ANALYSIS_PLIES says."""
    return int(getattr(settings, "MATCH_ANALYSIS_PLIES", 2))


def gnubg_program() -> str:
    """GNU Backgammon's program (GNUBG_PATH), or "" where it is not installed."""
    path = str(getattr(settings, "GNUBG_PATH", "") or "")
    return path if path and os.access(path, os.X_OK) else ""


def gnubg_plies() -> int:
    """The depth of gnubg's analysis, in gnubg's count: 2 unless GNUBG_ANALYSIS_PLIES says."""
    return int(getattr(settings, "GNUBG_ANALYSIS_PLIES", 2))


#: What an analysis says where gnubg is not installed.
GNUBG_MISSING = gettext_noop("GNU Backgammon is not installed on this server.")
#: What players read where gnubg failed: the failure itself is for the server's log.
GNUBG_FAILED = gettext_noop(
    "GNU Backgammon could not analyse this match; bgsage's analysis is shown alone."
)


#: An analysis takes minutes at most: one still pending after this long was lost (its task
#: or its worker) and may be asked for again.
ANALYSIS_PATIENCE = timedelta(minutes=30)


def analysis_limit_spend(request: HttpRequest, user: Any) -> None:
    """Count one request for an analysis against the player's limit (ACCOUNT_RATE_LIMITS's
    ``analysis_request``); raises TooManyAttempts once it is spent."""
    limits.spend(
        request,
        "analysis_request",
        user=user,
        refusal="You have asked for as many analyses as one player may for now.",
    )


def analysis_request(subject: Subject) -> MatchAnalysis:
    """Ask for ``subject`` to be analysed: the task runs once this commits, unless the
    analysis is up to date or already waiting for a worker. A match must have ended."""
    with transaction.atomic():
        last_step = _last_step(subject)
        analysis, created = MatchAnalysis.objects.select_for_update().get_or_create(**subject.key)
        now = timezone.now()
        if not created and _needs_no_task(analysis, last_step, now):
            return analysis
        analysis.status = MatchAnalysis.Status.PENDING
        analysis.requested_at = now
        analysis.save(update_fields=["status", "requested_at"])
        transaction.on_commit(subject.analyse_later)
    return analysis


def _last_step(subject: Subject) -> int:
    """The last step of the subject's log; refuses a match still being played."""
    if subject.field == "match":
        match = Match.objects.filter(pk=subject.pk).values("status", "seq").first()
        if match is None:
            raise NotFound(f"There is no match {subject.pk}.")
        if match["status"] != Match.Status.FINISHED:
            raise Conflict(
                "A match is analysed once it has ended: its players may not see best plays.",
                code="match_not_finished",
            )
        return int(match["seq"])
    imported = ImportedMatch.objects.filter(pk=subject.pk).only("events").first()
    if imported is None:
        raise NotFound(f"There is no imported match {subject.pk}.")
    return len(imported.events)


def _needs_no_task(analysis: MatchAnalysis, last_step: int, now: datetime) -> bool:
    if analysis.status == MatchAnalysis.Status.PENDING:
        return analysis.requested_at > now - ANALYSIS_PATIENCE
    result = analysis.result or {}
    engines = result.get("engines", {})
    second_opinion_as_now = result.get("kind") == "luck" or (
        engines.get("gnubg", {}).get("plies") == gnubg_plies()
        if gnubg_program()
        else "gnubg" not in engines
    )
    return (
        analysis.status == MatchAnalysis.Status.DONE
        and analysis.seq == last_step
        and analysis.plies == analysis_plies()
        and second_opinion_as_now
    )


def lost_analyses_requested_again(now: datetime | None = None) -> int:
    """Ask again for the analyses pending for longer than ANALYSIS_PATIENCE (the minute
    sweep); returns how many."""
    now = now or timezone.now()
    lost = MatchAnalysis.objects.filter(
        status=MatchAnalysis.Status.PENDING, requested_at__lte=now - ANALYSIS_PATIENCE
    ).values_list("match_id", "imported_id")
    asked = 0
    for match_id, import_id in lost[:100]:
        subject = match_subject(match_id) if match_id else import_subject(import_id)
        try:
            analysis_request(subject)
        except Conflict:
            continue
        asked += 1
    return asked


def analysis_run(subject: Subject) -> MatchAnalysis | None:
    """Analyse the subject's log as it is now and store the result; None if it is gone.
    Raises Conflict for a match still being played."""
    if subject.exists():
        _last_step(subject)
    log = analysed_log(subject)
    if log is None:
        return None
    plies = analysis_plies()
    try:
        review = _review(log, plies)
    except Exception:
        MatchAnalysis.objects.update_or_create(
            **subject.key, defaults={"status": MatchAnalysis.Status.FAILED}
        )
        raise
    for entry in (*review["decisions"], *review.get("luck", ())):
        entry["seq"] = log.steps[entry.pop("index")]
    analysis, _ = MatchAnalysis.objects.update_or_create(
        **subject.key,
        defaults={
            "status": MatchAnalysis.Status.DONE,
            "seq": log.last_step,
            "plies": plies,
            "result": review,
            "completed_at": timezone.now(),
        },
    )
    if subject.field == "match":
        services.fair_play_match_review(match_id=subject.pk)
    return analysis


def _review(log: AnalysedLog, plies: int) -> dict[str, Any]:
    """Each roll's luck, in every variant; and in the variants on gnubg's board, bgsage's
    review of every decision, with gnubg's second opinion where it is installed."""
    if log.rules.match_variant.gnubg_variation is None:
        return review_luck(log.match_length, log.events, rules=log.rules).to_json()
    program = gnubg_program()
    gnubg = None
    if program:
        mat = export_mat(("first", "second"), log.match_length, log.events, log.rules)
        gnubg = GnubgRun.start(mat, program=program, plies=gnubg_plies())
    try:
        review = review_match(
            log.match_length,
            log.events,
            plies=plies,
            rules=log.rules,
            second_opinion=gnubg.result if gnubg is not None else None,
        ).to_json()
    finally:
        if gnubg is not None:
            gnubg.stop()
    if not program:
        review["unavailable"]["gnubg"] = GNUBG_MISSING
    luck = review_luck(log.match_length, log.events, rules=log.rules).to_json()
    review["luck"] = luck["luck"]
    review["luck_players"] = luck["players"]
    return review


def analysed_log(subject: Subject) -> AnalysedLog | None:
    """The subject's engine events with their replay steps; None if there is no such subject."""
    if subject.field == "match":
        match = Match.objects.filter(pk=subject.pk).first()
        if match is None:
            return None
        match_length, log, last_step = match.match_length, match_log(match), match.seq
    else:
        imported = ImportedMatch.objects.filter(pk=subject.pk).first()
        if imported is None:
            return None
        log = imported_log(imported)
        match_length, last_step = imported.match_length, len(imported.events)
    read = [(row.step, event) for row, event in read_log(log) if event is not None]
    return AnalysedLog(
        match_length=match_length,
        rules=rules_of_log(log),
        steps=[step for step, _ in read],
        events=[event for _, event in read],
        last_step=last_step,
    )


def _records(subject: Subject) -> Any:
    return (Match if subject.field == "match" else ImportedMatch).objects.all()


def stored_analysis(subject: Subject, engine: Engine = "bgsage") -> dict[str, Any] | None:
    """The subject's analysis as analysis_view shows it; None if none was ever asked for, or
    if its match is still being played."""
    stored = (
        MatchAnalysis.objects.select_related(
            "match__first_player", "match__second_player", "imported"
        )
        .filter(**subject.key)
        .exclude(match__status=Match.Status.ACTIVE)
        .first()
    )
    return analysis_view(stored, engine) if stored is not None else None


def engine_named(name: str | None) -> Engine:
    """The engine a viewer picked by name (``?engine=``): bgsage unless gnubg is named."""
    return cast(Engine, name) if name in ENGINES else "bgsage"


def analysis_view(analysis: MatchAnalysis, engine: Engine = "bgsage") -> dict[str, Any]:
    """The analysis as the API and the replay page show it: players by name, each player's
    figures and each decision's verdict from ``engine`` (bgsage's where gnubg gave no
    opinion), the other engine's beside them."""
    if analysis.match is not None:
        match = analysis.match
        names = (match.first_player.get_username(), match.second_player.get_username())
    else:
        assert analysis.imported is not None
        names = analysis.imported.names
    result = analysis.result or {}
    if result.get("kind") == "luck":
        return _luck_view(analysis, names, result)
    # In ENGINES' order: PostgreSQL's jsonb keeps a dict's keys in an order of its own.
    engines = {
        name: result["engines"][name] for name in ENGINES if name in result.get("engines", {})
    }
    unavailable = {
        name: result["unavailable"][name]
        for name in ENGINES
        if name in result.get("unavailable", {})
    }
    if engine not in engines:
        engine = "bgsage"
    other = next((name for name in engines if name != engine), None)
    figures = result.get("players", {})
    lucks = result.get("luck_players", [])
    return {
        "match": analysis.match_id,
        "imported": analysis.imported_id,
        "status": analysis.status,
        "seq": analysis.seq,
        "plies": analysis.plies,
        "requested_at": analysis.requested_at,
        "completed_at": analysis.completed_at,
        "kind": "decisions",
        "engine": engine,
        "engines": [{"engine": name, **about} for name, about in engines.items()],
        "unavailable": [
            {"engine": name, "reason": _reason_for_players(reason), "detail": reason}
            for name, reason in unavailable.items()
        ],
        "players": [
            {
                "player": names[index],
                **own,
                "other": {"engine": other, **figures[other][index]} if other else None,
                **(lucks[index] if index < len(lucks) else {}),
            }
            for index, own in enumerate(figures.get(engine, []))
        ],
        "decisions": [
            _decision_view(decision, names, engine) for decision in result.get("decisions", [])
        ],
        "luck": _rolls_view(result.get("luck", []), names),
    }


def _reason_for_players(reason: str) -> str:
    """Why an engine's opinion is missing, in the reader's language: a known reason as it is,
    any failure of the engine in plain words."""
    if reason == GNUBG_MISSING:
        return gettext(GNUBG_MISSING)
    if reason.startswith(("GNU Backgammon gave no analysis", "GNU Backgammon weighed none")):
        return gettext(GNUBG_FAILED)
    return reason


def _luck_view(
    analysis: MatchAnalysis, names: tuple[str, str], result: dict[str, Any]
) -> dict[str, Any]:
    """A luck analysis (the variants without gnubg's board) as analysis_view shows it."""
    return {
        "match": analysis.match_id,
        "imported": analysis.imported_id,
        "status": analysis.status,
        "seq": analysis.seq,
        "plies": result["plies"],
        "requested_at": analysis.requested_at,
        "completed_at": analysis.completed_at,
        "kind": "luck",
        "engine": None,
        "engines": [],
        "unavailable": [],
        "players": [
            {"player": names[index], **figures} for index, figures in enumerate(result["players"])
        ],
        "decisions": [],
        "luck": _rolls_view(result["luck"], names),
    }


def _rolls_view(rolls: list[dict[str, Any]], names: tuple[str, str]) -> list[dict[str, Any]]:
    return [{**roll, "player": names[roll["player"]]} for roll in rolls]


def _decision_view(
    decision: dict[str, Any], names: tuple[str, str], engine: Engine
) -> dict[str, Any]:
    verdict = decision["opinions"].get(engine) or {}
    return {
        "seq": decision["seq"],
        "player": names[decision["player"]],
        "kind": decision["kind"],
        "chosen": decision["chosen"],
        "best": verdict.get("best"),
        "equity_lost": verdict.get("equity_lost"),
        "mark": verdict.get("mark"),
        "counts": verdict.get("counts", False),
        "disputed": decision["disputed"],
        "opinions": decision["opinions"],
    }


def first_analysis_due(match_id: int) -> bool:
    """Whether match ``match_id`` ended with a winner and was never analysed: the first to
    ask records its analysis as pending and is told True, so the match is analysed once."""
    ended = Match.objects.filter(
        pk=match_id,
        status=Match.Status.FINISHED,
        winner__isnull=False,
    ).exists()
    if not ended or MatchAnalysis.objects.filter(match_id=match_id).exists():
        return False
    _, created = MatchAnalysis.objects.get_or_create(match_id=match_id)
    return created
