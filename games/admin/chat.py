"""Players' reports of chat messages, for the moderators who handle them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.read_only_admin import ReadOnlyAdmin
from games import selectors, services
from games.models import ChatReport


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
    message (it stays recorded, with who hid it) and suspends the author's account with the
    accounts list's "Suspend" action (a reason, an audit record). No one edits or deletes a
    message here."""

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

    @admin.display(description="author (suspend the account from the accounts list)")
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
