"""The API of leagues: list and create them, read one with its current season's division
standings, read any season that has started (a finished one's final places, promotions and
relegations), sign up for the next season and withdraw. Each body's serializer here is also
its OpenAPI schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from backgammon_site.core.api_toolkit import ERRORS, Pagination, StrictCharField, StrictIntegerField
from backgammon_site.core.errors import NotFound
from backgammon_site.core.variants import DEFAULT_VARIANT
from games import selectors, services
from games.api.idempotency import IDEMPOTENCY_KEY, Answer, idempotent
from games.api.players import TimeoutsSerializer, timeouts_values
from games.api.serializers import TimeControlField
from games.api.signed_in import SignedInRequest
from games.models import League, LeagueEntry, LeagueMatch, LeagueSeason, Match, Variant
from games.models.leagues import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from games.services import MAX_MATCH_LENGTH, league_tables


class LeagueRequestSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    variant = serializers.ChoiceField(choices=Variant.choices, default=DEFAULT_VARIANT)
    match_length = StrictIntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, default=5)
    rated = serializers.BooleanField(default=True)
    time_control = TimeControlField(
        required=False, allow_null=True, help_text="As for a challenge; a default if left out."
    )
    season_days = StrictIntegerField(min_value=1, max_value=365, default=28)
    division_size = StrictIntegerField(
        min_value=MIN_DIVISION_SIZE, max_value=MAX_DIVISION_SIZE, default=8
    )
    promoted = StrictIntegerField(
        min_value=0, max_value=3, default=2, help_text="Up and down from each division."
    )
    starts_at = serializers.DateTimeField(help_text="When the first season starts.")


class SeasonSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=LeagueSeason.Status.values)
    players = serializers.IntegerField(help_text="Signed up (and not withdrawn).")
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    variant = serializers.ChoiceField(choices=Variant.choices)
    match_length = serializers.IntegerField()
    time_control = serializers.JSONField()
    rated = serializers.BooleanField()
    season_days = serializers.IntegerField()
    division_size = serializers.IntegerField()
    promoted = serializers.IntegerField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    current_season = SeasonSerializer(
        allow_null=True, help_text="The season under way, or the last one finished."
    )
    next_season = SeasonSerializer(allow_null=True, help_text="The season signing up.")


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()
    points_won = serializers.IntegerField()
    points_lost = serializers.IntegerField()
    points_difference = serializers.IntegerField()
    move = serializers.ChoiceField(
        choices=[*LeagueEntry.Move.values, ""],
        help_text="After a finished season: up, stay or down; empty while it runs.",
    )


class ResultSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    first = serializers.CharField()
    second = serializers.CharField()
    outcome = serializers.ChoiceField(
        choices=["won", "playing", "unplayed"],
        help_text="won: counted, with the winner; unplayed: not counted.",
    )
    winner = serializers.CharField(allow_null=True)
    score = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="first's, second's"
    )


class DivisionSerializer(serializers.Serializer):
    level = serializers.IntegerField(help_text="1 is the top.")
    standings = StandingSerializer(many=True)
    results = ResultSerializer(many=True)


class SignedUpSerializer(serializers.Serializer):
    player = serializers.CharField()
    timeouts = TimeoutsSerializer(
        help_text="The player's matches lost on time of those finished lately."
    )


class LeagueDetailSerializer(LeagueSerializer):
    divisions = DivisionSerializer(many=True, help_text="The current season's.")
    signed_up = serializers.ListField(
        child=serializers.CharField(), help_text="The next season's players."
    )
    signed_up_timeouts = SignedUpSerializer(
        many=True,
        help_text="The next season's players as in signed_up, each with their record of "
        "timeouts (above_limit marks a dropper).",
    )
    seasons = SeasonSerializer(
        many=True,
        help_text="Every season that has started, first first; each one's tables are at "
        "/api/leagues/{id}/seasons/{number}/.",
    )


class SeasonDetailSerializer(SeasonSerializer):
    divisions = DivisionSerializer(many=True)


def league_data(league: League, *, detail: bool = False) -> dict[str, Any]:
    current, upcoming = league_tables.league_seasons(league)
    data = {
        field: getattr(league, field)
        for field in LeagueSerializer().fields.keys()  # noqa: SIM118 (the stubs iterate fields)
        if field not in ("created_by", "current_season", "next_season")
    }
    data["created_by"] = league.created_by.get_username()
    data["current_season"] = current
    data["next_season"] = upcoming
    if not detail:
        return LeagueSerializer(data).data
    data["divisions"] = _divisions(current) if current is not None else []
    data["seasons"] = league_tables.seasons_played(league)
    signed_up = selectors.entries_with_timeouts(
        league_tables.season_players(upcoming) if upcoming is not None else []
    )
    data["signed_up"] = [entry.player.get_username() for entry, _timeouts in signed_up]
    data["signed_up_timeouts"] = [
        {"player": entry.player.get_username(), "timeouts": timeouts_values(timeouts)}
        for entry, timeouts in signed_up
    ]
    return LeagueDetailSerializer(data).data


def _divisions(season: LeagueSeason) -> list[dict[str, Any]]:
    return [
        {
            "level": table.division.level,
            "standings": [_standing(line) for line in table.standings],
            "results": [_result(pairing, season.finished_at) for pairing in table.pairings],
        }
        for table in league_tables.season_tables(season)
    ]


def _standing(line: league_tables.Standing) -> dict[str, Any]:
    return {
        "position": line.position,
        "player": line.entry.player.get_username(),
        "played": line.played,
        "won": line.won,
        "lost": line.lost,
        "points_won": line.points_won,
        "points_lost": line.points_lost,
        "points_difference": line.points_difference,
        "move": line.entry.move,
    }


def _result(pairing: LeagueMatch, closed_at: Any) -> dict[str, Any]:
    result = league_tables.counted_result(pairing, closed_at)
    names = {
        pairing.first_id: pairing.first.player.get_username(),
        pairing.second_id: pairing.second.player.get_username(),
    }
    data: dict[str, Any] = {
        "match": pairing.match_id,
        "first": names[pairing.first_id],
        "second": names[pairing.second_id],
        "outcome": "won",
        "winner": None,
        "score": None,
    }
    if result is None:
        active = pairing.match.status == Match.Status.ACTIVE
        data["outcome"] = "playing" if active else "unplayed"
    else:
        data["winner"] = names[result.winner_id]
        data["score"] = [result.points[pairing.first_id], result.points[pairing.second_id]]
    return data


def _detail(league_id: int) -> dict[str, Any]:
    league = League.objects.select_related("created_by").filter(pk=league_id).first()
    if league is None:
        raise NotFound(f"There is no league {league_id}.")
    return league_data(league, detail=True)


class LeagueListCreate(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = Pagination

    @extend_schema(
        summary="Leagues, newest first",
        parameters=[OpenApiParameter("page", int), OpenApiParameter("page_size", int)],
        responses={200: LeagueSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        page = paginator.paginate_queryset(league_tables.leagues_listed(), request, view=self)
        return paginator.get_paginated_response([league_data(league) for league in page or []])

    @extend_schema(
        summary="Create a league (moderators; any player where the site allows it)",
        parameters=[IDEMPOTENCY_KEY],
        request=LeagueRequestSerializer,
        responses={201: LeagueDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest) -> Answer:
        body = LeagueRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        league = services.league_create(creator=request.user, **body.validated_data)
        return Answer(lambda: Response(_detail(league.pk), status=status.HTTP_201_CREATED))


class LeagueDetail(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A league, its current season's divisions with standings and results, and "
        "who is signed up for the next",
        responses={200: LeagueDetailSerializer, **ERRORS},
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(_detail(league_id))


class LeagueSeasonDetail(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A season that has started, running or finished: its divisions with "
        "standings, results, and (once finished) each player's move up, down or staying",
        responses={200: SeasonDetailSerializer, **ERRORS},
    )
    def get(self, request: Request, league_id: int, number: int) -> Response:
        league = League.objects.filter(pk=league_id).first()
        if league is None:
            raise NotFound(f"There is no league {league_id}.")
        season = league_tables.season_played(league, number)
        if season is None:
            raise NotFound(f"Season {number} of {league.name} has not started.")
        fields = SeasonSerializer().fields.keys()  # noqa: SIM118 (the stubs iterate fields)
        data = {field: getattr(season, field) for field in fields}
        data["divisions"] = _divisions(season)
        return Response(SeasonDetailSerializer(data).data)


class LeagueSignUp(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Sign up for a league's next season",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: LeagueDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, league_id: int) -> Answer:
        services.league_sign_up(league_id=league_id, player=request.user)
        return Answer(lambda: Response(_detail(league_id)))


class LeagueWithdraw(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Withdraw from a league's next season before it starts",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: LeagueDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, league_id: int) -> Answer:
        services.league_withdraw(league_id=league_id, player=request.user)
        return Answer(lambda: Response(_detail(league_id)))
