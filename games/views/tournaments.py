"""The tournament pages: the list, one tournament with its bracket, sign-up and withdrawal, and
the form that creates one."""

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
from games.models import BracketMatch, Tournament, Variant
from games.models.tournaments import MAX_SIZE, MIN_SIZE
from games.services.challenges import MAX_MATCH_LENGTH
from games.services.tournament_tables import round_robin_table, swiss_standings
from games.views.bracket import bracket_drawing, pairings_listed, round_name
from games.views.directors import director_context
from games.views.signed_in import SignedInRequest


def format_names() -> dict[str, str]:
    return {
        Tournament.Format.KNOCKOUT: _("Knock-out"),
        Tournament.Format.DOUBLE_ELIMINATION: _("Double elimination"),
        Tournament.Format.SWISS: _("Swiss"),
        Tournament.Format.ROUND_ROBIN: _("Round robin"),
    }


class TournamentForm(forms.Form):
    """A tournament's terms. Correspondence only here; the API takes a live clock too."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"))
    format = forms.ChoiceField(
        choices=lambda: list(format_names().items()),
        initial=Tournament.Format.KNOCKOUT,
        required=False,
        label=gettext_lazy("Format"),
        help_text=gettext_lazy(
            "A Swiss pairs players of equal wins each round, never twice; a round robin plays "
            "everyone once; a double elimination sends a player out at the second loss."
        ),
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_SIZE - 1,
        label=gettext_lazy("Swiss rounds (optional)"),
        help_text=gettext_lazy(
            "Left empty, as many as the players need: 3 for 8 players, 4 for 16."
        ),
    )
    variant = forms.ChoiceField(
        choices=Variant.choices,
        initial=DEFAULT_VARIANT,
        required=False,
        label=gettext_lazy("Variant"),
        help_text=gettext_lazy("Seeds and rating limits go by the players' ratings in it."),
    )
    size = forms.IntegerField(
        min_value=MIN_SIZE,
        max_value=MAX_SIZE,
        initial=8,
        label=gettext_lazy("Players"),
        help_text=format_lazy(
            gettext_lazy(
                "{least} to {most}. A field that is not a power of two gives the top seeds byes."
            ),
            least=MIN_SIZE,
            most=MAX_SIZE,
        ),
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
    min_rating = forms.IntegerField(required=False, label=gettext_lazy("Lowest rating (optional)"))
    max_rating = forms.IntegerField(required=False, label=gettext_lazy("Highest rating (optional)"))
    start_mode = forms.ChoiceField(
        choices=Tournament.StartMode.choices,
        initial=Tournament.StartMode.WHEN_FULL,
        widget=forms.RadioSelect,
        label=gettext_lazy("Starts"),
    )
    starts_at = forms.DateTimeField(
        required=False,
        label=gettext_lazy("Start time (UTC)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=gettext_lazy("For a tournament that starts at a set time."),
    )

    def terms(self) -> dict[str, Any]:
        values = self.cleaned_data
        starts_at = values["starts_at"] if values["start_mode"] == "at_time" else None
        return {
            "name": values["name"],
            "format": values["format"] or Tournament.Format.KNOCKOUT,
            "rounds": values["rounds"],
            "variant": values["variant"] or DEFAULT_VARIANT,
            "size": values["size"],
            "match_length": values["match_length"],
            "time_control": {
                "kind": "correspondence",
                "days_per_move": values["days_per_move"],
                "reserve_days": values["reserve_days"],
            },
            "rated": values["rated"],
            "min_rating": values["min_rating"],
            "max_rating": values["max_rating"],
            "start_mode": values["start_mode"],
            "starts_at": starts_at,
        }


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    rows = [_row(tournament) for tournament in selectors.tournaments_listed()[:200]]
    return render(
        request,
        "games/tournaments.html",
        {"rows": rows, "can_create": services.can_create_tournament(request.user)},
    )


@login_required
def tournament_new(request: SignedInRequest) -> HttpResponse:
    if not services.can_create_tournament(request.user):
        messages.error(request, _("Only moderators can create tournaments."))
        return redirect("tournaments")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(creator=request.user, **form.terms())
        except ApplicationError as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("%(name)s is open for sign-up.") % {"name": tournament.name}
            )
            return redirect("tournament", tournament_id=tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "games/tournament_new.html", {"form": form}, status=status)


@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = selectors.tournament_with_players(tournament_id)
    if tournament is None:
        raise Http404("No such tournament.")
    entrants = selectors.tournament_entrants(tournament)
    shown_as_bracket = tournament.format in BRACKETS
    rounds = selectors.bracket_rounds(tournament) if shown_as_bracket else []
    viewer = request.user if request.user.is_authenticated else None
    entered = viewer is not None and any(entry.player_id == viewer.pk for entry in entrants)
    double = tournament.format == Tournament.Format.DOUBLE_ELIMINATION
    drawing = bracket_drawing(rounds, winners=double) if shown_as_bracket else None
    # A push or the poll (games/static/games/live-part.js) fetches the live part alone.
    template = "games/tournament_live.html" if request.GET.get("part") == "bracket" else None
    return render(
        request,
        template or "games/tournament.html",
        {
            "tournament": tournament,
            "live": tournament.status in (Tournament.Status.SIGNING_UP, Tournament.Status.RUNNING),
            "can_cancel": services.can_cancel_tournament(request.user),
            **director_context(request.user, tournament),
            "terms": _terms(tournament),
            "entrants": selectors.entries_with_timeouts(entrants),
            "entered": entered,
            "signing_up": tournament.status == Tournament.Status.SIGNING_UP,
            "format_name": format_names()[tournament.format],
            **_format_context(tournament),
            "drawing": drawing,
            "rounds": [
                {"name": round_name(number, len(rounds), winners=double), "pairings": pairings}
                for number, pairings in enumerate(_pairings_in_words(drawing), start=1)
            ]
            if drawing
            else [],
        },
    )


@require_POST
@login_required
def tournament_sign_up(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    try:
        services.tournament_sign_up(tournament_id=tournament_id, player=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You are signed up."))
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def tournament_withdraw(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    try:
        services.tournament_withdraw(tournament_id=tournament_id, player=request.user)
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You have withdrawn."))
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def tournament_cancel(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    try:
        tournament = services.tournament_cancel(
            tournament_id=tournament_id,
            moderator=request.user,
            reason=request.POST.get("reason", ""),
        )
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s is cancelled.") % {"name": tournament.name})
    return redirect("tournament", tournament_id=tournament_id)


BRACKETS = (Tournament.Format.KNOCKOUT, Tournament.Format.DOUBLE_ELIMINATION)


def _format_context(tournament: Tournament) -> dict[str, Any]:
    """What the page shows of a format beyond the knock-out's bracket: a double elimination's
    losers' bracket and grand final, a Swiss's rounds and standings, a round robin's cross
    table."""
    if tournament.status in (Tournament.Status.SIGNING_UP, Tournament.Status.CANCELLED):
        return {}
    if tournament.format == Tournament.Format.DOUBLE_ELIMINATION:
        final_names = {1: _("Grand final"), 2: _("Reset")}
        return {
            "losers_rounds": pairings_listed(
                selectors.bracket_rounds(tournament, BracketMatch.Part.LOSERS),
                lambda number: _("Losers' round %(number)s") % {"number": number},
            ),
            "final_rounds": pairings_listed(
                selectors.bracket_rounds(tournament, BracketMatch.Part.FINAL),
                lambda number: final_names[number],
            ),
        }
    if tournament.format == Tournament.Format.SWISS:
        return {
            "swiss_rounds": pairings_listed(
                selectors.bracket_rounds(tournament),
                lambda number: (
                    _("Round %(number)s of %(rounds)s")
                    % {"number": number, "rounds": tournament.rounds}
                ),
            ),
            "swiss_table": swiss_standings(tournament),
        }
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return {"cross_table": round_robin_table(tournament)}
    return {}


def _row(tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "terms": _terms(tournament),
        "format_name": format_names()[tournament.format],
    }


def _terms(tournament: Tournament) -> str:
    """``5-point matches, rated, 1 day a move + 8 days reserve, ratings 1400 to 1800``."""
    words = [
        _("%(variant)s, %(length)d-point matches")
        % {"variant": Variant(tournament.variant).label, "length": tournament.match_length},
        _("rated") if tournament.rated else _("unrated"),
        time_control_words(tournament.time_control),
    ]
    low, high = tournament.min_rating, tournament.max_rating
    if low is not None and high is not None:
        words.append(_("ratings %(low)d to %(high)d") % {"low": low, "high": high})
    elif low is not None:
        words.append(_("ratings from %(low)d") % {"low": low})
    elif high is not None:
        words.append(_("ratings up to %(high)d") % {"high": high})
    return ", ".join(words)


def _pairings_in_words(drawing: Any) -> list[list[Any]]:
    """The placed pairings grouped by round, for the bracket's text alternative."""
    grouped: list[list[Any]] = []
    for pairing in drawing.pairings:
        while len(grouped) < pairing.round:
            grouped.append([])
        grouped[pairing.round - 1].append(pairing)
    return grouped
