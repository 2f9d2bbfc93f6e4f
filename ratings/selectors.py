"""Reads of ratings that pages and the API share: the leaderboard and a player's history.

Every rating they return is as it stands at the time of reading (``PlayerRating.today``): its
deviation widened for the rating periods the player has been idle.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from ratings.models import PlayerRating, RatingChange
from ratings.services import new_rating
from ratings.today import RatingToday


def leaderboard(now: datetime | None = None) -> list[RatingToday]:
    """Established players (deviation today at most the provisional threshold), best first.

    Suspended accounts are left off, and so is a player idle long enough for their deviation
    to have widened past the threshold. Widening only ever raises a deviation, so the database
    picks the players whose stored deviation is within the threshold and the widening is done
    here, on those.
    """
    now = timezone.now() if now is None else now
    candidates = (
        PlayerRating.objects.filter(
            deviation__lte=settings.RATINGS["PROVISIONAL_DEVIATION"],
            rated_matches__gt=0,
            user__is_active=True,
        )
        .select_related("user__profile")
        .order_by("-rating", "user__username")
    )
    standing = (rating.today(now) for rating in candidates.iterator(chunk_size=500))
    return [rating for rating in standing if not rating.is_provisional]


def rating_of(user: Any, now: datetime | None = None) -> RatingToday:
    """The player's rating today; a new player's before their first rated match."""
    rating = PlayerRating.objects.filter(user=user).first()
    return (new_rating(user) if rating is None else rating).today(now)


def ratings_of(user_ids: Iterable[int], now: datetime | None = None) -> dict[int, RatingToday]:
    """The ratings today of the players among ``user_ids`` who have one, by user id: one query
    for a whole list of matches."""
    now = timezone.now() if now is None else now
    found = PlayerRating.objects.filter(user_id__in=set(user_ids)).select_related("user")
    return {rating.user_id: rating.today(now) for rating in found}


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
