"""Tournaments, read-only, with their entrants and bracket; a moderator may cancel one or
remove a player from one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games import services
from games.admin.audit import remove_player_action
from games.admin.moderation import ReasonForm, moderation_page
from games.models import BracketMatch, Tournament, TournamentEntry


class CancelForm(ReasonForm):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Shown on the tournament's page and kept in the log of each match it aborts.",
    )


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    fields = ("player", "seed", "rating", "withdrawn", "joined_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


class BracketMatchInline(admin.TabularInline):
    model = BracketMatch
    fields = ("part", "round", "slot", "first", "second", "bye", "match", "winner")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Tournaments, read-only: they change through the services (the pages and the API); a
    match of one is aborted or awarded from its own admin page."""

    list_display = ("id", "name", "format", "size", "status", "start_mode", "starts_at", "winner")
    list_filter = ("format", "status", "start_mode")
    search_fields = ("name",)
    list_select_related = ("winner",)
    inlines = [TournamentEntryInline, BracketMatchInline]
    actions = ["cancel_tournaments", "remove_player"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return services.can_cancel_tournament(request.user)

    @admin.action(description="Remove a player from the tournament...", permissions=["moderate"])
    def remove_player(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        return remove_player_action(self, request, queryset)

    @admin.action(
        description="Cancel tournament (abort its matches under way)", permissions=["moderate"]
    )
    def cancel_tournaments(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> Any:
        form = CancelForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return moderation_page(
                self,
                request,
                list(queryset),
                form,
                action="cancel_tournaments",
                title="Cancel tournaments",
                template="admin/games/tournament/cancel_tournaments.html",
            )
        for tournament in queryset:
            try:
                services.tournament_cancel(
                    tournament_id=tournament.pk,
                    moderator=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except ApplicationError as error:
                self.message_user(request, f"{tournament}: {error.message}", messages.ERROR)
            else:
                self.message_user(request, f"{tournament}: cancelled.", messages.SUCCESS)
        return None
