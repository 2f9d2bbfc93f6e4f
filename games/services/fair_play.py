"""Fair-play signals for moderators: each rated correspondence match's analysis weighed, for
each human player, against what their rating and their own history predict
(games.services.fair_play_statistic); a run improbably good opens a case in the moderators'
queue (the admin), with the matches, their error rates against the expected and every
decision the analysis weighed. Nothing is shown to players and nothing is decided here: a
moderator dismisses or confirms a case, with a note and an audit record.

Called by the analysis (games.computer.analysis) once it has stored a match's review; a
match analysed again is not weighed again.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts.models import is_computer, is_program
from backgammon_site.core.errors import ApplicationError, Forbidden
from games.engine import MatchState
from games.log.records import match_log, read_log, rules_of_log
from games.models import (
    AuditRecord,
    FairPlayCase,
    FairPlayMatch,
    Match,
    MatchAnalysis,
    Player,
    Viewer,
)
from games.services.fair_play_statistic import (
    HISTORY_MATCHES,
    THRESHOLD,
    MatchErrors,
    match_score,
)
from ratings.models import RatingChange
from ratings.selectors import rating_in

#: The engine whose figures the statistic reads: bgsage weighs every analysed match.
ENGINE = "bgsage"


def fair_play_match_review(*, match_id: int) -> list[FairPlayMatch]:
    """Weigh the stored analysis of match ``match_id`` for each of its human players, if it is
    a rated correspondence match with decisions analysed; open a case for a player whose
    statistic crosses the threshold, or add the match to their open case. Returns the
    figures recorded (none for a match weighed already or not to be weighed)."""
    match = (
        Match.objects.select_related("first_player__profile", "second_player__profile", "analysis")
        .filter(pk=match_id, status=Match.Status.FINISHED, rated=True)
        .first()
    )
    if match is None or (match.time_control or {}).get("kind") != "correspondence":
        return []
    analysis = getattr(match, "analysis", None)
    if analysis is None or analysis.status != MatchAnalysis.Status.DONE:
        return []
    result = analysis.result or {}
    figures = result.get("players", {}).get(ENGINE)
    if result.get("kind") == "luck" or not figures:
        return []
    recorded = []
    positions = None
    for index, player in enumerate((match.first_player, match.second_player)):
        if is_computer(player) or is_program(player):
            continue
        if positions is None:
            positions = _positions_before(match)
        weighed = _weigh(match, player, index, figures[index], result, positions)
        if weighed is not None:
            recorded.append(weighed)
    return recorded


def _weigh(
    match: Match,
    player: Player,
    index: int,
    figures: dict[str, Any],
    result: dict[str, Any],
    positions: dict[int, tuple[str | None, str | None]],
) -> FairPlayMatch | None:
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=player.pk).first()
        if FairPlayMatch.objects.filter(player=player, match=match).exists():
            return None
        history = list(
            FairPlayMatch.objects.filter(player=player).order_by("-analysed_at", "-pk")[
                :HISTORY_MATCHES
            ]
        )[::-1]
        last = history[-1].statistic if history else 0.0
        rating = _rating_before(player, match)
        errors = MatchErrors(int(figures["decisions"]), figures["errors"] + figures["blunders"])
        score = match_score(
            errors,
            rating=rating,
            history=[MatchErrors(row.decisions, row.errors) for row in history],
            # The CUSUM starts again once it has opened a case.
            statistic_before=last if last < THRESHOLD else 0.0,
        )
        weighed = FairPlayMatch.objects.create(
            player=player,
            match=match,
            rating=rating,
            decisions=errors.decisions,
            errors=errors.errors,
            expected_rate=score.expected_rate,
            z=score.z,
            statistic=score.statistic,
            decisions_made=_decisions_made(result, index, positions),
        )
        case = FairPlayCase.objects.filter(player=player, status=FairPlayCase.Status.OPEN).first()
        if score.crosses:
            if case is None:
                case = FairPlayCase.objects.create(
                    player=player, statistic=score.statistic, threshold=THRESHOLD
                )
                _run_leading_to(history).update(case=case)
            elif score.statistic > case.statistic:
                case.statistic = score.statistic
                case.save(update_fields=["statistic"])
        if case is not None:
            weighed.case = case
            weighed.save(update_fields=["case"])
    return weighed


def _run_leading_to(history: list[FairPlayMatch]) -> Any:
    """The player's earlier matches of the run that the CUSUM summed (those since it last
    stood at zero), not in a case yet."""
    run = []
    for row in reversed(history):
        if row.statistic <= 0 or row.statistic >= THRESHOLD:
            break
        run.append(row.pk)
    return FairPlayMatch.objects.filter(pk__in=run, case__isnull=True)


def _rating_before(player: Player, match: Match) -> float:
    change = RatingChange.objects.filter(user=player, match=match).first()
    if change is not None:
        return float(change.rating_before)
    return float(rating_in(player, match.variant).rating)


def _positions_before(match: Match) -> dict[int, tuple[str | None, str | None]]:
    """Each step of the match's log: the Position ID before it, from each player's side."""
    log = match_log(match)
    state = MatchState.new(match.match_length, rules_of_log(log))
    positions = {}
    for row, event in read_log(log):
        if event is None:
            continue
        positions[row.step] = (state.position_id(0), state.position_id(1))
        state = state.apply(event)
    return positions


def _decisions_made(
    result: dict[str, Any], index: int, positions: dict[int, tuple[str | None, str | None]]
) -> list[dict[str, Any]]:
    made = []
    for decision in result.get("decisions", []):
        opinion = decision.get("opinions", {}).get(ENGINE)
        if decision.get("player") != index or not opinion or not opinion.get("counts", True):
            continue
        made.append(
            {
                "seq": decision["seq"],
                "kind": decision["kind"],
                "position_id": positions.get(decision["seq"], (None, None))[index],
                "chosen": decision["chosen"],
                "best": opinion["best"],
                "equity_lost": opinion["equity_lost"],
            }
        )
    return made


def may_judge_fair_play(user: Viewer) -> bool:
    """Moderators (the Moderators group holds games.change_fairplaycase) judge cases."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_staff
        and user.has_perm("games.change_fairplaycase")
    )


