"""The moderators' queue of fair-play cases: open cases first, each with its evidence read-only
(the matches, each one's error rate against the expected, and every decision the analysis
weighed, linked to its step of the replay). A moderator sets the status and a note, which
games.services records with an audit record; nothing else is changed here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Case, IntegerField, Value, When
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from backgammon_site.core.errors import ApplicationError
from games import services
from games.models import FairPlayCase, FairPlayMatch
from games.services.fair_play_statistic import SLACK


@admin.register(FairPlayCase)
class FairPlayCaseAdmin(admin.ModelAdmin):
    """Staff of the Moderators group (games.view_fairplaycase and change_fairplaycase) only."""

    list_display = ("id", "player", "status", "opened_at", "statistic_shown", "matches_count")
    list_filter = ("status",)
    search_fields = ("player__username",)
    list_select_related = ("player",)
    fields = (
        "player_link",
        ("opened_at", "statistic_shown"),
        "status",
        "note",
        ("decided_by", "decided_at"),
        "evidence",
    )
    readonly_fields = (
        "player_link",
        "opened_at",
        "statistic_shown",
        "decided_by",
        "decided_at",
        "evidence",
    )

    def get_ordering(self, request: HttpRequest) -> list[Any]:
        open_first = Case(
            When(status=FairPlayCase.Status.OPEN, then=Value(0)),
            default=Value(1),
            output_field=IntegerField(),
        )
        return [open_first.asc(), "-opened_at", "-pk"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return services.may_judge_fair_play(request.user)

    def save_model(self, request: HttpRequest, obj: FairPlayCase, form: Any, change: bool) -> None:
        try:
            services.fair_play_case_decide(
                case_id=obj.pk,
                moderator=request.user,
                status=form.cleaned_data["status"],
                note=form.cleaned_data["note"],
            )
        except ApplicationError as error:
            self.message_user(request, error.message, messages.ERROR)

    @admin.display(description="statistic")
    def statistic_shown(self, case: FairPlayCase) -> str:
        return f"{case.statistic:.2f} (threshold {case.threshold:g}, slack {SLACK:g})"

    @admin.display(description="matches")
    def matches_count(self, case: FairPlayCase) -> int:
        return case.matches.count()

    @admin.display(description="player")
    def player_link(self, case: FairPlayCase) -> str:
        url = reverse("admin:auth_user_change", args=[case.player_id])
        return format_html('<a href="{}">{}</a>', url, case.player.get_username())

    @admin.display(description="evidence")
    def evidence(self, case: FairPlayCase) -> str:
        """Each match of the case: its error rate against the expected, the CUSUM after it,
        and the player's decisions, the costliest first."""
        matches = case.matches.select_related("match").order_by("analysed_at", "pk")
        return format_html_join("", "{}", ((_match_evidence(row),) for row in matches))


def _match_evidence(row: FairPlayMatch) -> str:
    replay = reverse("match-replay", args=[row.match_id])
    decisions = sorted(row.decisions_made, key=lambda made: -made["equity_lost"])
    lines = format_html_join(
        "",
        '<tr><td><a href="{}?step={}">{}</a></td><td>{}</td><td><code>{}</code></td>'
        "<td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (
                replay,
                made["seq"],
                made["seq"],
                made["kind"],
                made.get("position_id") or "-",
                made["chosen"],
                made["best"],
                f"{made['equity_lost']:.3f}",
            )
            for made in decisions
        ),
    )
    return format_html(
        '<section class="fair-play-match"><h3><a href="{}">Match {}</a> '
        '(<a href="{}">replay</a>), rating {}</h3>'
        "<p>{} decisions, {} errors: error rate {}, expected {}; z {}, "
        "statistic after it {}</p>"
        "<table><thead><tr><th>step</th><th>kind</th><th>Position ID</th><th>chosen</th>"
        "<th>best</th><th>equity lost</th></tr></thead><tbody>{}</tbody></table></section>",
        reverse("admin:games_match_change", args=[row.match_id]),
        row.match_id,
        replay,
        f"{row.rating:.0f}",
        row.decisions,
        row.errors,
        f"{row.error_rate:.3f}",
        f"{row.expected_rate:.3f}",
        f"{row.z:.2f}",
        f"{row.statistic:.2f}",
        lines,
    )
