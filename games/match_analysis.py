"""Analysing a match of the service: run games.analysis over its log and keep the result.

A match is analysed by a Celery task (``games.tasks.analyse_match``) when it ends, and again
whenever someone asks (the API and the replay page's button).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.analysis import analyse_match
from games.engine import event_from_payload
from games.engine.events import Event
from games.match_log import RECORD_KINDS
from games.models import Match, MatchAnalysis
from games.services import NotFound, match_changed


def analysis_plies() -> int:
    """The search depth of analyses: bgsage's 2 ply unless MATCH_ANALYSIS_PLIES says."""
    return int(getattr(settings, "MATCH_ANALYSIS_PLIES", 2))


def analysis_request(*, match_id: int) -> MatchAnalysis:
    """Ask for ``match_id`` to be analysed (again): the task runs once this commits."""
    from games.tasks import analyse_match as analyse_match_task

    with transaction.atomic():
        if not Match.objects.filter(pk=match_id).exists():
            raise NotFound(f"There is no match {match_id}.")
        analysis, _ = MatchAnalysis.objects.select_for_update().get_or_create(match_id=match_id)
        analysis.status = MatchAnalysis.Status.PENDING
        analysis.requested_at = timezone.now()
        analysis.save(update_fields=["status", "requested_at"])
        transaction.on_commit(lambda: analyse_match_task.delay(match_id))
    return analysis


def analysis_run(match_id: int) -> MatchAnalysis | None:
    """Analyse the match's log as it is now and store the result; None if there is no match."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    seqs, events = engine_events(match)
    plies = analysis_plies()
    try:
        review = analyse_match(match.match_length, events, plies=plies).to_json()
    except Exception:
        MatchAnalysis.objects.update_or_create(
            match=match, defaults={"status": MatchAnalysis.Status.FAILED}
        )
        raise
    for decision in review["decisions"]:
        decision["seq"] = seqs[decision.pop("index")]
    analysis, _ = MatchAnalysis.objects.update_or_create(
        match=match,
        defaults={
            "status": MatchAnalysis.Status.DONE,
            "seq": match.seq,
            "plies": plies,
            "result": review,
            "completed_at": timezone.now(),
        },
    )
    return analysis


def engine_events(match: Match) -> tuple[list[int], list[Event]]:
    """The match's events the rules engine folds, with the seq of each."""
    rows = match.events.exclude(kind__in=RECORD_KINDS).order_by("seq")
    seqs, events = [], []
    for seq, kind, payload in rows.values_list("seq", "kind", "payload"):
        seqs.append(seq)
        events.append(event_from_payload(kind, payload))
    return seqs, events


def analysis_view(analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as the API and the replay page show it: players by name."""
    match = analysis.match
    names = (match.first_player.get_username(), match.second_player.get_username())
    result = analysis.result or {}
    return {
        "match": match.pk,
        "status": analysis.status,
        "seq": analysis.seq,
        "plies": analysis.plies,
        "requested_at": analysis.requested_at,
        "completed_at": analysis.completed_at,
        "players": [
            {"player": names[index], **figures}
            for index, figures in enumerate(result.get("players", []))
        ],
        "decisions": [
            {**decision, "player": names[decision["player"]]}
            for decision in result.get("decisions", [])
        ],
    }


@receiver(match_changed, dispatch_uid="games.match_analysis.analyse_finished_matches")
def _analyse_finished_matches(sender: Any, *, match_id: int, **kwargs: Any) -> None:
    """A match that ended with a winner is analysed once (this runs after the commit)."""
    from games.tasks import analyse_match as analyse_match_task

    ended = Match.objects.filter(
        pk=match_id, status=Match.Status.FINISHED, winner__isnull=False
    ).exists()
    if ended and not MatchAnalysis.objects.filter(match_id=match_id).exists():
        _, created = MatchAnalysis.objects.get_or_create(match_id=match_id)
        if created:
            analyse_match_task.delay(match_id)
