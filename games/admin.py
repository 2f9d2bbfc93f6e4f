"""Admin for matches, their logs and challenges, for moderators.

Everything is read-only here: a moderator changes a match only through the actions "Abort
match" and "Award match to...", which call games.services with the moderator as the actor, so
the match's log records who did it. No one, superusers included, can add, change or delete a
match event from the admin.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from backgammon_site.errors import ApplicationError
from backgammon_site.read_only_admin import ReadOnlyAdmin
from games import selectors, services
from games.engine import state_from_snapshot
from games.models import (
    BracketMatch,
    Challenge,
    ChatReport,
    ImportedMatch,
    League,
    LeagueEntry,
    LeagueSeason,
    Match,
    MatchEvent,
    Tournament,
    TournamentEntry,
)
from games.views.board import draw_board


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
    fields = ("seq", "kind", "actor", "payload", "created_at", "digest")
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


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Kept in the match's log, for the players and anyone watching.",
    )


class AwardForm(ReasonForm):
    winner = forms.TypedChoiceField(coerce=int, widget=forms.RadioSelect, label="Award to")

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            (0, match.first_player.get_username()),
            (1, match.second_player.get_username()),
        ]
        self.order_fields(["winner", "reason"])


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
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
    # Named, so that whatever else the match row keeps (the dice's secret seed) stays out.
    fieldsets = (
        (
            None,
            {
                "fields": (
                    ("first_player", "second_player"),
                    ("match_length", "rated", "time_control"),
                    ("status", "winner", "to_act"),
                    "end_reason",
                )
            },
        ),
        ("Time", {"fields": (("deadline", "warn_at"), ("clocks", "paused_time_left"))}),
        ("Board", {"fields": ("board",)}),
        ("Log", {"fields": ("seq", "head_digest", ("created_at", "updated_at", "finished_at"))}),
    )
    readonly_fields = (
        "first_player",
        "second_player",
        "match_length",
        "rated",
        "time_control",
        "status",
        "winner",
        "to_act",
        "end_reason",
        "deadline",
        "warn_at",
        "clocks",
        "paused_time_left",
        "board",
        "seq",
        "head_digest",
        "created_at",
        "updated_at",
        "finished_at",
    )
    inlines = [MatchEventInline]
    actions = ["abort_matches", "award_match"]

    class Media:
        css = {"all": ("games/board.css",)}

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    @admin.display(description="time control", ordering="time_control__kind")
    def time_control_kind(self, match: Match) -> str:
        return str(match.time_control.get("kind", ""))

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
            names=(match.first_player.get_username(), match.second_player.get_username()),
            dice=state.dice,
            dice_owner=state.turn,
            cube_value=state.cube_value,
            cube_owner=state.cube_owner,
        )
        svg = render_to_string("games/board.svg.html", {"board": drawn})
        return format_html('<div class="admin-board">{}</div>', mark_safe(svg))

    @admin.action(description="Abort match (no winner)", permissions=["moderate"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> Any:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for match in queryset:
                self._moderate(
                    request,
                    match,
                    "aborted",
                    lambda match: services.match_abort(
                        match_id=match.pk,
                        moderator=request.user,
                        reason=form.cleaned_data["reason"],
                    ),
                )
            return None
        return self._confirmation(
            request,
            queryset,
            form,
            action="abort_matches",
            title="Abort matches",
            template="admin/games/match/abort_matches.html",
        )

    @admin.action(description="Award match to...", permissions=["moderate"])
    def award_match(self, request: HttpRequest, queryset: QuerySet[Match]) -> Any:
        matches = list(queryset.select_related("first_player", "second_player")[:2])
        if len(matches) != 1:
            self.message_user(request, "Choose one match to award.", messages.WARNING)
            return None
        match = matches[0]
        form = AwardForm(request.POST if "apply" in request.POST else None, match=match)
        if form.is_valid():
            winner = match.players[form.cleaned_data["winner"]]
            self._moderate(
                request,
                match,
                f"awarded to {winner.get_username()}",
                lambda match: services.match_award(
                    match_id=match.pk,
                    moderator=request.user,
                    winner=winner,
                    reason=form.cleaned_data["reason"],
                ),
            )
            return None
        return self._confirmation(
            request,
            queryset,
            form,
            action="award_match",
            title=f"Award match {match.pk}",
            template="admin/games/match/award_match.html",
        )

    def _moderate(self, request: HttpRequest, match: Match, done: str, act: Any) -> None:
        try:
            act(match)
        except ApplicationError as error:
            self.message_user(request, f"{match}: {error.message}", messages.ERROR)
        else:
            self.message_user(request, f"{match}: {done}.", messages.SUCCESS)

    def _confirmation(
        self,
        request: HttpRequest,
        queryset: QuerySet[Match],
        form: forms.Form,
        *,
        action: str,
        title: str,
        template: str,
    ) -> TemplateResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "opts": self.model._meta,
            "matches": queryset.select_related("first_player", "second_player"),
            "form": form,
            "action": action,
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, template, context)


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "kind", "actor", "created_at")
    list_filter = ("kind",)
    search_fields = ("=match__id", "actor__username")
    list_select_related = ("match__first_player", "match__second_player", "actor")
    fields = ("match", "seq", "kind", "actor", "payload", "created_at", "digest")


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("id", "challenger", "opponent", "match_length", "rated", "status", "created_at")
    list_filter = ("status", "rated")
    search_fields = ("challenger__username", "opponent__username")
    list_select_related = ("challenger", "opponent")


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    fields = ("player", "seed", "rating", "withdrawn", "joined_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


class BracketMatchInline(admin.TabularInline):
    model = BracketMatch
    fields = ("round", "slot", "first", "second", "bye", "match", "winner")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Tournaments, read-only: they change through the services (the pages and the API); a
    match of one is aborted or awarded from its own admin page."""

    list_display = ("id", "name", "size", "status", "start_mode", "starts_at", "winner")
    list_filter = ("status", "start_mode")
    search_fields = ("name",)
    list_select_related = ("winner",)
    inlines = [TournamentEntryInline, BracketMatchInline]


