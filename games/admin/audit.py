"""The audit records (removals from events, suspensions, reactivations), read-only, listed and
filtered for moderators; the admin's actions that write them (on accounts, tournaments and
leagues) call games.services and ask for a reason first."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.admin import AccountAdmin
from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games import services
from games.admin.moderation import ReasonForm, moderation_page
from games.models import AuditRecord, Tournament

User = get_user_model()


@admin.register(AuditRecord)
class AuditRecordAdmin(ReadOnlyAdmin):
    """Who did what to whom, when and why: written by the services only, never changed."""

    list_display = ("created_at", "kind", "modified_user", "acting_user", "reason")
    list_filter = ("kind", "created_at")
    search_fields = ("modified_user__username", "acting_user__username", "reason")
    list_select_related = ("modified_user", "acting_user")
    date_hierarchy = "created_at"
    fields = ("created_at", "kind", "modified_user", "acting_user", "reason", "details")
    readonly_fields = fields


class AuditedReasonForm(ReasonForm):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Kept in the audit record, and in the log of each match it forfeits.",
    )


class SuspendForm(AuditedReasonForm):
    running_matches = forms.ChoiceField(
        label="Their matches under way",
        widget=forms.RadioSelect,
        initial="forfeit",
        choices=[
            ("forfeit", "Forfeit them: each is awarded to the opponent"),
            ("pause", "Pause their clocks until the account is reactivated"),
        ],
    )


class RemoveForm(AuditedReasonForm):
    player = forms.ModelChoiceField(queryset=User.objects.none(), label="Player to remove")

    def __init__(self, *args: Any, players: QuerySet[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players.order_by("username")
        self.order_fields(["player", "reason"])


admin.site.unregister(User)


@admin.register(User)
class SuspendingAccountAdmin(AccountAdmin):
    """The accounts' admin with suspension and reactivation, through the services (so with a
    reason and an audit record): the one way to change whether an account is active."""

    actions = ["suspend_accounts", "reactivate_accounts"]

    @admin.action(description="Suspend the selected accounts...", permissions=["change"])
    def suspend_accounts(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        form = SuspendForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return moderation_page(
                self,
                request,
                list(queryset),
                form,
                action="suspend_accounts",
                title="Suspend accounts",
                template="admin/auth/user/suspend_accounts.html",
            )
        for user in queryset:
            self._audited(
                request,
                user,
                "suspended",
                lambda user: services.account_suspend(
                    moderator=request.user,
                    user=user,
                    reason=form.cleaned_data["reason"],
                    running_matches=form.cleaned_data["running_matches"],
                ),
            )
        return None

    @admin.action(description="Reactivate the selected accounts...", permissions=["change"])
    def reactivate_accounts(self, request: HttpRequest, queryset: QuerySet[Any]) -> Any:
        form = AuditedReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return moderation_page(
                self,
                request,
                list(queryset),
                form,
                action="reactivate_accounts",
                title="Reactivate accounts",
                template="admin/auth/user/reactivate_accounts.html",
            )
        for user in queryset:
            self._audited(
                request,
                user,
                "reactivated",
                lambda user: services.account_reactivate(
                    moderator=request.user, user=user, reason=form.cleaned_data["reason"]
                ),
            )
        return None

    def _audited(self, request: HttpRequest, user: Any, done: str, act: Any) -> None:
        try:
            act(user)
        except ApplicationError as error:
            self.message_user(request, f"{user}: {error.message}", messages.ERROR)
        else:
            self.message_user(request, f"{user}: {done}.", messages.SUCCESS)


def remove_player_action(model_admin: admin.ModelAdmin, request: HttpRequest, events: Any) -> Any:
    """The admin's removal of a player from one tournament or league: a page asks for the
    player and the reason, then ``event_entry_remove`` does it with the moderator as director."""
    chosen = list(events)
    if len(chosen) != 1:
        model_admin.message_user(request, "Choose one event.", messages.WARNING)
        return None
    event = chosen[0]
    if isinstance(event, Tournament):
        players = User.objects.filter(
            tournament_entries__tournament=event, tournament_entries__withdrawn=False
        )
    else:
        players = User.objects.filter(
            league_entries__season__league=event,
            league_entries__season__status__in=("running", "signing_up"),
            league_entries__withdrawn=False,
        ).distinct()
    form = RemoveForm(request.POST if "apply" in request.POST else None, players=players)
    if not form.is_valid():
        return moderation_page(
            model_admin,
            request,
            chosen,
            form,
            action="remove_player",
            title=f"Remove a player from {event}",
            template="admin/games/remove_player.html",
        )
    player = form.cleaned_data["player"]
    try:
        services.event_entry_remove(
            director=request.user, event=event, player=player, reason=form.cleaned_data["reason"]
        )
    except ApplicationError as error:
        model_admin.message_user(request, f"{event}: {error.message}", messages.ERROR)
    else:
        model_admin.message_user(request, f"{player} removed from {event}.", messages.SUCCESS)
    return None


def may_remove_players(request: HttpRequest) -> bool:
    return bool(request.user.has_perm("games.moderate_match"))
