"""Suspending an account and reactivating it: the one way either is done (the admin's actions
call these), each with an audit record of who, whom, when and why.

The moderator chooses what becomes of the suspended player's matches under way: "forfeit"
awards each to the opponent (and takes the player out of the knock-outs they are still in,
so no later round waits for them); "pause" stops their clocks where they stand, as a vacation
does, until the account is reactivated, when they run again from where they stopped.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from backgammon_site.core.errors import ApplicationError, Forbidden
from games.clocks.rules import TimeControl
from games.models import AuditRecord, Match, Player, Tournament, TournamentEntry, Viewer
from games.services.announcements import announce
from games.services.deadlines import set_deadline
from games.services.moderation import clean_reason, match_forfeit
from games.services.tournaments import tournament_advance

RUNNING_MATCHES = ("forfeit", "pause")


def may_suspend(moderator: Viewer, user: Player) -> bool:
    """Moderators (who hold auth.change_user) suspend players' accounts, never their own;
    only superusers suspend staff and superuser accounts."""
    if moderator is None or not moderator.is_authenticated or not moderator.is_active:
        return False
    if user is None or user.pk == moderator.pk or not moderator.has_perm("auth.change_user"):
        return False
    return bool(moderator.is_superuser or not (user.is_staff or user.is_superuser))


def account_suspend(
    *, moderator: Player, user: Player, reason: str, running_matches: str = "forfeit"
) -> AuditRecord:
    """Suspend ``user``'s account (they can no longer sign in or play) and forfeit or pause
    their matches under way, as ``running_matches`` says; returns the audit record."""
    if not may_suspend(moderator, user):
        raise Forbidden(
            "Only a moderator can suspend an account, never their own; staff and superuser "
            "accounts only a superuser."
        )
    if running_matches not in RUNNING_MATCHES:
        raise ApplicationError(
            "Choose what becomes of their matches under way: forfeit or pause.",
            "running_matches",
        )
    reason = clean_reason(reason)
    with transaction.atomic():
        account = type(user).objects.select_for_update().get(pk=user.pk)
        if not account.is_active:
            raise ApplicationError("The account is suspended already.", "suspended")
        account.is_active = False
        account.save(update_fields=["is_active"])
        under_way = list(
            Match.objects.filter(status=Match.Status.ACTIVE)
            .filter(Q(first_player=account) | Q(second_player=account))
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if running_matches == "forfeit":
            for match_id in under_way:
                match_forfeit(
                    match_id=match_id,
                    actor=moderator,
                    loser=account,
                    reason=f"Account suspended: {reason}",
                )
            _leave_knockouts(account)
            affected = under_way
        else:
            affected = _pause_clocks(account)
        user.is_active = False
        return AuditRecord.objects.create(
            acting_user=moderator,
            modified_user=account,
            kind=AuditRecord.Kind.ACCOUNT_SUSPENDED,
            reason=reason,
            details={"running_matches": running_matches, "matches": affected},
        )


def account_reactivate(*, moderator: Player, user: Player, reason: str) -> AuditRecord:
    """Reactivate a suspended account; the clocks its suspension paused run again from where
    they stopped."""
    if not may_suspend(moderator, user):
        raise Forbidden(
            "Only a moderator can reactivate an account, never their own; staff and superuser "
            "accounts only a superuser."
        )
    reason = clean_reason(reason)
    with transaction.atomic():
        account = type(user).objects.select_for_update().get(pk=user.pk)
        if account.is_active:
            raise ApplicationError("The account is not suspended.", "not_suspended")
        account.is_active = True
        account.save(update_fields=["is_active"])
        resumed = _resume_clocks(account)
        user.is_active = True
        return AuditRecord.objects.create(
            acting_user=moderator,
            modified_user=account,
            kind=AuditRecord.Kind.ACCOUNT_REACTIVATED,
            reason=reason,
            details={"resumed_matches": resumed},
        )


def _leave_knockouts(account: Player) -> None:
    running = list(
        TournamentEntry.objects.filter(
            player=account, withdrawn=False, tournament__status=Tournament.Status.RUNNING
        ).values_list("pk", "tournament_id")
    )
    TournamentEntry.objects.filter(pk__in=[pk for pk, _ in running]).update(withdrawn=True)
    for _, tournament_id in running:
        tournament_advance(tournament_id=tournament_id)


def _pause_clocks(account: Player) -> list[int]:
    now = timezone.now()
    paused = []
    matches = Match.objects.select_for_update().filter(
        to_act=account, status=Match.Status.ACTIVE, deadline__isnull=False
    )
    for match in matches.order_by("pk"):
        assert match.deadline is not None
        match.paused_time_left = max((match.deadline - now).total_seconds(), 0.0)
        match.deadline = match.warn_at = None
        match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
        announce(match)
        paused.append(match.pk)
    return paused


def _resume_clocks(account: Player) -> list[int]:
    now = timezone.now()
    resumed: list[int] = []
    matches = Match.objects.select_for_update().filter(
        to_act=account, status=Match.Status.ACTIVE, paused_time_left__isnull=False
    )
    on_vacation = getattr(getattr(account, "profile", None), "vacation_started_at", None)
    if on_vacation is not None:
        return resumed
    for match in matches.order_by("pk"):
        assert match.paused_time_left is not None
        set_deadline(
            match,
            control=TimeControl.of(match.time_control),
            deadline=now + timedelta(seconds=match.paused_time_left),
            now=now,
        )
        match.paused_time_left = None
        match.save(update_fields=["deadline", "warn_at", "paused_time_left"])
        announce(match)
        resumed.append(match.pk)
    return resumed
