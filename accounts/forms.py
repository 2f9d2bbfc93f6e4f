"""Forms of a player's own settings pages."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from knox.settings import CONSTANTS

from accounts.models import NOTIFICATION_PREFERENCES, PUSH_PREFERENCES, Profile
from accounts.names import clean_display_name


class NotificationPreferencesForm(forms.ModelForm):
    """For each kind of news: by email at once, in the daily digest, or not at all; and
    whether it is pushed to the player's devices too."""

    class Meta:
        model = Profile
        fields = [*NOTIFICATION_PREFERENCES.values(), *PUSH_PREFERENCES.values()]
        labels = {
            "notify_your_turn": _("Your turn"),
            "notify_challenge": _("A challenge to you, or your tournament match starting"),
            "notify_deadline": _("A deadline approaching"),
            "notify_match_finished": _("A match of yours finished"),
            **{
                field: _("And as a notification on my devices")
                for field in PUSH_PREFERENCES.values()
            },
        }
        widgets = {field: forms.RadioSelect for field in NOTIFICATION_PREFERENCES.values()}
        error_messages = {
            field: {
                "required": _("Choose how to hear of this."),
                "invalid_choice": _(
                    "Choose one of the offered ways: %(value)s is not one of them."
                ),
            }
            for field in NOTIFICATION_PREFERENCES.values()
        }

    def by_kind(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Each kind of news: its email choice and its push choice."""
        return [
            (self[NOTIFICATION_PREFERENCES[kind]], self[PUSH_PREFERENCES[kind]])
            for kind in NOTIFICATION_PREFERENCES
        ]


class PlayPreferencesForm(forms.ModelForm):
    """What the server does for the player without asking: rolling and forced plays."""

    class Meta:
        model = Profile
        fields = ["auto_roll", "auto_play_forced", "is_program"]
        labels = {
            "auto_roll": _("Roll for me when I cannot double"),
            "auto_play_forced": _("Play for me when a roll has only one legal play"),
            "is_program": _("A program plays for this account"),
        }
        help_texts = {
            "auto_roll": _("Off: you press Roll (or shake your phone) on every turn."),
            "auto_play_forced": "",
            "is_program": _(
                "Your bot, through the API: shown as a program beside your name everywhere. "
                "Programs play unrated matches only."
            ),
        }


class DisplayNameForm(forms.ModelForm):
    """The name pages show for the player instead of their username; empty for the username."""

    class Meta:
        model = Profile
        fields = ["display_name"]
        labels = {"display_name": _("Display name")}
        help_texts = {
            "display_name": _(
                "Shown on the board, in match lists and on your profile. Your username stays as "
                "it is: it is how others challenge you and your profile's address."
            )
        }

    def clean_display_name(self) -> str:
        """Refuses characters other than letters, digits, spaces, . - _ and ', and another
        player's username (so that nobody passes for them)."""
        typed = " ".join(self.cleaned_data["display_name"].split())
        if clean_display_name(typed) != typed:
            raise forms.ValidationError(
                _("Use letters, digits, spaces, dots, dashes, underscores and apostrophes only.")
            )
        others = get_user_model().objects.exclude(pk=self.instance.user_id)
        if typed and others.filter(username__iexact=typed).exists():
            raise forms.ValidationError(
                _("That is another player's username: choose another name.")
            )
        return typed


class LanguageForm(forms.ModelForm):
    """The language the player reads the site in; none chosen: their browser's."""

    language = forms.ChoiceField(
        choices=[("", _("As my browser asks")), *settings.LANGUAGES],
        required=False,
        widget=forms.RadioSelect,
        label=_("Language"),
        error_messages={
            "invalid_choice": _(
                "Choose one of the languages offered: %(value)s is not one of them."
            ),
        },
    )

    class Meta:
        model = Profile
        fields = ["language"]


class TokenRevokeForm(forms.Form):
    """Which of the player's API tokens to revoke, by the key the token list shows."""

    token_key = forms.CharField(max_length=CONSTANTS.TOKEN_KEY_LENGTH)
