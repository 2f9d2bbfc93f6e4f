"""The lobby: your matches (those awaiting you first), challenges, the next match, and the
challenge form. Every change goes through games.services; a refusal is shown in its words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import guests
from accounts.models import BOT_LEVELS
from accounts.names import player_name
from backgammon_site.core.errors import ApplicationError, NotFound
from backgammon_site.core.variants import DEFAULT_VARIANT
from games import selectors, services
from games.clocks.words import CORRESPONDENCE_PRESETS, time_control_words
from games.computer.decisions import LEVELS_BY_NAME
from games.engine import MatchRules
from games.models import Challenge, Match, Player, Variant
from games.views.match_rows import match_rows
from games.views.match_words import points_words
from games.views.signed_in import SignedInRequest

MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)
WATCH_ON_LOBBY = 10
#: The computer opponents casual play offers, weakest first.
COMPUTER_LEVELS = [
    {"name": name, "label": title} for name, title in BOT_LEVELS if name in LEVELS_BY_NAME
]


class ChallengeForm(forms.Form):
    """A challenge to one player, or an open one when no username is given."""

    opponent = forms.CharField(
        required=False,
        max_length=150,
        label=_("Opponent"),
        help_text=_("A player's username; leave it empty for an open challenge anyone may accept."),
    )
    match_length = forms.TypedChoiceField(
        coerce=int,
        initial=5,
        label=_("Match to"),
        error_messages={"required": _("Choose how many points the match is played to.")},
    )
    variant = forms.ChoiceField(
        choices=Variant.choices,
        initial=DEFAULT_VARIANT,
        required=False,
        label=_("Game"),
        help_text=_("Tavli plays portes, plakoto and fevga in turn."),
        error_messages={"invalid_choice": _("Choose a game from the list.")},
    )
    match_format = forms.ChoiceField(
        choices=[
            (Challenge.MatchFormat.POINTS, _("To the points above")),
            (Challenge.MatchFormat.BEST_OF_THREE, _("Best of three games (Tavli)")),
        ],
        initial=Challenge.MatchFormat.POINTS,
        required=False,
        label=_("Tavli match"),
        error_messages={"invalid_choice": _("Choose points or the best of three.")},
    )
    cube = forms.ChoiceField(
        choices=[
            ("", _("As the game is played")),
            ("on", _("With the cube")),
            ("off", _("Without")),
        ],
        required=False,
        label=_("Doubling cube"),
        help_text=_(
            "Backgammon, nackgammon and hypergammon are played with it, the others without."
        ),
        error_messages={"invalid_choice": _("Choose with or without the cube.")},
    )
    rated = forms.BooleanField(required=False, initial=True, label=_("Rated"))
    clock = forms.ChoiceField(
        initial=CORRESPONDENCE_PRESETS[0][0],
        widget=forms.RadioSelect,
        label=_("Time control"),
        error_messages={
            "required": _("Choose a time control."),
            "invalid_choice": _("Choose a time control from the list."),
        },
    )
    days_per_move = forms.FloatField(
        required=False,
        initial=1,
        label=_("Days a move"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "0.04", "max": "30"}),
    )
    reserve_days = forms.FloatField(
        required=False,
        initial=8,
        label=_("Reserve days"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "0", "max": "60"}),
    )
    minutes = forms.FloatField(
        required=False,
        initial=8,
        label=_("Minutes"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "1", "max": "120"}),
    )
    increment_seconds = forms.FloatField(
        required=False,
        initial=10,
        label=_("Seconds added a move"),
        widget=forms.NumberInput(attrs={"step": "any", "min": "0", "max": "120"}),
    )

    seed = forms.CharField(
        required=False,
        max_length=200,
        label=_("Your dice seed (optional)"),
        help_text=_(
            "Any text. With the server's seed, revealed at the end, it fixes every roll, so you "
            "can check the dice yourself. Leave it empty and one is drawn for you."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The choices said with numbers, in the language of the request."""
        super().__init__(*args, **kwargs)
        lengths = cast(forms.ChoiceField, self.fields["match_length"])
        lengths.choices = [(n, points_words(n)) for n in MATCH_LENGTHS]
        lengths.error_messages["invalid_choice"] = gettext(
            "A match is played to %(lengths)s or %(last)s points."
        ) % {"lengths": ", ".join(map(str, MATCH_LENGTHS[:-1])), "last": MATCH_LENGTHS[-1]}
        cast(forms.ChoiceField, self.fields["clock"]).choices = [
            *(
                (key, time_control_words({"days_per_move": days, "reserve_days": reserve}))
                for key, days, reserve in CORRESPONDENCE_PRESETS
            ),
            ("days", gettext("Correspondence, other days")),
            ("live", gettext("Live")),
        ]

    def clean(self) -> dict[str, Any]:
        values = cast(dict[str, Any], super().clean())  # a Form's clean gives cleaned_data
        clock = values.get("clock")
        needed = {
            "days": ("days_per_move", gettext("Give the days a move.")),
            "live": ("minutes", gettext("Give the minutes.")),
        }.get(clock or "")
        if needed is not None:
            name, problem = needed
            if values.get(name) is None and name not in self.errors:
                self.add_error(name, problem)
        return values

    def time_control(self) -> dict[str, Any]:
        """The time control chosen, for services.challenge_create (which checks its ranges)."""
        values = self.cleaned_data
        clock = values["clock"]
        for key, days, reserve in CORRESPONDENCE_PRESETS:
            if clock == key:
                return {"kind": "correspondence", "days_per_move": days, "reserve_days": reserve}
        if clock == "live":
            return {
                "kind": "live",
                "minutes": _whole_if_whole(values["minutes"]),
                "increment_seconds": _whole_if_whole(values["increment_seconds"] or 0),
            }
        return {
            "kind": "correspondence",
            "days_per_move": _whole_if_whole(values["days_per_move"]),
            "reserve_days": _whole_if_whole(values["reserve_days"] or 0),
        }


