"""What the ratings API answers."""

from __future__ import annotations

from rest_framework import serializers

from backgammon_site.core.variants import Variant
from ratings.today import RatingToday

VARIANT_HELP = (
    "The variant whose ratings to read: one of " + ", ".join(Variant.values) + ". A player "
    "has one rating per variant; a Tavli match moves the tavli rating."
)

FIBS_RATING_HELP = (
    "The rating by FIBS's formula (1500 new), the number backgammon players compare: moved by "
    "the same rated matches as the Glicko-2 rating, by 4 K sqrt(n) times the chance of the "
    "other result (docs/ratings.md)."
)
FIBS_EXPERIENCE_HELP = (
    "FIBS's experience: the points of the rated matches finished in the variant. Below 400 the "
    "FIBS rating moves up to five times as fast."
)


class RatingSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=Variant.choices)
    rating = serializers.FloatField(help_text="Glicko-2 rating on the Glicko scale (1500 new).")
    deviation = serializers.FloatField(
        help_text="Rating deviation as it stands now: as the last rated match left it, widened "
        "for each full rating period the player has been idle since (never above the cap)."
    )
    volatility = serializers.FloatField()
    provisional = serializers.BooleanField(
        help_text="True while the deviation now is above the provisional threshold (never on "
        "the leaderboard, which lists established players only)."
    )
    rated_matches = serializers.IntegerField(help_text="Rated matches played in the variant.")
    last_rated_at = serializers.DateTimeField(allow_null=True)
    fibs_rating = serializers.FloatField(help_text=FIBS_RATING_HELP)
    fibs_experience = serializers.IntegerField(help_text=FIBS_EXPERIENCE_HELP)


class RatingHistoryEntrySerializer(serializers.Serializer):
    match = serializers.IntegerField(help_text="The rated match's id.")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_after = serializers.FloatField()
    fibs_rating_after = serializers.FloatField(
        allow_null=True,
        help_text="The FIBS rating the match left; null for matches rated before it was kept.",
    )
    at = serializers.DateTimeField(help_text="When the match finished.")


class PlayerRatingSerializer(RatingSerializer):
    history = RatingHistoryEntrySerializer(many=True, help_text="Every change, oldest first.")


def rating_values(rating: RatingToday) -> dict[str, object]:
    """A rating as it stands today, as the API gives it."""
    return {
        "variant": rating.variant,
        "rating": round(rating.rating, 2),
        "deviation": round(rating.deviation, 2),
        "volatility": round(rating.volatility, 6),
        "provisional": rating.is_provisional,
        "rated_matches": rating.rated_matches,
        "last_rated_at": rating.last_rated_at,
        "fibs_rating": round(rating.fibs_rating, 2),
        "fibs_experience": rating.fibs_experience,
    }
