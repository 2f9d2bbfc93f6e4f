"""Guests: players who have not signed up, kept in a visitor's session.

A guest is an ordinary account (so its matches are stored, logged and played like any other)
that cannot sign in: it has an unusable password and ``Profile.is_guest``. The session
remembers which accounts it plays for: its own guest, and the local seats of pass-and-play
matches. Signing up turns the session's guest into the new account in place (the same row
gets the username, email and password), so its matches and their logs, which name the
guest's id, are the new account's without rewriting anything.

Guests idle for 30 days (``idle_guests``) are removed with their matches by
games.services.guests (the one deliberate exception to the append-only log).
"""

from __future__ import annotations

import re
import secrets
from datetime import timedelta
from typing import Any

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.app_settings import EmailVerificationMethod
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import Profile
from accounts.names import clean_display_name

#: The session's own guest: the visitor playing before signing up.
GUEST_KEY = "guest_user_id"
#: Further accounts the session plays for: the local seats of pass-and-play matches.
LOCAL_SEATS_KEY = "local_seat_ids"
IDLE_DAYS = 30
NAME_LENGTH = 20


def new_guest(name: str = "") -> Any:
    """A new guest account shown as ``name`` ("Guest 3" when none is given); its username is
    the name plus a random tag, so that it is unique (accounts.names)."""
    users = get_user_model().objects
    typed = clean_display_name(name)
    base = _clean_name(typed).replace(" ", "-") or "guest"
    while True:
        username = f"{base}-{secrets.token_hex(3)}"
        if not users.filter(username=username).exists():
            break
    user = users.create_user(username=username, password=None)
    Profile.objects.update_or_create(
        user=user, defaults={"is_guest": True, "display_name": typed or _next_guest_name()}
    )
    return user


def _next_guest_name() -> str:
    """ "Guest N", one more than the guests there are now (names need not be unique)."""
    return f"Guest {Profile.objects.filter(is_guest=True).count() + 1}"


def _clean_name(name: str) -> str:
    """Letters, digits, spaces, dots, dashes and underscores; at most NAME_LENGTH of them."""
    return re.sub(r"[^\w .-]", "", name).strip()[:NAME_LENGTH].strip()


def session_guest(request: HttpRequest, *, create: bool = False, name: str = "") -> Any | None:
    """The session's own guest (made now if ``create``, shown as ``name`` when one is given),
    or None."""
    users = get_user_model().objects
    guest_id = request.session.get(GUEST_KEY)
    guest = None
    if guest_id is not None:
        guest = users.filter(pk=guest_id, profile__is_guest=True).first()
    if guest is None and create:
        guest = new_guest(name)
        request.session[GUEST_KEY] = guest.pk
    elif guest is not None and create and clean_display_name(name):
        # The guest typed a name for this match: they are shown by it from now on.
        Profile.objects.filter(user=guest).update(display_name=clean_display_name(name))
        guest.profile.refresh_from_db(fields=["display_name"])
    return guest


def session_player(request: HttpRequest, *, create: bool = False, name: str = "") -> Any | None:
    """Who the visitor plays as: the signed-in account, else the session's guest."""
    if request.user.is_authenticated:
        return request.user
    return session_guest(request, create=create, name=name)


def add_local_seat(request: HttpRequest, name: str) -> Any:
    """A new guest for the second seat of a pass-and-play match, played from this session."""
    seat = new_guest(name or "Player 2")
    request.session[LOCAL_SEATS_KEY] = [*request.session.get(LOCAL_SEATS_KEY, []), seat.pk]
    return seat


def session_player_ids(request: HttpRequest) -> set[int]:
    """The ids of every account this session may act for."""
    return players_of_session(request.session, request.user)


def players_of_session(session: Any, user: Any) -> set[int]:
    """The ids of every account a browser's ``session`` may act for, signed in as ``user``
    (an anonymous user when not signed in): for a WebSocket, which has no request."""
    ids = set(session.get(LOCAL_SEATS_KEY, []))
    if user.is_authenticated:
        ids.add(user.pk)
    elif session.get(GUEST_KEY) is not None:
        ids.add(session[GUEST_KEY])
    return ids


def is_guest(user: Any) -> bool:
    return Profile.objects.filter(user=user, is_guest=True).exists()


class GuestKeepingAccountAdapter(DefaultAccountAdapter):
    """Signing up from a session that has a guest makes that guest the new account.

    While the new account's address waits to be verified, the session plays on as the guest
    (a sign-up with an address already registered leaves the guest as it was, so the session
    cannot tell the two apart); verifying the address ends the guest.
    """

    def new_user(self, request: HttpRequest) -> Any:
        guest = None if request.user.is_authenticated else session_guest(request)
        return guest if guest is not None else super().new_user(request)

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        user = super().save_user(request, user, form, commit=commit)
        if commit and app_settings.EMAIL_VERIFICATION != EmailVerificationMethod.MANDATORY:
            _end_guest(request, user)
        return user

    def get_client_ip(self, request: HttpRequest) -> str:
        """The address the rate limits (accounts.limits) count. A request that names none (an
        ASGI server on a Unix socket) counts as one address with every other such request,
        where allauth would refuse it."""
        try:
            return super().get_client_ip(request)
        except PermissionDenied:
            return "unknown"

    def confirm_email(self, request: HttpRequest, email_address: Any) -> bool:
        confirmed = super().confirm_email(request, email_address)
        if confirmed:
            _end_guest(request, email_address.user)
        return confirmed


def _end_guest(request: HttpRequest, user: Any) -> None:
    """``user`` is a guest no more: this session stops playing for it as a guest, and it is
    shown by the username it chose (until it chooses a display name in its settings)."""
    Profile.objects.filter(user=user, is_guest=True).update(is_guest=False, display_name="")
    if request.session.get(GUEST_KEY) == user.pk:
        del request.session[GUEST_KEY]


def idle_guests(now: Any = None, idle_days: int = IDLE_DAYS) -> Any:
    """Guests nobody has played for ``idle_days``, whose matches are only with guests or bots.

    A guest who shares a match with a signed-up player (a pass-and-play seat) is kept: that
    match is the player's.
    """
    cutoff = (now or timezone.now()) - timedelta(days=idle_days)
    users = get_user_model().objects.filter(profile__is_guest=True, date_joined__lt=cutoff)
    signed_up = Q(profile__isnull=True) | Q(profile__is_guest=False, profile__bot_level="")
    real_ids = get_user_model().objects.filter(signed_up).values("pk")
    return (
        users.annotate(
            first_active=Max("matches_as_first__updated_at"),
            second_active=Max("matches_as_second__updated_at"),
        )
        .filter(Q(first_active__isnull=True) | Q(first_active__lt=cutoff))
        .filter(Q(second_active__isnull=True) | Q(second_active__lt=cutoff))
        .exclude(matches_as_first__second_player__in=real_ids)
        .exclude(matches_as_second__first_player__in=real_ids)
    )
