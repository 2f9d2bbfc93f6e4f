"""Players' Glicko-2 ratings, one per variant they have played rated (as lichess keeps one per
variant), and their history, one change per player per rated match."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from backgammon_site.core.variants import DEFAULT_VARIANT
from ratings import fibs
from ratings.today import RatingToday, deviation_today


def is_provisional(deviation: float) -> bool:
    """A rating is provisional while its deviation is above the threshold in settings."""
    return deviation > settings.RATINGS["PROVISIONAL_DEVIATION"]


class PlayerRating(models.Model):
    """A player's rating in one variant as of their last rated match in it; created by their
    first one. A Tavli match rates the ``tavli`` rating, not those of its three games.

    ``deviation`` is as it was after that match; ``deviation_at`` widens it for the time since
    then, for readers and for the player's next rated match alike, without writing it.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    variant = models.CharField(max_length=16, default=DEFAULT_VARIANT)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField()
    rated_matches = models.PositiveIntegerField(default=0)
    last_rated_at = models.DateTimeField(null=True, blank=True)
    fibs_rating = models.FloatField(
        default=fibs.NEW_RATING,
        help_text="The rating by FIBS's formula (ratings/fibs.py), moved by the same matches.",
    )
    fibs_experience = models.PositiveIntegerField(
        default=fibs.NEW_EXPERIENCE,
        help_text="FIBS's experience: the points of the rated matches finished in the variant.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "variant"], name="rating_once_per_variant"),
        ]
        indexes = [
            models.Index(fields=["variant", "deviation", "-rating"], name="rating_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.variant}: {self.rating:.0f} ± {self.deviation:.0f}"

    def deviation_at(self, now: datetime) -> float:
        """The deviation at ``now``: widened for each full rating period the player has been
        idle since their last rated match, never beyond the cap (settings RATINGS)."""
        limits = settings.RATINGS
        return deviation_today(
            self.deviation,
            self.volatility,
            self.last_rated_at,
            now,
            period=timedelta(days=limits["PERIOD_DAYS"]),
            cap=limits["MAX_DEVIATION"],
        )

    def today(self, now: datetime | None = None) -> RatingToday:
        """The rating as it stands at ``now`` (default: the present), as pages show it."""
        deviation = self.deviation_at(timezone.now() if now is None else now)
        return RatingToday(
            user=self.user,
            variant=self.variant,
            rating=self.rating,
            deviation=deviation,
            volatility=self.volatility,
            rated_matches=self.rated_matches,
            last_rated_at=self.last_rated_at,
            is_provisional=is_provisional(deviation),
            fibs_rating=self.fibs_rating,
            fibs_experience=self.fibs_experience,
        )


class RatingChange(models.Model):
    """What one rated match did to one player's rating in the match's variant.

    The "before" values are the player's stored rating before the match, before any widening
    for the time since their previous match; the "after" values are what the match left.
    A match changes each player's rating once: the pair (user, match) is unique.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="rating_changes"
    )
    match = models.ForeignKey("games.Match", on_delete=models.PROTECT, related_name="+")
    variant = models.CharField(
        max_length=16,
        default=DEFAULT_VARIANT,
        help_text="The variant of the match: the rating it changed.",
    )
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    volatility_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField()
    #: The FIBS rating before and after; none for the changes made before it was kept.
    fibs_rating_before = models.FloatField(null=True, blank=True)
    fibs_rating_after = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["user", "created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="rating_change_once_per_match"),
        ]
        indexes = [
            models.Index(fields=["user", "variant", "created_at"], name="rating_change_history"),
        ]

    def __str__(self) -> str:
        before, after = f"{self.rating_before:.0f}", f"{self.rating_after:.0f}"
        return f"{self.user} in match {self.match_id}: {before} → {after}"

    @property
    def difference(self) -> float:
        return self.rating_after - self.rating_before

    @property
    def is_provisional(self) -> bool:
        return is_provisional(self.deviation_after)