class LeagueSeasonInline(admin.TabularInline):
    model = LeagueSeason
    fields = ("number", "status", "starts_at", "ends_at", "finished_at")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0
    show_change_link = True


@admin.register(League)
class LeagueAdmin(ReadOnlyAdmin):
    """Leagues, read-only: they change through the services (the pages and the API); a
    league's match is aborted or awarded from its own admin page. "Advance" does at once what
    the minute sweep would."""

    list_display = ("id", "name", "variant", "season_days", "division_size", "promoted")
    search_fields = ("name",)
    inlines = [LeagueSeasonInline]
    actions = ["advance"]

    @admin.action(description="Advance the selected leagues now (close or open a due season)")
    def advance(self, request: HttpRequest, queryset: QuerySet[League]) -> None:
        changes = sum(services.league_advance(league_id=league.pk) for league in queryset)
        self.message_user(request, f"{changes} change(s) made.")


class LeagueEntryInline(admin.TabularInline):
    model = LeagueEntry
    fields = ("player", "division", "rating", "withdrawn", "joined_at", "position", "move")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(LeagueSeason)
class LeagueSeasonAdmin(ReadOnlyAdmin):
    """A season's players, their divisions and final places, read-only."""

    list_display = ("id", "league", "number", "status", "starts_at", "ends_at")
    list_filter = ("status",)
    list_select_related = ("league",)
    inlines = [LeagueEntryInline]


