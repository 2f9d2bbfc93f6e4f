"""Reads of ratings that pages and the API share: the leaderboard and a player's history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from ratings.models import PlayerRating, RatingChange
from ratings.services import new_rating


def leaderboard() -> QuerySet[PlayerRating]:
    """Established players (deviation at most the provisional threshold), best first.

    Suspended accounts are left off. Deviations are as of each player's last rated match.
    """
    return (
        PlayerRating.objects.filter(
            deviation__lte=settings.RATINGS["PROVISIONAL_DEVIATION"],
            rated_matches__gt=0,
            user__is_active=True,
        )
        .select_related("user__profile")
        .order_by("-rating", "user__username")
    )


def rating_of(user: Any) -> PlayerRating:
    """The player's rating; a new player's (unsaved) before their first rated match."""
    rating = PlayerRating.objects.filter(user=user).first()
    return rating if rating is not None else new_rating(user)


def rating_history(user: Any) -> list[RatingChange]:
    """Every change of the player's rating, oldest first, with the match and its players."""
    return list(
        RatingChange.objects.filter(user=user)
        .select_related("match__first_player", "match__second_player")
        .order_by("created_at", "pk")
    )


def provisional_threshold() -> float:
    """The deviation above which a rating is provisional."""
    return float(settings.RATINGS["PROVISIONAL_DEVIATION"])
