"""What a moderator does to a match from the admin: abort it (no winner) or award it to one
of its players, always after a page that asks for the reason and a confirmation. Both are
offered twice: as buttons on the match's own page and as actions of the match list; both
call games.services with the moderator as the actor."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from accounts.names import player_name
from backgammon_site.core.errors import ApplicationError
from games import services
from games.models import Match


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
            (seat, _player_label(player)) for seat, player in enumerate(match.players)
        ]
        self.order_fields(["winner", "reason"])


def _player_label(player: Any) -> str:
    """A player as a moderator knows them: the name shown, and the username when it differs."""
    shown, username = player_name(player), player.get_username()
    return username if shown == username else f"{shown} ({username})"


def moderation_page(
    model_admin: admin.ModelAdmin,
    request: HttpRequest,
    chosen: list[Any],
    form: forms.Form,
    *,
    title: str,
    template: str,
    action: str | None,
) -> TemplateResponse:
    """The page that asks for the reason (and what else the moderation needs) before anything
    is done, about the ``chosen`` rows; from a list (``action`` names the list action) or from
    one row's page."""
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title,
        "opts": model_admin.model._meta,
        "chosen_rows": chosen,
        "form": form,
        "action": action,
        "action_checkbox_name": ACTION_CHECKBOX_NAME,
        "media": model_admin.media + form.media,
    }
    return TemplateResponse(request, template, context)


#: Each moderation: its title, its confirmation template, and what "done" says.
ABORT = ("abort", "Abort match {}", "admin/games/match/abort_matches.html")
AWARD = ("award", "Award match {}", "admin/games/match/award_match.html")


class MatchModeration(admin.ModelAdmin):
    """The abort and award of MatchAdmin: list actions and the match page's buttons."""

    actions = ["abort_matches", "award_match"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.moderate_match")

    def get_urls(self) -> list[URLPattern]:
        info = self.model._meta.app_label, self.model._meta.model_name
        view = self.admin_site.admin_view
        return [
            path(
                "<int:match_id>/abort/",
                view(self.abort_view),
                name="{}_{}_abort".format(*info),
            ),
            path(
                "<int:match_id>/award/",
                view(self.award_view),
                name="{}_{}_award".format(*info),
            ),
            *super().get_urls(),
        ]

    # --- The match page's buttons ---

    def abort_view(self, request: HttpRequest, match_id: int) -> HttpResponse:
        """GET: the confirmation page, asking for a reason; POST: abort the match."""
        match = self._moderated_match(request, match_id)
        form = ReasonForm(request.POST if request.method == "POST" else None)
        if form.is_valid():
            self._moderate(request, match, "aborted", self._abort(request, form))
            return HttpResponseRedirect(self._change_url(match))
        return self._confirmation(request, [match], form, ABORT, action=None)

    def award_view(self, request: HttpRequest, match_id: int) -> HttpResponse:
        """GET: the confirmation page, asking for the winner and a reason; POST: award it."""
        match = self._moderated_match(request, match_id)
        form = AwardForm(request.POST if request.method == "POST" else None, match=match)
        if form.is_valid():
            winner = match.players[form.cleaned_data["winner"]]
            self._moderate(request, match, *self._award(request, form, winner))
            return HttpResponseRedirect(self._change_url(match))
        return self._confirmation(request, [match], form, AWARD, action=None)

    def _moderated_match(self, request: HttpRequest, match_id: int) -> Match:
        if not self.has_moderate_permission(request):
            raise PermissionDenied
        match = Match.objects.select_related("first_player", "second_player").filter(pk=match_id)
        found = match.first()
        if found is None:
            raise Http404("No such match.")
        return found

    def _change_url(self, match: Match) -> str:
        info = self.model._meta.app_label, self.model._meta.model_name
        return reverse("admin:{}_{}_change".format(*info), args=[match.pk])

    # --- The list's actions ---

    @admin.action(description="Abort match (no winner)", permissions=["moderate"])
    def abort_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> Any:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for match in queryset:
                self._moderate(request, match, "aborted", self._abort(request, form))
            return None
        chosen = list(queryset.select_related("first_player", "second_player"))
        return self._confirmation(request, chosen, form, ABORT, action="abort_matches")

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
            self._moderate(request, match, *self._award(request, form, winner))
            return None
        return self._confirmation(request, matches, form, AWARD, action="award_match")

    # --- Both ---

    def _abort(self, request: HttpRequest, form: forms.Form) -> Callable[[Match], Any]:
        return lambda match: services.match_abort(
            match_id=match.pk, moderator=request.user, reason=form.cleaned_data["reason"]
        )

    def _award(
        self, request: HttpRequest, form: forms.Form, winner: Any
    ) -> tuple[str, Callable[[Match], Any]]:
        return (
            f"awarded to {winner.get_username()}",
            lambda match: services.match_award(
                match_id=match.pk,
                moderator=request.user,
                winner=winner,
                reason=form.cleaned_data["reason"],
            ),
        )

    def _moderate(
        self, request: HttpRequest, match: Match, done: str, act: Callable[[Match], Any]
    ) -> None:
        try:
            act(match)
        except ApplicationError as error:
            self.message_user(request, f"{match}: {error.message}", messages.ERROR)
        else:
            self.message_user(request, f"{match}: {done}.", messages.SUCCESS)

    def _confirmation(
        self,
        request: HttpRequest,
        matches: list[Match],
        form: forms.Form,
        moderation: tuple[str, str, str],
        *,
        action: str | None,
    ) -> TemplateResponse:
        _, title, template = moderation
        return moderation_page(
            self,
            request,
            matches,
            form,
            title=title.format(", ".join(str(match.pk) for match in matches)),
            template=template,
            action=action,
        )
