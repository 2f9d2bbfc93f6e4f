"""Admin for ratings: read-only for everyone; ratings change only when a rated match ends."""

from __future__ import annotations

from django.contrib import admin

from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from ratings.models import PlayerRating, RatingChange


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = (
        "user",
        "rating",
        "deviation",
        "volatility",
        "rated_matches",
        "last_rated_at",
        "fibs_rating",
        "fibs_experience",
    )
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("-rating",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "user",
        "match",
        "rating_before",
        "rating_after",
        "deviation_after",
        "created_at",
    )
    search_fields = ("user__username", "=match__id")
    list_select_related = ("user", "match__first_player", "match__second_player")
    date_hierarchy = "created_at"
