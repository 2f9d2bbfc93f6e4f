"""The REST API: thin views that check a request's shape and call one service or selector."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import guests
from backgammon_site.core.api_toolkit import (
    ERRORS,
    NOT_FINISHED,
    TOO_MANY,
    ErrorSerializer,
    Pagination,
)
from backgammon_site.core.errors import Conflict, Forbidden, NotFound
from games import selectors, services
from games.api.analysis_serializers import AnalysisQuerySerializer, MatchAnalysisSerializer
from games.api.idempotency import IDEMPOTENCY_KEY, Answer, idempotent
from games.api.serializers import (
    ActionRequestSerializer,
    AnswerAheadSerializer,
    ChallengeSerializer,
    DiceCheckSerializer,
    MatchEventSerializer,
    MatchStateSerializer,
    MatchSummarySerializer,
)
from games.api.signed_in import SignedInRequest
from games.computer.analysis import (
    analysis_limit_spend,
    analysis_request,
    analysis_view,
    match_subject,
    stored_analysis,
)
from games.computer.tutor import tutor_after_play
from games.dice.verification import check_dice
from games.models import Match, Viewer
from games.notifications.attention import record_match_open

User = get_user_model()


class MatchList(APIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    @extend_schema(
        summary="List matches",
        parameters=[
            OpenApiParameter("mine", bool, description="Only your matches, your turn first."),
            OpenApiParameter("status", str, enum=list(selectors.MATCH_STATUSES)),
            OpenApiParameter("player", str, description="Only matches of this username."),
            OpenApiParameter("page", int),
            OpenApiParameter("page_size", int),
        ],
        responses={200: MatchSummarySerializer(many=True), **ERRORS},
    )
    def get(self, request: Request) -> Response:
        mine = request.query_params.get("mine", "").lower() in ("1", "true", "yes")
        if mine and not request.user.is_authenticated:
            raise NotAuthenticated("Sign in to list your own matches.")
        match_status = request.query_params.get("status") or None
        if match_status is not None and match_status not in selectors.MATCH_STATUSES:
            raise ValidationError({"status": [f"One of {', '.join(selectors.MATCH_STATUSES)}."]})
        player = request.query_params.get("player") or None
        if player is not None and ("\x00" in player or len(player) > 150):
            raise ValidationError({"player": ["A username."]})
        matches = selectors.matches_for_list(
            viewer=request.user if request.user.is_authenticated else None,
            mine=mine,
            status=match_status,
            player=player,
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(matches, request, view=self)
        rows = [selectors.match_summary(match) for match in page or []]
        return paginator.get_paginated_response(MatchSummarySerializer(rows, many=True).data)


class MatchDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="A match's state, with what you may do now",
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                str,
                OpenApiParameter.HEADER,
                description="The ETag of the state you have: 304 while it is current.",
            )
        ],
        responses={
            200: MatchStateSerializer,
            304: OpenApiResponse(description="Unchanged since the ETag you sent."),
            **ERRORS,
        },
    )
    def get(self, request: Request, match_id: int) -> Response:
        viewer = request.user if request.user.is_authenticated else None
        record_match_open(request.user, match_id)
        known = _tags(request.headers.get("If-None-Match", ""))
        current = _current_etag(request, match_id) if known else None
        if current in known:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": current})
        match = match_or_not_found(request, match_id)
        data = state_data(selectors.match_view(match, viewer))
        return Response(data, headers={"ETag": _etag(match, viewer)})


class MatchActions(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Act in a match: roll, double, take, drop, move, name a double (acey-deucey), "
        "resign, or answer a resignation",
        parameters=[IDEMPOTENCY_KEY],
        request=ActionRequestSerializer,
        responses={
            200: MatchStateSerializer,
            409: OpenApiResponse(ErrorSerializer, description="Stale seq: nothing was done."),
            429: TOO_MANY,
            **ERRORS,
        },
    )
    @idempotent
    def post(self, request: SignedInRequest, match_id: int) -> Answer:
        body = ActionRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        values = body.validated_data
        message = values.get("message")
        if message is not None:
            services.chat_limit_spend(request._request, request.user)
        match = services.match_act(
            match_id=match_id,
            actor=request.user,
            expected_seq=values["seq"],
            action=values["action"],
            play=values.get("play"),
            points=values.get("points"),
            number=values.get("number"),
            message=message,
        )

        def answer() -> Response:
            if match.tutored:
                tutor_after_play(
                    match=match,
                    actor=request.user,
                    expected_seq=values["seq"],
                    action=values["action"],
                    play=values.get("play"),
                )
                match.refresh_from_db(fields=["tutor_verdict"])
            view = selectors.match_view(match, request.user)
            return Response(state_data(view), headers={"ETag": _etag(match, request.user)})

        return Answer(answer)

    def answer_again(self, request: SignedInRequest, match_id: int) -> Response:
        """The answer of an action carried out by a request that died before answering it: the
        match as the player sees it now."""
        match = match_or_not_found(request, match_id)
        view = selectors.match_view(match, request.user)
        return Response(state_data(view), headers={"ETag": _etag(match, request.user)})


class MatchRematch(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Offer your opponent a rematch of a finished match, or accept theirs",
        description="The rematch is a challenge to the opponent with the same match length, "
        "rating and time control, the seats (and colours) swapped; the opponent is notified "
        "and accepts it as any challenge (a computer opponent accepts at once). While your "
        "offer is open, asking again returns it (200) and makes no other; when the opponent "
        "has offered one, yours accepts theirs (200, with its new match); once a rematch "
        "was accepted, it is returned (200). Guests have no rematch (400).",
        request=None,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: ChallengeSerializer,
            200: ChallengeSerializer,
            409: OpenApiResponse(ErrorSerializer, description="The match is not finished."),
            **ERRORS,
        },
    )
    @idempotent
    def post(self, request: SignedInRequest, match_id: int) -> Answer:
        challenge, made = services.rematch_offer(match_id=match_id, player=request.user)
        code = status.HTTP_201_CREATED if made else status.HTTP_200_OK

        def answer() -> Response:
            challenge.refresh_from_db()
            return Response(ChallengeSerializer(challenge).data, status=code)

        return Answer(answer)


class MatchAnswerAhead(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="Your answer left ahead for the coming double, if any",
        responses={200: AnswerAheadSerializer, **ERRORS},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_not_found(request, match_id)
        seat = match.player_index(request.user)
        if seat is None:
            raise Forbidden("Only the two players have answers left ahead.")
        return Response({"seq": match.seq, "answer": services.answer_left_for(match, seat)})

    @extend_schema(
        summary="Leave your take or drop for a double the opponent may offer before rolling",
        description="While your opponent is on roll and may double, leave the answer you will "
        "give: if they double at once, it is played straight after the double, in the log as "
        "your own take or drop. Anything else they do first (a roll) forgets it. Only you see "
        "it. answer null takes it back. 400 (answer_ahead_not_now) when the opponent may not "
        "double now; 409 when seq is not the match's.",
        request=AnswerAheadSerializer,
        responses={200: AnswerAheadSerializer, **ERRORS},
    )
    def post(self, request: SignedInRequest, match_id: int) -> Response:
        match_or_not_found(request, match_id)
        data = AnswerAheadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.answer_ahead_leave(
            match_id=match_id,
            player=request.user,
            expected_seq=data.validated_data["seq"],
            answer=data.validated_data["answer"],
        )
        seat = match.player_index(request.user)
        return Response({"seq": match.seq, "answer": services.answer_left_for(match, seat)})


class MatchEvents(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The match's log, in order",
        parameters=[OpenApiParameter("after", int, description="Only events after this seq.")],
        responses={200: MatchEventSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_not_found(request, match_id)
        after = _whole_number(request.query_params.get("after", "0"), "after")
        events = match.events.filter(seq__gt=after).select_related("actor").order_by("seq")
        return Response(MatchEventSerializer(events, many=True).data)


class MatchDice(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="Verify a match's dice: every roll recomputed from the revealed seeds",
        responses={200: DiceCheckSerializer, **ERRORS},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_not_found(request, match_id)
        events = match.events.order_by("seq").values_list("seq", "kind", "payload")
        return Response(DiceCheckSerializer(check_dice(events)).data)


class MatchAnalysisView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        summary="The match's analysis: the equity each decision lost against the best choice "
        "of bgsage and, as a second opinion, of GNU Backgammon",
        parameters=[AnalysisQuerySerializer],
        responses={200: MatchAnalysisSerializer, **ERRORS, 409: NOT_FINISHED},
    )
    def get(self, request: Request, match_id: int) -> Response:
        engine = AnalysisQuerySerializer.engine_of(request.query_params)
        match = match_or_not_found(request, match_id)
        analysis = stored_analysis(match_subject(match.pk), engine)
        if analysis is None:
            if match.status != Match.Status.FINISHED:
                raise Conflict(
                    "A match is analysed once it has ended: its players may not see best plays.",
                    code="match_not_finished",
                )
            raise NotFound(f"Match {match_id} has not been analysed; POST here to ask for it.")
        return Response(MatchAnalysisSerializer(analysis).data)

    @extend_schema(
        summary="Ask for the match to be analysed (again); the analysis is done in the background",
        parameters=[AnalysisQuerySerializer],
        request=None,
        responses={202: MatchAnalysisSerializer, **ERRORS, 409: NOT_FINISHED, 429: TOO_MANY},
    )
    def post(self, request: Request, match_id: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        match = match_or_not_found(request, match_id)
        engine = AnalysisQuerySerializer.engine_of(request.query_params)
        analysis_limit_spend(request._request, request.user)
        analysis = analysis_request(match_subject(match.pk))
        analysis.refresh_from_db()
        return Response(
            MatchAnalysisSerializer(analysis_view(analysis, engine)).data,
            status=status.HTTP_202_ACCEPTED,
        )


def match_or_not_found(request: Request, match_id: int) -> Match:
    """The match as the caller may see it; 404 when there is none, or when it is a casual
    match the caller does not play in (the same answer: its id is not confirmed)."""
    readers = guests.session_player_ids(request)
    match = selectors.match_with_players(match_id, readers=readers)
    if match is None:
        raise NotFound(f"There is no match {match_id}.")
    return match


def state_data(view: selectors.MatchView) -> dict[str, Any]:
    """A match state in MatchStateSerializer's shape, through one serializer made once: DRF
    copies all of a serializer's declared fields whenever one is made."""
    data: dict[str, Any] = _MATCH_STATE.to_representation(view)
    return data


_MATCH_STATE = MatchStateSerializer()


def _etag(match: Match, viewer: Viewer) -> str:
    """The version of ``match`` that ``viewer`` sees: it changes with every event and deadline."""
    you = match.player_index(viewer)
    deadline = "x" if match.deadline is None else f"{match.deadline.timestamp():.0f}"
    return f'"m{match.pk}-s{match.seq}-p{"x" if you is None else you}-d{deadline}"'


def _current_etag(request: Request, match_id: int) -> str | None:
    """``_etag`` of the match as it is now, reading only what it needs; None for no match, or
    none the caller may see."""
    match = selectors.match_outline(match_id, readers=guests.session_player_ids(request))
    viewer = request.user if request.user.is_authenticated else None
    return None if match is None else _etag(match, viewer)


def _tags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def _whole_number(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        raise ValidationError({name: ["A whole number."]})
    return int(text)
