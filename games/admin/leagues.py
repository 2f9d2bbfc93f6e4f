"""Leagues and their seasons, read-only, with each season's players; "advance" does at once
what the minute sweep would; "remove a player" takes one out mid-season, with a reason."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games import services
from games.admin.audit import may_remove_players, remove_player_action
from games.models import League, LeagueEntry, LeagueSeason


class LeagueSeasonInline(admin.TabularInline):
    model = LeagueSeason
    fields = ("number", "status", "starts_at", "ends_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0
    show_change_link = True


@admin.register(League)
class LeagueAdmin(ReadOnlyAdmin):
    """Leagues, read-only: they change through the services (the pages and the API); a
    league's match is aborted or awarded from its own admin page."""

    list_display = ("id", "name", "variant", "season_days", "division_size", "promoted")
    search_fields = ("name",)
    inlines = [LeagueSeasonInline]
    actions = ["advance", "remove_player"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return may_remove_players(request)

    @admin.action(description="Remove a player from the league...", permissions=["moderate"])
    def remove_player(self, request: HttpRequest, queryset: QuerySet[League]) -> Any:
        return remove_player_action(self, request, queryset)

    @admin.action(description="Advance the selected leagues now (close or open a due season)")
    def advance(self, request: HttpRequest, queryset: QuerySet[League]) -> None:
        changes = sum(services.league_advance(league_id=league.pk) for league in queryset)
        self.message_user(request, f"{changes} change(s) made.")


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    fields = ("player", "division", "rating", "withdrawn", "joined_at", "position", "move")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(LeagueSeason)
class LeagueSeasonAdmin(ReadOnlyAdmin):
    """A season's players, their divisions and final places, read-only."""

    list_display = ("id", "league", "number", "status", "starts_at", "ends_at")
    list_filter = ("status",)
    list_select_related = ("league",)
    inlines = [LeagueEntryInline]
