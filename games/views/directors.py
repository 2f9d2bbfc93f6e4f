"""The director's removal of a player from a tournament or a league, from the event's page:
each player's form posts here, and games.services decides who may and records it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.names import player_name
from backgammon_site.core.errors import ApplicationError
from games import services
from games.models import League, Tournament, Viewer
from games.views.signed_in import SignedInRequest


class RemovePlayerForm(forms.Form):
    player = forms.IntegerField(min_value=1)
    reason = forms.CharField(max_length=500, required=False)


def director_context(user: Viewer, event: Tournament | League) -> dict[str, Any]:
    """What an event's page needs for the removal forms: the players, for its director only."""
    if not services.may_direct(user, event):
        return {"removable": []}
    return {"removable": services.removable_players(event)}


@require_POST
@login_required
def tournament_remove_player(request: SignedInRequest, tournament_id: int) -> HttpResponse:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404("No such tournament.")
    _remove(request, tournament)
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def league_remove_player(request: SignedInRequest, league_id: int) -> HttpResponse:
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        raise Http404("No such league.")
    _remove(request, league)
    return redirect("league", league_id=league_id)


def _remove(request: SignedInRequest, event: Tournament | League) -> None:
    form = RemovePlayerForm(request.POST)
    player = None
    if form.is_valid():
        player = get_user_model().objects.filter(pk=form.cleaned_data["player"]).first()
    if player is None:
        messages.error(request, _("Choose a player of the event."))
        return
    try:
        services.event_entry_remove(
            director=request.user,
            event=event,
            player=player,
            reason=form.cleaned_data["reason"],
        )
    except ApplicationError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(player)s is removed from %(event)s.")
            % {"player": player_name(player), "event": event.name},
        )