class AcceptForm(forms.Form):
    """Accepting a challenge, with the accepting player's own dice seed if they give one."""

    seed = forms.CharField(
        required=False,
        max_length=200,
        error_messages={"max_length": _("A dice seed has at most 200 characters.")},
    )


def _whole_if_whole(value: float) -> float | int:
    return int(value) if float(value).is_integer() else value


def lobby(request: HttpRequest) -> HttpResponse:
    """The home page: a welcome and matches to watch, or the signed-in player's lobby."""
    if request.GET.get("part") == "lobby":
        # What a push or the poll swaps in (games/static/games/live-part.js): the fragment leaves
        # flash messages unread, and a player signed out meanwhile gets nothing to swap in.
        if not request.user.is_authenticated:
            return HttpResponse(status=204)
        return render(request, "games/lobby_live.html", _lobby_news(request.user))
    return home_page(request)


def home_page(request: HttpRequest, status: int = 200) -> HttpResponse:
    """The welcome for a visitor, the lobby for a player; a refused form of the home page
    shows it again with a 400 and its flash message."""
    if not request.user.is_authenticated:
        watching = selectors.matches_for_list(status=Match.Status.ACTIVE)[: WATCH_ON_LOBBY + 1]
        rows = match_rows(watching)
        guest = guests.session_guest(request)
        guest_rows = []
        if guest is not None:
            guest_rows = match_rows(selectors.matches_for_list(viewer=guest, mine=True), guest)
        return render(
            request,
            "home.html",
            {
                "watch_rows": rows[:WATCH_ON_LOBBY],
                "more_to_watch": len(rows) > WATCH_ON_LOBBY,
                "computer_levels": COMPUTER_LEVELS,
                "computer_variants": Variant.choices,
                "tutor_games": tutor_games(),
                "guest_rows": guest_rows,
                "guest_name": player_name(guest) if guest is not None else "",
            },
            status=status,
        )
    initial = {"opponent": request.GET.get("opponent", "")[:150]}
    return _render_lobby(request, ChallengeForm(initial=initial), status=status)


def _render_lobby(request: HttpRequest, form: ChallengeForm, status: int = 200) -> HttpResponse:
    # Only a signed-in player gets here: home_page shows visitors the welcome.
    context = {
        **_lobby_news(cast(Player, request.user)),
        "form": form,
        "computer_levels": COMPUTER_LEVELS,
        "computer_variants": Variant.choices,
        "tutor_games": tutor_games(),
    }
    return render(request, "home.html", context, status=status)


