"""Casual play from the home page: a match against the computer without signing up, and
pass-and-play, two players taking turns in one browser. Both are unrated matches started
through games.services like any other; who the visitor plays as is in accounts.guests.

Both make accounts (a guest, a pass-and-play seat) and matches for anyone who asks, so each
start counts against a limit (accounts.limits): ``guest_play`` per address for visitors who
have not signed in, ``casual_play`` per player for those who have."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import guests, limits
from accounts.models import BOT_LEVELS
from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.variants import DEFAULT_VARIANT
from games import services
from games.clocks.rules import UNTIMED
from games.computer.decisions import LEVELS_BY_NAME
from games.engine import MatchRules
from games.models import Player, Variant
from games.views.lobby import home_page
from games.views.match_words import points_words

CASUAL_LENGTHS = (1, 3, 5)
#: No clock in casual play: the computer answers at once, and players at one table need none.
#: A match nobody comes back to goes with its idle guests (games.services.guests); a member's
#: own casual match they may end at any time.
CASUAL_TIME_CONTROL = {"kind": UNTIMED}


def _length_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        choices=[(n, str(n)) for n in CASUAL_LENGTHS],
        coerce=int,
        initial=1,
        label=_("Match to"),
        error_messages={
            "required": _("Choose a match of 1, 3 or 5 points."),
            "invalid_choice": _("Choose a match of 1, 3 or 5 points."),
        },
    )


class CasualForm(forms.Form):
    """A casual match's length, its choices said in the language of the request."""

    match_length = _length_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["match_length"]).choices = [
            (n, points_words(n)) for n in CASUAL_LENGTHS
        ]


class ComputerMatchForm(CasualForm):
    variant = forms.ChoiceField(
        choices=Variant.choices,
        initial=DEFAULT_VARIANT,
        required=False,
        label=_("Game"),
        error_messages={"invalid_choice": _("Choose a game from the list.")},
    )
    level = forms.ChoiceField(
        choices=[(name, title) for name, title in BOT_LEVELS if name in LEVELS_BY_NAME],
        initial="beginner",
        label=_("Level"),
        error_messages={
            "required": _("Choose a level."),
            "invalid_choice": _("Choose one of the levels offered."),
        },
    )
    tutor = forms.BooleanField(required=False, label=_("Tutor: tell me my errors"))


class PassAndPlayForm(CasualForm):
    first_player = forms.CharField(
        max_length=guests.NAME_LENGTH,
        required=False,
        initial=_("Player 1"),
        label=_("Your name (for a guest)"),
    )
    second_player = forms.CharField(
        max_length=guests.NAME_LENGTH,
        required=False,
        initial=_("Player 2"),
        label=_("The other player's name"),
    )


@require_POST
def play_computer(request: HttpRequest) -> HttpResponse:
    """Start an unrated match in the chosen game (backgammon unless chosen) against the bot of
    the chosen level, as the visitor's guest if they have not signed in; with the tutor when
    asked, in the games it reads."""
    form = ComputerMatchForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    bot = (
        get_user_model()
        .objects.filter(profile__bot_level=form.cleaned_data["level"])
        .order_by("pk")
        .first()
    )
    if bot is None:
        messages.error(request, gettext("That computer opponent is not available."))
        return redirect("home")
    rules = MatchRules.of(form.cleaned_data["variant"] or DEFAULT_VARIANT)
    tutored = form.cleaned_data["tutor"]
    if tutored and not services.tutor_offered(rules):
        messages.error(request, gettext("The tutor is not offered for this game."))
        return home_page(request, status=400)
    if refused := _refused_when_over_the_limit(request):
        return refused
    return _start(request, bot, form.cleaned_data["match_length"], rules=rules, tutored=tutored)


@require_POST
def pass_and_play(request: HttpRequest) -> HttpResponse:
    """Start an unrated match between the visitor and a second player at the same screen."""
    form = PassAndPlayForm(request.POST)
    if not form.is_valid():
        return _refused(request, form)
    if refused := _refused_when_over_the_limit(request):
        return refused
    seat = guests.add_local_seat(request, form.cleaned_data["second_player"])
    return _start(
        request, seat, form.cleaned_data["match_length"], name=form.cleaned_data["first_player"]
    )


def _refused_when_over_the_limit(request: HttpRequest) -> HttpResponse | None:
    """Count this new match against the visitor's limit; once it is spent, a page saying so
    (429), and nothing is made."""
    try:
        if request.user.is_authenticated:
            limits.spend(
                request,
                "casual_play",
                user=request.user,
                refusal=gettext(
                    "You have started as many casual matches as one player may for now."
                ),
            )
        else:
            limits.spend(
                request,
                "guest_play",
                refusal=gettext(
                    "As many matches as we allow have been started from your address by "
                    "visitors who have not signed in."
                ),
            )
    except limits.TooManyAttempts as refusal:
        response = render(
            request, "games/too_many_matches.html", {"refusal": refusal.message}, status=429
        )
        response["Retry-After"] = str(refusal.retry_after)
        return response
    return None


def _refused(request: HttpRequest, form: forms.Form) -> HttpResponse:
    """The home page again, with a 400 and what was wrong with the form: nothing started."""
    for name, problems in form.errors.items():
        for problem in problems:
            messages.error(
                request,
                gettext("%(field)s: %(problem)s")
                % {"field": form.fields[name].label, "problem": problem},
            )
    return home_page(request, status=400)


def _start(
    request: HttpRequest,
    opponent: Player,
    match_length: int,
    name: str = "",
    rules: MatchRules | None = None,
    tutored: bool = False,
) -> HttpResponse:
    player = guests.session_player(request, create=True, name=name)
    assert player is not None  # created when missing
    try:
        match = services.match_start(
            first_player=player,
            second_player=opponent,
            match_length=match_length,
            rated=False,
            time_control=dict(CASUAL_TIME_CONTROL),
            rules=rules,
            tutored=tutored,
        )
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("home")
    return redirect("match", match_id=match.pk)
