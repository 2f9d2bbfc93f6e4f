"""Admin for accounts; the devices that take web push notifications are listed.

Moderators hold auth.change_user to suspend and reactivate players' accounts, which the admin
of games adds as actions calling its services (games/admin/audit.py: a reason, an audit
record, and the player's matches forfeited or paused): the one way, so "active" is read-only
on the change page for everyone. On that page everything is read-only for moderators, who
cannot touch staff or superuser accounts nor set passwords; superusers keep the rest of
Django's user admin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from accounts.models import PushSubscription

User = get_user_model()

admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "groups")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if request.user.is_superuser or obj is None:
            return fieldsets
        # Not even the password's hash is a moderator's business.
        return [
            (name, {**options, "fields": [f for f in options["fields"] if f != "password"]})
            for name, options in fieldsets
        ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return super().get_readonly_fields(request, obj)
        if request.user.is_superuser:
            return [*super().get_readonly_fields(request, obj), "is_active"]
        fieldsets = self.get_fieldsets(request, obj)
        return [name for _, options in fieldsets for name in options["fields"]]

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not _may_moderate(request.user, obj):
            return False
        return super().has_change_permission(request, obj)

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        if not request.user.is_superuser:
            raise PermissionDenied("Only superusers set passwords here.")
        return super().user_change_password(request, id, form_url)


def _may_moderate(moderator: Any, user: Any) -> bool:
    """Moderators change players' accounts; superusers any account."""
    return moderator.is_superuser or not (user.is_staff or user.is_superuser)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """Players' devices that take web push, and how their last pushes went; the keys stay
    out of view. Only deleting is offered: the browser alone makes a subscription."""

    list_display = ("user", "push_service", "created_at", "last_success_at", "last_failure_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    fields = (
        "user",
        "endpoint",
        "created_at",
        "last_success_at",
        "last_failure_at",
        "last_failure",
    )
    readonly_fields = fields

    @admin.display(description="Push service")
    def push_service(self, device: PushSubscription) -> str:
        return urlsplit(device.endpoint).hostname or ""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
