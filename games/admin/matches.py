"""Matches and their logs, as moderators read them: who plays, the time control and clocks in
words, the board as the match page draws it, and the log with its digests shortened."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from accounts.names import player_name
from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games import selectors
from games.admin.moderation import MatchModeration
from games.clocks.words import clock_faces, duration_words, time_control_words
from games.engine import state_from_snapshot
from games.models import Match, MatchEvent
from games.views.board import draw_board
from games.views.cube import Cube

#: How much of a digest a row shows; the whole is in its title (hover) and on the event's page.
DIGEST_SHOWN = 12


def short_digest(digest: str) -> SafeString:
    """The first hex digits of a digest, the whole of it in the title."""
    if not digest:
        return format_html("{}", "-")
    return format_html('<code title="{}">{}…</code>', digest, digest[:DIGEST_SHOWN])


class TimeControlKindFilter(admin.SimpleListFilter):
    title = "time control"
    parameter_name = "time_control"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("correspondence", "Correspondence"), ("live", "Live")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() in ("correspondence", "live"):
            return queryset.filter(time_control__kind=self.value())
        return queryset


class MatchEventInline(admin.TabularInline):
    """The match's log, in order, with who did what."""

    model = MatchEvent
    fields = ("seq", "kind", "actor", "payload_text", "created_at", "digest_start")
    readonly_fields = fields
    ordering = ("seq",)
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> QuerySet[MatchEvent]:
        return super().get_queryset(request).select_related("actor")

    @admin.display(description="payload")
    def payload_text(self, event: MatchEvent) -> SafeString:
        pairs = ((key, value) for key, value in (event.payload or {}).items())
        return format_html(
            '<span class="event-payload">{}</span>',
            format_html_join(", ", "{}: <code>{}</code>", pairs),
        )

    @admin.display(description="digest")
    def digest_start(self, event: MatchEvent) -> SafeString:
        return short_digest(event.digest)


@admin.register(Match)
class MatchAdmin(MatchModeration, ReadOnlyAdmin):
    list_display = (
        "id",
        "first_player",
        "second_player",
        "match_length",
        "rated",
        "time_control_kind",
        "status",
        "winner",
        "seq",
        "deadline",
        "updated_at",
    )
    list_filter = ("status", "rated", TimeControlKindFilter)
    search_fields = ("first_player__username", "second_player__username")
    list_select_related = ("first_player", "second_player", "winner")
    change_form_template = "admin/games/match/change_form.html"
    # Named, so that whatever else the match row keeps (the dice's secret seed) stays out.
    fieldsets = (
        (
            None,
            {
                "fields": (
                    ("first_player", "second_player"),
                    ("match_length", "rated", "time_control_text"),
                    ("status", "winner", "to_act"),
                    "end_reason",
                )
            },
        ),
        ("Time", {"fields": (("deadline", "warn_at"), "clocks_text", "paused_text")}),
        ("Board", {"fields": ("board",)}),
        (
            "Log",
            {"fields": ("seq", "head_digest_start", ("created_at", "updated_at", "finished_at"))},
        ),
    )
    readonly_fields = (
        "first_player",
        "second_player",
        "match_length",
        "rated",
        "time_control_text",
        "status",
        "winner",
        "to_act",
        "end_reason",
        "deadline",
        "warn_at",
        "clocks_text",
        "paused_text",
        "board",
        "seq",
        "head_digest_start",
        "created_at",
        "updated_at",
        "finished_at",
    )
    inlines = [MatchEventInline]

    class Media:
        css = {"all": ("games/board.css", "games/admin.css")}

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        """The match page, with the abort and award buttons for moderators while it is on."""
        match = self.get_object(request, object_id)
        moderatable = (
            match is not None
            and match.status == Match.Status.ACTIVE
            and self.has_moderate_permission(request)
        )
        context = {**(extra_context or {}), "moderatable": moderatable}
        return super().change_view(request, object_id, form_url, extra_context=context)

    @admin.display(description="time control", ordering="time_control__kind")
    def time_control_kind(self, match: Match) -> str:
        return str(match.time_control.get("kind", ""))

    @admin.display(description="time control")
    def time_control_text(self, match: Match) -> str:
        """``3 days a move + 10 days reserve``, ``Live: 5 minutes + 2 seconds a move``."""
        return time_control_words(match.time_control)

    @admin.display(description="clocks")
    def clocks_text(self, match: Match) -> str:
        """Each player's time in words: the one to decide counts down to the deadline."""
        names = (player_name(match.first_player), player_name(match.second_player))
        faces = clock_faces(
            selectors.match_clocks(match, names),
            players=names,
            to_act=None if match.to_act is None else player_name(match.to_act),
            deadline=match.deadline,
            now=timezone.now(),
        )
        return "; ".join(_clock_words(face) for face in faces)

    @admin.display(description="time left when paused (vacation)")
    def paused_text(self, match: Match) -> str:
        if match.paused_time_left is None:
            return "-"
        return duration_words(match.paused_time_left, live=False)

    @admin.display(description="head digest")
    def head_digest_start(self, match: Match) -> SafeString:
        return short_digest(match.head_digest)

    @admin.display(description="how it ended")
    def end_reason(self, match: Match) -> str:
        return state_from_snapshot(match.state).end_reason or "-"

    @admin.display(description="board")
    def board(self, match: Match) -> SafeString:
        """The board as the match page shows it to a watcher, from the first player's side."""
        state = state_from_snapshot(match.state)
        drawn = draw_board(
            state.board_for(0),
            side=0,
            names=(player_name(match.first_player), player_name(match.second_player)),
            usernames=(match.first_player.get_username(), match.second_player.get_username()),
            dice=state.dice,
            dice_owner=state.turn,
            cube=Cube.of(state),
        )
        svg = render_to_string("games/board.svg.html", {"board": drawn})
        return format_html('<div class="admin-board">{}</div>', mark_safe(svg))


def _clock_words(face: dict[str, Any]) -> str:
    """``alice: 7 days 23 hours left to decide (reserve 10 days)``, ``bob: reserve 10 days``."""
    if face["running"]:
        reserve = f" ({face['reserve']})" if face["reserve"] else ""
        return f"{face['player']}: {face['text']} left to decide{reserve}"
    if face["paused"]:
        return f"{face['player']}: on vacation, {face['text']} left"
    if face["live"]:
        return f"{face['player']}: {face['text']} left"
    return f"{face['player']}: {face['text']}"


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "actor", "created_at")
    list_filter = ("kind",)
    search_fields = ("=match__id", "actor__username")
    list_select_related = ("match__first_player", "match__second_player", "actor")
    fields = ("match", "seq", "kind", "actor", "payload", "created_at", "digest")
