"""Reads of ratings that pages and the API share: the leaderboard and a player's ratings and
their history, one rating per variant.

Every rating they return is as it stands at the time of reading (``PlayerRating.today``): its
deviation widened for the rating periods the player has been idle in that variant.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from backgammon_site.core.variants import DEFAULT_VARIANT, Variant
from ratings.models import PlayerRating, RatingChange
from ratings.services import new_rating
from ratings.today import RatingToday


def leaderboard(variant: str = DEFAULT_VARIANT, now: datetime | None = None) -> list[RatingToday]:
    """Established players in ``variant`` (deviation today at most the provisional threshold),
    best first.

    Suspended accounts are left off, and so is a player idle long enough for their deviation
    to have widened past the threshold. Widening only ever raises a deviation, so the database
    picks the players whose stored deviation is within the threshold and the widening is done
    here, on those.
    """
    now = timezone.now() if now is None else now
    candidates = (
        PlayerRating.objects.filter(
            variant=variant,
            deviation__lte=settings.RATINGS["PROVISIONAL_DEVIATION"],
            rated_matches__gt=0,
            user__is_active=True,
        )
        .select_related("user__profile")
        .order_by("-rating", "user__username")
    )
    standing = (rating.today(now) for rating in candidates.iterator(chunk_size=500))
    return [rating for rating in standing if not rating.is_provisional]


def rating_in(user: Any, variant: str, now: datetime | None = None) -> RatingToday:
    """The player's rating in ``variant`` today; a new player's before their first rated match
    in it."""
    rating = PlayerRating.objects.filter(user=user, variant=variant).first()
    return (new_rating(user, variant) if rating is None else rating).today(now)


def ratings_in(
    user_ids: Iterable[int], variant: str, now: datetime | None = None
) -> dict[int, RatingToday]:
    """The ratings in ``variant`` today of the players among ``user_ids`` who have one, by user
    id: one query for a whole field of players."""
    found = ratings_for(((user_id, variant) for user_id in user_ids), now)
    return {user_id: rating for (user_id, _), rating in found.items()}


def ratings_for(
    players: Iterable[tuple[int, str]], now: datetime | None = None
) -> dict[tuple[int, str], RatingToday]:
    """The ratings today of the (user id, variant) pairs in ``players`` that have one: one
    query for a list of matches in several variants."""
    now = timezone.now() if now is None else now
    wanted = set(players)
    if not wanted:
        return {}
    found = PlayerRating.objects.filter(
        user_id__in={user_id for user_id, _ in wanted},
        variant__in={variant for _, variant in wanted},
    ).select_related("user")
    return {
        (rating.user_id, rating.variant): rating.today(now)
        for rating in found
        if (rating.user_id, rating.variant) in wanted
    }


def ratings_of_player(user: Any, now: datetime | None = None) -> list[RatingToday]:
    """Every rating the player has, one per variant they have played rated, in the order the
    variants are listed (backgammon first)."""
    now = timezone.now() if now is None else now
    order = {variant: index for index, variant in enumerate(Variant.values)}
    found = [
        rating.today(now)
        for rating in PlayerRating.objects.filter(user=user).select_related("user")
    ]
    return sorted(found, key=lambda rating: order[rating.variant])


def rating_histories(user: Any, variant: str | None = None) -> dict[str, list[RatingChange]]:
    """Every change of the player's ratings (in ``variant`` alone when given), oldest first, by
    variant, with the match and its players: one query."""
    changes = RatingChange.objects.filter(user=user)
    if variant is not None:
        changes = changes.filter(variant=variant)
    histories: dict[str, list[RatingChange]] = {}
    for change in changes.select_related(
        "match__first_player__profile", "match__second_player__profile"
    ).order_by("created_at", "pk"):
        histories.setdefault(change.variant, []).append(change)
    return histories


def provisional_threshold() -> float:
    """The deviation above which a rating is provisional."""
    return float(settings.RATINGS["PROVISIONAL_DEVIATION"])
