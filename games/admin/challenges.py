"""Challenges, read-only: they change through the services (the lobby and the API)."""

from __future__ import annotations

from django.contrib import admin

from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games.models import Challenge


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "opponent", "match_length", "rated", "status", "created_at")
    list_filter = ("status", "rated")
    search_fields = ("challenger__username", "opponent__username")
    list_select_related = ("challenger", "opponent")
