"""What the ratings API answers."""

from __future__ import annotations

from rest_framework import serializers


class LeaderboardEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="1 for the highest rating.")
    player = serializers.CharField(help_text="The player's username.")
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
    rated_matches = serializers.IntegerField()
    last_rated_at = serializers.DateTimeField(allow_null=True)
