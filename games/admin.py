"""Admin for matches and challenges. The log is read-only here: moderators act through services."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Challenge, Match, MatchEvent


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MatchEventInline(admin.TabularInline):
    model = MatchEvent
    fields = ("seq", "kind", "payload", "actor", "created_at", "digest")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "first_player",
        "second_player",
        "match_length",
        "status",
        "winner",
        "seq",
        "updated_at",
    )
    list_filter = ("status", "rated")
    search_fields = ("first_player__username", "second_player__username")
    list_select_related = ("first_player", "second_player", "winner")
    inlines = [MatchEventInline]


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "actor", "created_at")
    list_filter = ("kind",)
    list_select_related = ("match", "actor")


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "opponent", "match_length", "rated", "status", "created_at")
    list_filter = ("status", "rated")
    list_select_related = ("challenger", "opponent")
