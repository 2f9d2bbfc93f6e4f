"""Tournaments, read-only, with their entrants and bracket."""

from __future__ import annotations

from django.contrib import admin

from backgammon_site.read_only_admin import ReadOnlyAdmin
from games.models import BracketMatch, Tournament, TournamentEntry


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    fields = ("player", "seed", "rating", "withdrawn", "joined_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


class BracketMatchInline(admin.TabularInline):
    model = BracketMatch
    fields = ("round", "slot", "first", "second", "bye", "match", "winner")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Tournaments, read-only: they change through the services (the pages and the API); a
    match of one is aborted or awarded from its own admin page."""

    list_display = ("id", "name", "size", "status", "start_mode", "starts_at", "winner")
    list_filter = ("status", "start_mode")
    search_fields = ("name",)
    list_select_related = ("winner",)
    inlines = [TournamentEntryInline, BracketMatchInline]