def fair_play_case_decide(
    *, case_id: int, moderator: Player, status: str, note: str
) -> FairPlayCase:
    """A moderator's judgement of a case: ``status`` open, dismissed or confirmed, with a
    note; recorded in the audit record. Confirming decides nothing else: what becomes of the
    account is the moderator's next step (suspending it, from the accounts list)."""
    if not may_judge_fair_play(moderator):
        raise Forbidden("Only moderators judge fair-play cases.")
    if status not in FairPlayCase.Status.values:
        raise ApplicationError("A case is open, dismissed or confirmed.", "status")
    with transaction.atomic():
        case = FairPlayCase.objects.select_for_update().get(pk=case_id)
        if case.status == status and case.note == note:
            return case
        reopened = status == FairPlayCase.Status.OPEN and case.status != status
        if (
            reopened
            and FairPlayCase.objects.filter(player_id=case.player_id, status=status)
            .exclude(pk=case.pk)
            .exists()
        ):
            raise ApplicationError("The player has another case open.", "open_case")
        before = case.status
        case.status = status
        case.note = note
        open_now = status == FairPlayCase.Status.OPEN
        case.decided_by = None if open_now else moderator
        case.decided_at = None if open_now else timezone.now()
        case.save(update_fields=["status", "note", "decided_by", "decided_at"])
        AuditRecord.objects.create(
            acting_user=moderator,
            modified_user_id=case.player_id,
            kind=AuditRecord.Kind.FAIR_PLAY_CASE_DECIDED,
            reason=(note or f"Fair-play case {case.pk}: {status}.")[:500],
            details={"case": case.pk, "status_before": before, "status": status},
        )
    return case
