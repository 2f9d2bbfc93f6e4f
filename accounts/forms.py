"""Forms of a player's own settings pages."""

from __future__ import annotations

from django import forms
from knox.settings import CONSTANTS

from accounts.models import NOTIFICATION_PREFERENCES, PUSH_PREFERENCES, Profile


class NotificationPreferencesForm(forms.ModelForm):
    """For each kind of news: by email at once, in the daily digest, or not at all; and
    whether it is pushed to the player's devices too."""

    class Meta:
        model = Profile
        fields = [*NOTIFICATION_PREFERENCES.values(), *PUSH_PREFERENCES.values()]
        labels = {
            "notify_your_turn": "Your turn",
            "notify_challenge": "A challenge to you, or your tournament match starting",
            "notify_deadline": "A deadline approaching",
            "notify_match_finished": "A match of yours finished",
            **{field: "And as a notification on my devices" for field in PUSH_PREFERENCES.values()},
        }
        widgets = {field: forms.RadioSelect for field in NOTIFICATION_PREFERENCES.values()}
        error_messages = {
            field: {
                "required": "Choose how to hear of this.",
                "invalid_choice": "Choose one of the offered ways: %(value)s is not one of them.",
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
        fields = ["auto_roll", "auto_play_forced"]
        labels = {
            "auto_roll": "Roll for me when I cannot double",
            "auto_play_forced": "Play for me when a roll has only one legal play",
        }
        help_texts = {
            "auto_roll": "Off: you press Roll (or shake your phone) on every turn.",
            "auto_play_forced": "",
        }


class TokenRevokeForm(forms.Form):
    """Which of the player's API tokens to revoke, by the key the token list shows."""

    token_key = forms.CharField(max_length=CONSTANTS.TOKEN_KEY_LENGTH)
