"""The ratings API: the leaderboard."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.api_toolkit import ERRORS, Pagination
from ratings import selectors
from ratings.serializers import LeaderboardEntrySerializer


class Leaderboard(APIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="The leaderboard: established players by rating",
        parameters=[OpenApiParameter("page", int), OpenApiParameter("page_size", int)],
        responses={200: LeaderboardEntrySerializer(many=True), 404: ERRORS[404]},
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.leaderboard(), request, view=self)
        first_rank = paginator.page.start_index()
        rows = [
            {
                "rank": first_rank + index,
                "player": rating.user.get_username(),
                "rating": round(rating.rating, 2),
                "deviation": round(rating.deviation, 2),
                "volatility": round(rating.volatility, 6),
                "provisional": rating.is_provisional,
                "rated_matches": rating.rated_matches,
                "last_rated_at": rating.last_rated_at,
            }
            for index, rating in enumerate(page or [])
        ]
        return paginator.get_paginated_response(LeaderboardEntrySerializer(rows, many=True).data)
