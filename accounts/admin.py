"""Admin for accounts: moderators suspend and reactivate players' accounts; the devices
that take web push notifications are listed.

A moderator holds auth.change_user only to do that: on the change page everything but
"active" is read-only for them, they cannot touch staff or superuser accounts nor set
passwords; superusers keep Django's full user admin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from accounts.models import PushSubscription

User = get_user_model()

admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    list_display = ("username", "email", "is_active", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_staff", "is_superuser", "groups")
    actions = ["suspend_accounts", "reactivate_accounts"]

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
        if request.user.is_superuser or obj is None:
            return super().get_readonly_fields(request, obj)
        return [
            name
            for _, options in self.get_fieldsets(request, obj)
            for name in options["fields"]
            if name != "is_active"
        ]

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

    @admin.action(description="Suspend the selected accounts", permissions=["change"])
    def suspend_accounts(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set_active(request, queryset, active=False)

    @admin.action(description="Reactivate the selected accounts", permissions=["change"])
    def reactivate_accounts(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        self._set_active(request, queryset, active=True)

    def _set_active(self, request: HttpRequest, queryset: QuerySet[Any], *, active: bool) -> None:
        allowed = [
            user
            for user in queryset
            if _may_moderate(request.user, user) and user.pk != request.user.pk
        ]
        refused = len(queryset) - len(allowed)
        changed = [user for user in allowed if user.is_active != active]
        for user in changed:
            user.is_active = active
            user.save(update_fields=["is_active"])
        done = "reactivated" if active else "suspended"
        self.message_user(request, f"{len(changed)} account(s) {done}.", messages.SUCCESS)
        if refused:
            self.message_user(
                request,
                f"{refused} account(s) left alone: your own, staff and superuser accounts are "
                "changed by a superuser only.",
                messages.WARNING,
            )


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
