"""The league pages: the list, one league with its current season's division tables (the
standings and the results grid) and links to its other seasons, each season's own page (a
finished one's final tables, places, promotions and relegations), sign-up and withdrawal for
the next season, and the form that creates a league."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.variants import DEFAULT_VARIANT
from games import selectors, services
from games.clocks.words import time_control_words
from games.models import League, Variant
from games.models.leagues import MAX_DIVISION_SIZE, MIN_DIVISION_SIZE
from games.services import league_tables
from games.services.challenges import MAX_MATCH_LENGTH
from games.views.directors import director_context
from games.views.signed_in import SignedInRequest


class LeagueForm(forms.Form):
    """A league's terms. Correspondence only here; the API takes a live clock too."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    variant = forms.ChoiceField(
        choices=Variant.choices, initial=DEFAULT_VARIANT, label=gettext_lazy("Variant")
    )
    match_length = forms.IntegerField(
        min_value=1,
        max_value=MAX_MATCH_LENGTH,
        initial=5,
        label=gettext_lazy("Matches to (points)"),
    )
    days_per_move = forms.FloatField(
        initial=1,
        label=gettext_lazy("Days a move"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "0.04", "max": "30"}),
    )
    reserve_days = forms.FloatField(
        initial=8,
        label=gettext_lazy("Reserve days"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "0", "max": "60"}),
    )
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Rated"))
    season_days = forms.IntegerField(
        min_value=1, max_value=365, initial=28, label=gettext_lazy("Season (days)")
    )
    division_size = forms.IntegerField(
        min_value=MIN_DIVISION_SIZE,
        max_value=MAX_DIVISION_SIZE,
        initial=8,
        label=gettext_lazy("Players in a division"),
        help_text=format_lazy(
            gettext_lazy("{least} to {most}: every pair plays once a season."),
            least=MIN_DIVISION_SIZE,
            most=MAX_DIVISION_SIZE,
        ),
    )
    promoted = forms.IntegerField(
        min_value=0,
        max_value=3,
        initial=2,
        label=gettext_lazy("Promoted and relegated per division"),
    )
    starts_at = forms.DateTimeField(
        label=gettext_lazy("First season starts (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def terms(self) -> dict[str, Any]:
        values = dict(self.cleaned_data)
        values["time_control"] = {
            "kind": "correspondence",
            "days_per_move": values.pop("days_per_move"),
            "reserve_days": values.pop("reserve_days"),
        }
        return values


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    rows = []
    for league in league_tables.leagues_listed()[:200]:
        current, upcoming = league_tables.league_seasons(league)
        rows.append(
            {"league": league, "terms": terms_of(league), "current": current, "next": upcoming}
        )
    return render(
        request,
        "games/leagues.html",
        {"rows": rows, "can_create": services.can_create_tournament(request.user)},
    )


@login_required
def league_new(request: SignedInRequest) -> HttpResponse:
    if not services.can_create_tournament(request.user):
        messages.error(request, _("Only moderators can create leagues."))
        return redirect("leagues")
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.league_create(creator=request.user, **form.terms())
        except ApplicationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(name)s is open for sign-up.") % {"name": league.name})
            return redirect("league", league_id=league.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/league_new.html", {"form": form}, status=status)


@require_GET
def league_page(request: HttpRequest, league_id: int) -> HttpResponse:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise Http404("No such league.")
    current, upcoming = league_tables.league_seasons(league)
    signed_up = league_tables.season_players(upcoming) if upcoming is not None else []
    viewer = request.user if request.user.is_authenticated else None
    return render(
        request,
        "games/league.html",
        {
            "league": league,
            "terms": terms_of(league),
            "current": current,
            "tables": league_tables.season_tables(current) if current is not None else [],
            "upcoming": upcoming,
            "signed_up": selectors.entries_with_timeouts(signed_up),
            "entered": viewer is not None and any(e.player_id == viewer.pk for e in signed_up),
            "seasons": league_tables.seasons_played(league),
            **director_context(request.user, league),
        },
    )


@require_GET
def league_season_page(request: HttpRequest, league_id: int, number: int) -> HttpResponse:
    league = League.objects.filter(pk=league_id).first()
    season = league_tables.season_played(league, number) if league is not None else None
    if league is None or season is None:
        raise Http404("No such season.")
    return render(
        request,
        "games/league_season.html",
        {
            "league": league,
            "terms": terms_of(league),
            "current": season,
            "tables": league_tables.season_tables(season),
            "seasons": league_tables.seasons_played(league),
        },
    )


@require_POST
@login_required
def league_sign_up(request: SignedInRequest, league_id: int) -> HttpResponse:
    try:
        entry = services.league_sign_up(league_id=league_id, player=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You are signed up for season %(number)d.") % {"number": entry.season.number},
        )
    return redirect("league", league_id=league_id)


@require_POST
@login_required
def league_withdraw(request: SignedInRequest, league_id: int) -> HttpResponse:
    try:
        entry = services.league_withdraw(league_id=league_id, player=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("You have withdrawn from season %(number)d.") % {"number": entry.season.number},
        )
    return redirect("league", league_id=league_id)


def terms_of(league: League) -> str:
    """``Backgammon, 5-point matches, rated, 1 day a move + 8 days reserve; 28-day seasons,
    divisions of 8, 2 up and 2 down``."""
    values = {
        "variant": Variant(league.variant).label,
        "length": league.match_length,
        "clock": time_control_words(league.time_control),
        "days": league.season_days,
        "size": league.division_size,
        "promoted": league.promoted,
    }
    if league.rated:
        return (
            _(
                "%(variant)s, %(length)d-point matches, rated, %(clock)s; %(days)d-day seasons, "
                "divisions of up to %(size)d, %(promoted)d up and %(promoted)d down"
            )
            % values
        )
    return (
        _(
            "%(variant)s, %(length)d-point matches, unrated, %(clock)s; %(days)d-day seasons, "
            "divisions of up to %(size)d, %(promoted)d up and %(promoted)d down"
        )
        % values
    )
