"""The ratings API: a player's ratings with their history (the leaderboard is games' own,
games/api/leaderboard.py, as it shows records of timeouts too)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ERRORS
from backgammon_site.core.errors import NotFound
from backgammon_site.core.variants import Variant, variant_asked
from ratings import selectors
from ratings.serializers import VARIANT_HELP, PlayerRatingSerializer, rating_values

VARIANT = OpenApiParameter("variant", str, enum=Variant.values, description=VARIANT_HELP)


class PlayerRatings(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A player's ratings, one per variant, each with its history",
        description="Without ``variant``: every variant the player has played rated. With it: "
        "that variant's rating alone (a new player's starting rating before a first rated "
        "match in it).",
        parameters=[VARIANT],
        responses={200: PlayerRatingSerializer(many=True), 400: ERRORS[400], 404: ERRORS[404]},
    )
    def get(self, request: Request, username: str) -> Response:
        asked = request.query_params.get("variant")
        variant = None if asked is None else variant_asked(asked)
        users = get_user_model()
        # PostgreSQL refuses a NUL character in a query: no account has one.
        player = (
            None
            if "\x00" in username
            else users.objects.filter(**{users.USERNAME_FIELD: username}).first()
        )
        if player is None:
            raise NotFound("No such player.")
        ratings = (
            selectors.ratings_of_player(player)
            if variant is None
            else [selectors.rating_in(player, variant)]
        )
        histories = selectors.rating_histories(player, variant)
        rows = [
            rating_values(rating)
            | {
                "history": [
                    {
                        "match": change.match_id,
                        "rating_before": round(change.rating_before, 2),
                        "rating_after": round(change.rating_after, 2),
                        "deviation_after": round(change.deviation_after, 2),
                        "fibs_rating_after": (
                            None
                            if change.fibs_rating_after is None
                            else round(change.fibs_rating_after, 2)
                        ),
                        "at": change.created_at,
                    }
                    for change in histories.get(rating.variant, [])
                ]
            }
            for rating in ratings
        ]
        return Response(PlayerRatingSerializer(rows, many=True).data)
