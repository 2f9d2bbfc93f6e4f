"""Pages of a player's own account: API tokens and the settings of notifications, play and
appearance. The vacation page is the games app's (games.views.vacation)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from knox.models import AuthToken

from accounts import rewards
from accounts.forms import (
    DisplayNameForm,
    LanguageForm,
    NotificationPreferencesForm,
    PlayPreferencesForm,
    TokenRevokeForm,
)
from accounts.languages import remember_language
from accounts.models import BOT_LEVELS, Profile, PushSubscription
from accounts.vacation import days_available
from backgammon_site.core.vapid import site_vapid_keys

BOT_LEVEL_NAMES = dict(BOT_LEVELS)


@login_required
def settings_index(request: HttpRequest) -> HttpResponse:
    """The player's settings: notifications, vacation, API tokens."""
    profile, _created = Profile.objects.get_or_create(user=request.user)
    context = {
        "profile": profile,
        "vacation_days": days_available(profile, timezone.now()),
        "tokens": AuthToken.objects.filter(user=request.user).count(),
        "language_name": dict(settings.LANGUAGES).get(profile.language, ""),
    }
    return render(request, "accounts/settings.html", context)


@never_cache
@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The player's API tokens; a new token's secret is shown once, right after creation."""
    tokens = AuthToken.objects.filter(user=request.user).order_by("-created")
    new_token = request.session.pop("new_api_token", None)
    return render(request, "accounts/api_tokens.html", {"tokens": tokens, "new_token": new_token})


@login_required
@require_POST
def api_token_create(request: HttpRequest) -> HttpResponse:
    _instance, token = AuthToken.objects.create(request.user)
    request.session["new_api_token"] = token
    return redirect("api-tokens")


@login_required
@require_POST
def api_token_revoke(request: HttpRequest) -> HttpResponse:
    form = TokenRevokeForm(request.POST)
    deleted = 0
    if form.is_valid():
        deleted, _kinds = AuthToken.objects.filter(
            user=request.user, token_key=form.cleaned_data["token_key"]
        ).delete()
    if deleted:
        messages.success(request, _("The token is revoked: programs using it can no longer act."))
    else:
        messages.error(request, _("There is no such token of yours."))
    return redirect("api-tokens")


@login_required
def notification_settings(request: HttpRequest) -> HttpResponse:
    """How the player hears of their turns, challenges, deadlines and finished matches."""
    profile, _created = Profile.objects.get_or_create(user=request.user)
    if request.method == "POST":
        form = NotificationPreferencesForm(request.POST, instance=profile)
        if form.is_valid():
            form.save()
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notification-settings")
        # Refused: nothing is saved, and the page says why.
        status = 400
    else:
        form = NotificationPreferencesForm(instance=profile)
        status = 200
    keys = site_vapid_keys()
    return render(
        request,
        "accounts/notification_settings.html",
        {
            "form": form,
            "email": request.user.email,
            "push_public_key": keys.public_key if keys is not None else "",
            "push_devices": PushSubscription.objects.filter(user=request.user).count(),
        },
        status=status,
    )


@login_required
def appearance_settings(request: HttpRequest) -> HttpResponse:
    """The checker colour, checker style and crown the player shows, among those unlocked."""
    status = 200
    error = None
    if request.method == "POST":
        try:
            rewards.appearance_choose(
                user=request.user,
                colour=request.POST.get("colour", ""),
                style=request.POST.get("style", ""),
                crown=request.POST.get("crown") == "on",
            )
        except rewards.LockedReward as refusal:
            error, status = str(refusal), 400
        else:
            messages.success(request, _("Your appearance is saved."))
            return redirect("appearance-settings")
    profile, _created = Profile.objects.get_or_create(user=request.user)
    unlocked = rewards.unlocked_rewards(request.user)
    return render(
        request,
        "accounts/appearance_settings.html",
        {
            "profile": profile,
            "error": error,
            "colours": _options(rewards.COLOURS, unlocked),
            "styles": _options(rewards.STYLES, unlocked),
            "crown": next(r for r in rewards.REWARDS if r.crown),
            "has_crown": any(r.crown for r in unlocked),
            "unlocked": unlocked,
        },
        status=status,
    )


def _options(names: tuple[str, ...], unlocked: list[rewards.Reward]) -> list[dict[str, Any]]:
    """Each colour or style with whether it is unlocked and which level unlocks it."""
    options = []
    for name in names:
        reward = next(r for r in rewards.REWARDS if name in (*r.colours, r.style))
        options.append(
            {
                "name": name,
                "label": rewards.LOOK_NAMES[name],
                "unlocked": reward in unlocked,
                "level": BOT_LEVEL_NAMES[reward.level],
            }
        )
    return options


@login_required
def name_settings(request: HttpRequest) -> HttpResponse:
    """The display name the player is shown by instead of their username."""
    profile, _created = Profile.objects.get_or_create(user=request.user)
    form = DisplayNameForm(request.POST or None, instance=profile)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Your display name is saved."))
            return redirect("name-settings")
        return render(request, "accounts/name_settings.html", {"form": form}, status=400)
    return render(request, "accounts/name_settings.html", {"form": form})


@login_required
def play_settings(request: HttpRequest) -> HttpResponse:
    """What the server does for the player: roll when they cannot double, play forced plays."""
    profile, _created = Profile.objects.get_or_create(user=request.user)
    form = PlayPreferencesForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Your play settings are saved."))
        return redirect("play-settings")
    return render(request, "accounts/play_settings.html", {"form": form})


@login_required
def language_settings(request: HttpRequest) -> HttpResponse:
    """The language the player reads the site in, whatever their browser asks for."""
    profile, _created = Profile.objects.get_or_create(user=request.user)
    form = LanguageForm(request.POST or None, instance=profile)
    if request.method == "POST":
        if not form.is_valid():
            return render(request, "accounts/language_settings.html", {"form": form}, status=400)
        form.save()
        # Said in the language just chosen, as the next page will be.
        translation.activate(profile.language or translation.get_language_from_request(request))
        messages.success(request, _("Your language is saved."))
        response = redirect("language-settings")
        remember_language(response, profile.language)
        return response
    return render(request, "accounts/language_settings.html", {"form": form})


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """The footer's switch, for everyone: Django's set_language (the language cookie, then back
    to the page), and for a signed-in player their profile too, which decides their pages."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        Profile.objects.update_or_create(user=request.user, defaults={"language": language})
    return response