@admin.register(ImportedMatch)
class ImportedMatchAdmin(admin.ModelAdmin):
    """Matches imported from .mat files: read-only; a moderator may delete one."""

    list_display = (
        "id",
        "first_player_name",
        "second_player_name",
        "match_length",
        "uploaded_by",
        "created_at",
    )
    search_fields = ("first_player_name", "second_player_name", "uploaded_by__username")
    list_select_related = ("uploaded_by",)
    readonly_fields = (
        "uploaded_by",
        "first_player_name",
        "second_player_name",
        "match_length",
        "score",
        "mat_text",
        "events",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class HandledFilter(admin.SimpleListFilter):
    title = "handled"
    parameter_name = "handled"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("no", "Waiting"), ("yes", "Handled")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> QuerySet[Any]:
        if self.value() in ("no", "yes"):
            return queryset.filter(handled_at__isnull=self.value() == "no")
        return queryset


@admin.register(ChatReport)
class ChatReportAdmin(ReadOnlyAdmin):
    """Players' reports of chat messages. A moderator reads the conversation, hides the
    message (it stays recorded, with who hid it) and, on the author's user page, suspends the
    account. No one edits or deletes a message here."""

    list_display = ("id", "message_author", "message_text", "reporter", "created_at", "handled_at")
    list_filter = (HandledFilter,)
    search_fields = ("reporter__username", "message__author__username", "=message__match__id")
    list_select_related = ("reporter", "message__author")
    ordering = ("handled_at", "-created_at")
    fields = (
        "match_link",
        ("reporter_link", "author_link"),
        "reason",
        "message_text",
        "message_hidden",
        ("created_at", "handled_at", "handled_by"),
        "conversation",
    )
    readonly_fields = (
        "match_link",
        "reporter_link",
        "author_link",
        "reason",
        "message_text",
        "message_hidden",
        "created_at",
        "handled_at",
        "handled_by",
        "conversation",
    )
    actions = ["hide_reported_messages"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return services.is_chat_moderator(request.user)

    @admin.display(description="author")
    def message_author(self, report: ChatReport) -> str:
        return str(report.message.author.get_username())

    @admin.display(description="message")
    def message_text(self, report: ChatReport) -> str:
        return report.message.text

    @admin.display(description="hidden")
    def message_hidden(self, report: ChatReport) -> str:
        message = report.message
        if message.hidden_at is None:
            return "no"
        return f"{message.hidden_at:%Y-%m-%d %H:%M} by {message.hidden_by or '-'}"

    @admin.display(description="match")
    def match_link(self, report: ChatReport) -> str:
        match_id = report.message.match_id
        url = reverse("admin:games_match_change", args=[match_id])
        return format_html('<a href="{}">Match {}</a>', url, match_id)

    @admin.display(description="reporter")
    def reporter_link(self, report: ChatReport) -> str:
        return _user_link(report.reporter)

    @admin.display(description="author (suspend the account on their page)")
    def author_link(self, report: ChatReport) -> str:
        return _user_link(report.message.author)

    @admin.display(description="conversation")
    def conversation(self, report: ChatReport) -> str:
        """Every message of the match in order, hidden ones marked, the reported one bold."""
        rows = (
            (
                "chat-reported" if message.pk == report.message_id else "",
                message.created_at.strftime("%Y-%m-%d %H:%M"),
                message.author.get_username(),
                message.text,
                f" [hidden by {message.hidden_by or '-'}]" if message.hidden_at else "",
            )
            for message in selectors.chat_conversation(report.message.match_id)
        )
        items = format_html_join(
            "",
            '<li class="{}"><time>{}</time> <strong>{}</strong>: {}<em>{}</em></li>',
            rows,
        )
        return format_html('<ol class="chat-conversation">{}</ol>', items)

    @admin.action(description="Hide the reported message", permissions=["moderate"])
    def hide_reported_messages(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        for message_id in sorted({report.message_id for report in queryset}):
            try:
                services.chat_hide(message_id=message_id, moderator=request.user)
            except ApplicationError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self.message_user(request, f"Message {message_id} hidden.", messages.SUCCESS)


def _user_link(user: Any) -> str:
    url = reverse("admin:auth_user_change", args=[user.pk])
    return format_html('<a href="{}">{}</a>', url, user.get_username())