def tutor_games() -> str:
    """The games the tutor reads, by name, for the play-the-computer form."""
    return ", ".join(
        str(label)
        for value, label in Variant.choices
        if services.tutor_offered(MatchRules.of(value))
    )


def _lobby_news(user: Player) -> dict[str, Any]:
    """The player's matches and the challenges they may answer: what changes under the lobby."""
    matches = selectors.matches_for_list(viewer=user, mine=True, status=Match.Status.ACTIVE)
    rows = match_rows(matches, user)
    return {
        "your_rows": rows,
        "awaiting_count": sum(row.your_turn for row in rows),
        "incoming": _challenge_rows(selectors.challenges_for(user, "incoming")),
        "outgoing": _challenge_rows(selectors.challenges_for(user, "outgoing")),
        "open_challenges": _challenge_rows(selectors.challenges_for(user, "open")),
    }


def _challenge_rows(challenges: Any) -> list[dict[str, Any]]:
    return [
        {"challenge": challenge, "time_control": time_control_words(challenge.time_control)}
        for challenge in challenges
    ]


@login_required
def next_match(request: SignedInRequest) -> HttpResponse:
    """To the active match that has waited longest for the player, or back to the lobby."""
    match = selectors.next_match_waiting(request.user)
    if match is None:
        messages.info(request, gettext("No match is waiting for you."))
        return redirect("home")
    return redirect("match", match_id=match.pk)


@login_required
def challenge_create(request: SignedInRequest) -> HttpResponse:
    """The lobby's challenge form posts here; a refusal re-shows the form as it was sent."""
    if request.method != "POST":
        return redirect("home")
    form = ChallengeForm(request.POST)
    if form.is_valid():
        try:
            challenge = services.challenge_create(
                challenger=request.user,
                opponent=_player(form.cleaned_data["opponent"]),
                match_length=form.cleaned_data["match_length"],
                variant=form.cleaned_data["variant"] or DEFAULT_VARIANT,
                match_format=form.cleaned_data["match_format"] or None,
                cube={"on": True, "off": False}.get(form.cleaned_data["cube"]),
                rated=form.cleaned_data["rated"],
                time_control=form.time_control(),
                seed=form.cleaned_data["seed"] or None,
            )
        except ApplicationError as error:
            form.add_error(None, error.message)
        else:
            if challenge.opponent is None:
                messages.success(
                    request, gettext("Your open challenge is posted: anyone may accept it.")
                )
            else:
                messages.success(
                    request,
                    gettext("Your challenge is sent to %(opponent)s.")
                    % {"opponent": player_name(challenge.opponent)},
                )
            return redirect("home")
    return _render_lobby(request, form, status=400)


def _player(username: str) -> Any | None:
    """The player called ``username`` (an exact match first, then ignoring case); None if empty."""
    username = username.strip().lstrip("@")
    if not username:
        return None
    users = get_user_model().objects
    player = (
        users.filter(username=username).first()
        or users.filter(username__iexact=username).order_by("pk").first()
    )
    if player is None:
        raise NotFound(gettext("There is no player called %(name)s.") % {"name": repr(username)})
    return player


@login_required
def challenge_accept(request: SignedInRequest, challenge_id: int) -> HttpResponse:
    if request.method != "POST":
        return redirect("home")
    form = AcceptForm(request.POST)
    if not form.is_valid():
        for problem in form.errors["seed"]:
            messages.error(request, gettext("Your dice seed: %(problem)s") % {"problem": problem})
        return home_page(request, status=400)
    try:
        match = services.challenge_accept(
            challenge_id=challenge_id, user=request.user, seed=form.cleaned_data["seed"] or None
        )
    except ApplicationError as error:
        messages.error(request, error.message)
        return redirect("home")
    messages.success(request, gettext("The match has started."))
    return redirect("match", match_id=match.pk)


@login_required
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _close(
        request, challenge_id, services.challenge_decline, gettext("You declined the challenge.")
    )


@login_required
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _close(
        request, challenge_id, services.challenge_cancel, gettext("Your challenge is cancelled.")
    )


def _close(
    request: HttpRequest, challenge_id: int, close: Callable[..., Any], done: str
) -> HttpResponse:
    if request.method == "POST":
        try:
            close(challenge_id=challenge_id, user=request.user)
        except ApplicationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
    return redirect("home")
