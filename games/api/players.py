"""The API of players: one player's public record: their rating in each variant they have
played rated (histories at /api/players/<username>/ratings/), and their timeouts."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import is_program
from backgammon_site.core.api_toolkit import ERRORS
from backgammon_site.core.errors import NotFound
from games import selectors, services
from games.selectors.droppers import TimeoutRecord
from ratings.selectors import ratings_of_player
from ratings.serializers import FIBS_EXPERIENCE_HELP, FIBS_RATING_HELP


class TimeoutsSerializer(serializers.Serializer):
    matches = serializers.IntegerField(help_text="Matches the player finished in the window.")
    timed_out = serializers.IntegerField(help_text="Of those, the ones they lost on time.")
    percent = serializers.IntegerField(help_text="timed_out of matches, rounded.")
    days = serializers.IntegerField(help_text="The window: the last this many days.")
    text = serializers.CharField(help_text="The record in words.")
    above_limit = serializers.BooleanField(
        help_text="Above the site's limit: no tournaments, leagues or open challenges for now."
    )


def timeouts_values(record: TimeoutRecord) -> dict[str, Any]:
    """A record of timeouts as the API gives it (``TimeoutsSerializer``)."""
    return {
        "matches": record.matches,
        "timed_out": record.timed_out,
        "percent": record.percent,
        "days": record.days,
        "text": str(record),
        "above_limit": record.above_limit,
    }


class VariantRatingSerializer(serializers.Serializer):
    variant = serializers.CharField(help_text="The variant the rating is for: backgammon, ...")
    rating = serializers.FloatField()
    deviation = serializers.FloatField(help_text="As it stands today, widened while idle.")
    provisional = serializers.BooleanField()
    rated_matches = serializers.IntegerField()
    fibs_rating = serializers.FloatField(help_text=FIBS_RATING_HELP)
    fibs_experience = serializers.IntegerField(help_text=FIBS_EXPERIENCE_HELP)


class PlayerSerializer(serializers.Serializer):
    username = serializers.CharField()
    program = serializers.BooleanField(
        help_text="A program plays for this account (its player said so); it plays unrated."
    )
    ratings = VariantRatingSerializer(
        many=True, help_text="One per variant played rated; none before the first rated match."
    )
    timeouts = TimeoutsSerializer()


class PlayerDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player: ratings and record of timeouts",
        responses={200: PlayerSerializer, **ERRORS},
    )
    def get(self, request: Request, username: str) -> Response:
        player = selectors.player_by_name(username)
        if player is None:
            raise NotFound(f"There is no player called {username!r}.")
        timeouts = services.timeout_record(player)
        data = {
            "username": player.get_username(),
            "program": is_program(player),
            "ratings": [
                {
                    "variant": rating.variant,
                    "rating": round(rating.rating, 2),
                    "deviation": round(rating.deviation, 2),
                    "provisional": rating.is_provisional,
                    "rated_matches": rating.rated_matches,
                    "fibs_rating": round(rating.fibs_rating, 2),
                    "fibs_experience": rating.fibs_experience,
                }
                for rating in ratings_of_player(player)
            ],
            "timeouts": timeouts_values(timeouts),
        }
        return Response(PlayerSerializer(data).data)
