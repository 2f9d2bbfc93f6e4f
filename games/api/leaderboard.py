"""The leaderboard in the API: established players of a variant by rating, each with their
record of timeouts. It lives in games, not ratings, because that record is read from games'
matches (ratings never imports games)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ERRORS, Pagination
from backgammon_site.core.variants import Variant, variant_asked
from games.api.players import TimeoutsSerializer, timeouts_values
from games.selectors import timeout_records
from ratings import selectors
from ratings.serializers import VARIANT_HELP, RatingSerializer, rating_values


class LeaderboardEntrySerializer(RatingSerializer):
    rank = serializers.IntegerField(help_text="1 for the highest rating.")
    player = serializers.CharField(help_text="The player's username.")
    timeouts = TimeoutsSerializer(
        help_text="The player's matches lost on time of those finished lately; above_limit "
        "marks a dropper."
    )


class Leaderboard(APIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="The leaderboard of a variant: established players by rating",
        parameters=[
            OpenApiParameter(
                "variant",
                str,
                enum=Variant.values,
                description=VARIANT_HELP + " Default: backgammon.",
            ),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={
            200: LeaderboardEntrySerializer(many=True),
            400: ERRORS[400],
            404: ERRORS[404],
        },
    )
    def get(self, request: Request) -> Response:
        variant = variant_asked(request.query_params.get("variant"))
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.leaderboard(variant), request, view=self)
        first_rank = paginator.page.start_index()  # type: ignore[union-attr]  # paginated above
        ratings = page or []
        timeouts = timeout_records(rating.user for rating in ratings)
        rows = [
            {
                "rank": first_rank + index,
                "player": rating.user.get_username(),
                "timeouts": timeouts_values(timeouts[rating.user.pk]),
            }
            | rating_values(rating)
            for index, rating in enumerate(ratings)
        ]
        return paginator.get_paginated_response(LeaderboardEntrySerializer(rows, many=True).data)
