"""The API of tournaments: list and create them (of every format), read one with its pairings
and standings, sign up and withdraw, and (moderators) cancel one. Each body's serializer here is
also its OpenAPI schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
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
from games.models import BracketMatch, Tournament, Variant
from games.models.tournaments import MAX_SIZE, MIN_SIZE
from games.services import MAX_MATCH_LENGTH
from games.services.tournament_tables import (
    round_robin_table,
    swiss_standings,
    tournament_results,
)


class TournamentRequestSerializer(serializers.Serializer):
    name = StrictCharField(max_length=100)
    variant = serializers.ChoiceField(
        choices=Variant.choices,
        default=DEFAULT_VARIANT,
        help_text="The variant its matches are played in; seeds and rating limits go by the "
        "players' ratings in it.",
    )
    size = StrictIntegerField(
        min_value=MIN_SIZE, max_value=MAX_SIZE, help_text="The most players who may sign up."
    )
    match_length = StrictIntegerField(min_value=1, max_value=MAX_MATCH_LENGTH, default=5)
    rated = serializers.BooleanField(default=True)
    time_control = TimeControlField(
        required=False, allow_null=True, help_text="As for a challenge; a default if left out."
    )
    min_rating = StrictIntegerField(required=False, allow_null=True, default=None)
    max_rating = StrictIntegerField(required=False, allow_null=True, default=None)
    start_mode = serializers.ChoiceField(choices=Tournament.StartMode.values)
    starts_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None, help_text="With start_mode at_time."
    )
    format = serializers.ChoiceField(
        choices=Tournament.Format.values, default=Tournament.Format.KNOCKOUT
    )
    rounds = StrictIntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A Swiss's rounds; left out, as many as its players need (ceil(log2 players)).",
    )


class CancelRequestSerializer(serializers.Serializer):
    reason = StrictCharField(
        max_length=500, help_text="Kept in the log of each match the cancellation aborts."
    )


class TournamentSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    rounds = serializers.IntegerField(
        allow_null=True, help_text="A Swiss's rounds (set at the start when not chosen)."
    )
    variant = serializers.ChoiceField(choices=Variant.choices)
    match_length = serializers.IntegerField()
    time_control = serializers.JSONField()
    size = serializers.IntegerField()
    players = serializers.IntegerField(help_text="How many have signed up (and not withdrawn).")
    rated = serializers.BooleanField()
    min_rating = serializers.IntegerField(allow_null=True)
    max_rating = serializers.IntegerField(allow_null=True)
    start_mode = serializers.ChoiceField(choices=Tournament.StartMode.values)
    starts_at = serializers.DateTimeField(allow_null=True)
    status = serializers.ChoiceField(choices=Tournament.Status.values)
    created_by = serializers.CharField()
    winner = serializers.CharField(allow_null=True)
    second = serializers.CharField(allow_null=True)
    cancel_reason = serializers.CharField(
        allow_blank=True, help_text="Why it was cancelled; empty unless it was."
    )
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class EntrantSerializer(serializers.Serializer):
    player = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="Given at the start; 1 is best.")
    rating = serializers.FloatField(allow_null=True, help_text="The rating the seed came from.")
    timeouts = TimeoutsSerializer(
        help_text="The player's matches lost on time of those finished lately; above_limit "
        "marks a dropper."
    )


class PairingSerializer(serializers.Serializer):
    part = serializers.ChoiceField(
        choices=BracketMatch.Part.values,
        help_text="A double elimination's winners' bracket (main), losers' bracket or grand "
        "final (round 2 the reset); every other format's pairings are main.",
    )
    round = serializers.IntegerField(help_text="1 is the first round.")
    slot = serializers.IntegerField(help_text="From the top of the round, from 0.")
    first = serializers.CharField(allow_null=True)
    second = serializers.CharField(allow_null=True, help_text="Null for a bye or not yet known.")
    bye = serializers.BooleanField()
    match = serializers.IntegerField(allow_null=True, help_text="The match, once started.")
    winner = serializers.CharField(allow_null=True)


class TournamentStandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField(help_text="Match wins; in a Swiss a bye counts as one.")
    lost = serializers.IntegerField()
    buchholz = serializers.IntegerField(
        allow_null=True, help_text="A Swiss's: the sum of the opponents' wins."
    )
    points_won = serializers.IntegerField()
    points_lost = serializers.IntegerField()


class TournamentDetailSerializer(TournamentSerializer):
    entrants = EntrantSerializer(many=True)
    bracket = PairingSerializer(many=True, help_text="Every pairing, of every format.")
    standings = TournamentStandingSerializer(
        many=True,
        help_text="A Swiss's standings or a round robin's table, best first; empty for the "
        "other formats and before the start.",
    )


def tournament_data(tournament: Any, *, detail: bool = False) -> dict[str, Any]:
    data = {
        field: getattr(tournament, field)
        for field in TournamentSerializer().fields.keys()  # noqa: SIM118 (the stubs iterate fields)
        if field not in ("created_by", "winner", "second", "players")
    }
    data["players"] = tournament.players
    for person in ("created_by", "winner", "second"):
        user = getattr(tournament, person)
        data[person] = user.get_username() if user is not None else None
    if detail:
        data["entrants"] = [
            {
                "player": entry.player.get_username(),
                "seed": entry.seed,
                "rating": entry.rating,
                "timeouts": timeouts_values(timeouts),
            }
            for entry, timeouts in selectors.entries_with_timeouts(
                selectors.tournament_entrants(tournament)
            )
        ]
        pairings = tournament_results(tournament)
        data["bracket"] = [
            {
                "part": pairing.part,
                "round": pairing.round,
                "slot": pairing.slot,
                "first": _name(pairing.first),
                "second": _name(pairing.second),
                "bye": pairing.bye,
                "match": pairing.match_id,
                "winner": _name(pairing.winner),
            }
            for pairing in pairings
        ]
        data["standings"] = _standings(tournament, pairings)
        return TournamentDetailSerializer(data).data
    return TournamentSerializer(data).data


def _standings(tournament: Any, pairings: list[Any]) -> list[dict[str, Any]]:
    if tournament.status == Tournament.Status.SIGNING_UP:
        return []
    if tournament.format == Tournament.Format.SWISS:
        lines: list[Any] = swiss_standings(tournament, pairings)
    elif tournament.format == Tournament.Format.ROUND_ROBIN:
        lines = round_robin_table(tournament, pairings).standings
    else:
        return []
    return [
        {
            "position": line.position,
            "player": line.entry.player.get_username(),
            "played": line.played,
            "won": line.won,
            "lost": line.lost,
            "buchholz": getattr(line, "buchholz", None),
            "points_won": line.points_won,
            "points_lost": line.points_lost,
        }
        for line in lines
    ]


def _name(entry: Any) -> str | None:
    return entry.player.get_username() if entry is not None else None


def _detail(tournament_id: int) -> dict[str, Any]:
    tournament = selectors.tournament_with_players(tournament_id)
    if tournament is None:
        raise NotFound(f"There is no tournament {tournament_id}.")
    return tournament_data(tournament, detail=True)


class TournamentListCreate(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = Pagination

    @extend_schema(
        summary="Tournaments: those signing up first, then running, then the rest",
        parameters=[
            OpenApiParameter("status", str, enum=Tournament.Status.values),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: TournamentSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status") or None
        if wanted is not None and wanted not in Tournament.Status.values:
            raise ValidationError({"status": [f"One of {', '.join(Tournament.Status.values)}."]})
        paginator = Pagination()
        page = paginator.paginate_queryset(selectors.tournaments_listed(wanted), request, view=self)
        return paginator.get_paginated_response(
            [tournament_data(tournament) for tournament in page or []]
        )

    @extend_schema(
        summary="Create a tournament (moderators; any player where the site allows it)",
        parameters=[IDEMPOTENCY_KEY],
        request=TournamentRequestSerializer,
        responses={201: TournamentDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest) -> Answer:
        body = TournamentRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tournament = services.tournament_create(creator=request.user, **body.validated_data)
        return Answer(lambda: Response(_detail(tournament.pk), status=status.HTTP_201_CREATED))


class TournamentDetail(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        summary="A tournament, its players and its bracket",
        responses={200: TournamentDetailSerializer, **ERRORS},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(tournament_id))


class TournamentSignUp(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Sign up for a tournament before its start",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: TournamentDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, tournament_id: int) -> Answer:
        services.tournament_sign_up(tournament_id=tournament_id, player=request.user)
        return Answer(lambda: Response(_detail(tournament_id)))


class TournamentWithdraw(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Withdraw from a tournament before its start",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: TournamentDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, tournament_id: int) -> Answer:
        services.tournament_withdraw(tournament_id=tournament_id, player=request.user)
        return Answer(lambda: Response(_detail(tournament_id)))


class TournamentCancel(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Cancel a tournament, before or after its start (moderators)",
        description="Its matches under way are aborted: no winner, unrated, the reason in "
        "their logs; finished ones stand. Cancelling a cancelled tournament changes nothing.",
        request=CancelRequestSerializer,
        parameters=[IDEMPOTENCY_KEY],
        responses={200: TournamentDetailSerializer, **ERRORS},
    )
    @idempotent
    def post(self, request: SignedInRequest, tournament_id: int) -> Answer:
        body = CancelRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.tournament_cancel(
            tournament_id=tournament_id,
            moderator=request.user,
            reason=body.validated_data["reason"],
        )
        return Answer(lambda: Response(_detail(tournament_id)))
