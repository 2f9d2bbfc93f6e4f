"""Matches imported from .mat files."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from games.models import ImportedMatch


@admin.register(ImportedMatch)
class ImportedMatchAdmin(admin.ModelAdmin):
    """Matches imported from .mat files: read-only; a moderator may delete one."""

    list_display = (
        "id",
        "first_player_name",
        "second_player_name",
        "match_length",
        "uploaded_by",
        "created_at",
    )
    search_fields = ("first_player_name", "second_player_name", "uploaded_by__username")
    list_select_related = ("uploaded_by",)
    readonly_fields = (
        "uploaded_by",
        "first_player_name",
        "second_player_name",
        "match_length",
        "score",
        "mat_text",
        "events",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
