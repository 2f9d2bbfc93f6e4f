"""Player profiles: the preferences that change how the service plays for a player."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.names import DISPLAY_NAME_LENGTH


class Delivery(models.TextChoices):
    """How a player hears of one kind of news."""

    IMMEDIATELY = "immediately", _("By email, at once")
    DIGEST = "digest", _("In a daily digest email")
    OFF = "off", _("Not at all")


#: Each kind of notification and the Profile field holding the player's choice for it.
NOTIFICATION_PREFERENCES = {
    "your_turn": "notify_your_turn",
    "challenge": "notify_challenge",
    "deadline": "notify_deadline",
    "match_finished": "notify_match_finished",
}

#: Each kind of notification and the Profile field saying whether it is also pushed to the
#: player's devices (web push), whatever the email choice.
PUSH_PREFERENCES = {
    "your_turn": "push_your_turn",
    "challenge": "push_challenge",
    "deadline": "push_deadline",
    "match_finished": "push_match_finished",
}


#: The levels the computer opponents play at, weakest first, named for people.
BOT_LEVELS = [
    ("beginner", _("Beginner")),
    ("intermediate", _("Intermediate")),
    ("advanced", _("Advanced")),
    ("expert", _("Expert")),
]


def _delivery_field(help_text: Any) -> models.CharField:
    return models.CharField(
        max_length=16, choices=Delivery.choices, default=Delivery.IMMEDIATELY, help_text=help_text
    )


class Profile(models.Model):
    """A player's preferences; created on first use with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    auto_play_forced = models.BooleanField(
        default=True,
        help_text="Play a roll for me when it has only one legal play.",
    )
    auto_roll = models.BooleanField(
        default=True,
        help_text="Roll for me when I cannot double; off, I roll by hand with the Roll button.",
    )
    vacation_days = models.PositiveSmallIntegerField(
        default=4, help_text="Vacation days available (2 are earned every 30 days, up to 30)."
    )
    vacation_counted_until = models.DateTimeField(
        default=timezone.now, help_text="Vacation days are earned from this moment on."
    )
    vacation_started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the vacation now on began; empty when off."
    )
    notify_your_turn = _delivery_field(_("When a match waits for my decision."))
    notify_challenge = _delivery_field(_("When someone challenges me."))
    notify_deadline = _delivery_field(_("When 12 hours are left to make my decision."))
    notify_match_finished = _delivery_field(_("When a match of mine ends."))
    push_your_turn = models.BooleanField(default=True)
    push_challenge = models.BooleanField(default=True)
    push_deadline = models.BooleanField(default=True)
    push_match_finished = models.BooleanField(default=True)

    bot_level = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=BOT_LEVELS,
        help_text="Set on the computer opponents only: the level the bot plays at.",
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_LENGTH,
        blank=True,
        default="",
        help_text="The name pages show instead of the username; empty: the username "
        "(accounts/names.py).",
    )
    language = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=settings.LANGUAGES,
        help_text="The language pages are shown in; empty: the browser's (accounts/languages.py).",
    )
    is_program = models.BooleanField(
        default=False,
        help_text="A program plays for this account through the API (marked by the player): "
        "shown as a program beside the name; it plays unrated matches only.",
    )
    is_guest = models.BooleanField(
        default=False,
        help_text="A player who has not signed up: made for a visitor's session, who cannot "
        "sign in; removed after 30 days idle (see accounts/guests.py).",
    )

    # Cosmetics earned by beating the computer (accounts.rewards); empty: the board's own.
    checker_colour = models.CharField(
        max_length=20, blank=True, default="", help_text="The colour my checkers are drawn in."
    )
    checker_style = models.CharField(
        max_length=20, blank=True, default="", help_text="How my checkers are drawn."
    )
    wears_crown = models.BooleanField(
        default=False, help_text="Show the Expert's crown beside my name."
    )
    last_seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player was last signed in and using the site (to the minute); "
        "news waits while they are around (accounts/presence.py).",
    )

    class Meta:
        indexes = [
            models.Index(
                fields=["vacation_started_at"],
                name="profile_on_vacation",
                condition=models.Q(vacation_started_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"Profile of {self.user}"

    def delivery_for(self, kind: str) -> str:
        """How the player wants to hear of ``kind`` (a key of NOTIFICATION_PREFERENCES)."""
        return str(getattr(self, NOTIFICATION_PREFERENCES[kind]))

    def pushes(self, kind: str) -> bool:
        """Whether the player wants ``kind`` pushed to their devices too."""
        return bool(getattr(self, PUSH_PREFERENCES[kind]))


class Unlock(models.Model):
    """A reward a player has earned, and the match that earned it; each reward once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="unlocks"
    )
    reward = models.CharField(max_length=40)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    unlocked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "reward"], name="one_unlock_per_reward")
        ]
        ordering = ["unlocked_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} unlocked {self.reward}"


class PushSubscription(models.Model):
    """One browser of a player's that takes web push notifications: the PushSubscription the
    browser made (its push service's endpoint and the keys that encrypt for it).

    A player may have several devices; an endpoint belongs to one player, the last to sign in
    and enable notifications on that browser.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(
        max_length=100, help_text="The browser's public key (P-256, URL-safe base64)."
    )
    auth = models.CharField(max_length=50, help_text="The browser's auth secret (base64).")
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)
    last_failure_at = models.DateTimeField(null=True, blank=True)
    last_failure = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"Push subscription {self.pk} of {self.user}"


class NewsPush(models.Model):
    """Whether one piece of news was pushed to its player's devices, decided once however
    often its task is delivered (games/notifications/webpush.py): pushed, or skipped (the
    player saw it, it was no longer true, or they had no device for it)."""

    class Outcome(models.TextChoices):
        PUSHED = "pushed", "pushed"
        SKIPPED = "skipped", "skipped"

    notification = models.OneToOneField(
        "games.Notification", on_delete=models.CASCADE, related_name="push"
    )
    outcome = models.CharField(max_length=16, choices=Outcome.choices)
    decided_at = models.DateTimeField(default=timezone.now)
    devices = models.PositiveSmallIntegerField(
        default=0, help_text="How many of the player's devices took the push."
    )

    def __str__(self) -> str:
        return f"Push of {self.notification_id}: {self.outcome}"


class FailedLogin(models.Model):
    """A wrong password typed for an account name from an address: what the login limits count
    (accounts/failed_logins.py), kept no longer than their longest window."""

    #: SHA-256 of the account name as typed, lowercased: the name is not kept, for it may be
    #: a password typed in the wrong box.
    account = models.CharField(max_length=64)
    address = models.CharField(max_length=64)
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        indexes = [
            models.Index(fields=["account", "at"], name="failed_login_account"),
            models.Index(fields=["address", "at"], name="failed_login_address"),
        ]

    def __str__(self) -> str:
        return f"Failed login from {self.address} at {self.at:%Y-%m-%d %H:%M:%S}"


def profile_loaded(user: Any) -> bool:
    """Whether ``user`` came with its profile (select_related), so ``profile_of`` needs no query."""
    return "profile" in user._state.fields_cache


def profile_of(user: Any) -> Profile | None:
    """The user's profile, or None when it has not been made; no query if already loaded."""
    try:
        profile: Profile = user.profile
    except ObjectDoesNotExist:
        return None
    return profile


def is_computer(user: Any) -> bool:
    """Whether ``user`` is a computer opponent (a bot): their profile names the level it plays at.

    No query when the profile came with the user (``profile_loaded``); else one.
    """
    profile = profile_of(user)
    return profile is not None and bool(profile.bot_level)


def is_program(user: Any) -> bool:
    """Whether a program plays for ``user``'s account (its player said so): not one of the
    site's computer opponents, whose profile names a bot level."""
    profile = profile_of(user)
    return profile is not None and profile.is_program


def player_kind(user: Any) -> str:
    """``"guest"``, ``"computer"`` or ``"signed_up"``: what a player is, as a match's first event
    records it (the guest purge trusts that record, not the profile it may find later). Read
    without leaving the profile on ``user``: what follows a match's start reads it afresh."""
    if profile_loaded(user):
        profile = profile_of(user)
        facts = None if profile is None else (profile.is_guest, profile.bot_level)
    else:
        facts = Profile.objects.filter(user_id=user.pk).values_list("is_guest", "bot_level").first()
    if facts is not None and facts[0]:
        return "guest"
    if facts is not None and facts[1]:
        return "computer"
    return "signed_up"
