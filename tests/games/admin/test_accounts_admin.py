"""Moderators suspend and reactivate players' accounts, through the services (a reason, an
audit record), and can do nothing else to accounts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import AuditRecord
from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

User = get_user_model()


def users_action(browser, name: str, users: list, **fields: str) -> object:
    """The action ``name`` on ``users``, confirmed with ``fields`` (a reason by default)."""
    fields = {"reason": "Spam", "running_matches": "forfeit", **fields}
    return browser.post(
        reverse("admin:auth_user_changelist"),
        {"action": name, "_selected_action": [u.pk for u in users], "apply": "yes", **fields},
        follow=True,
    )


def active(user) -> bool:
    return User.objects.get(pk=user.pk).is_active


def test_a_moderator_suspends_and_reactivates_a_player(signed_in, moderator, alice, bob):
    browser = signed_in(moderator)
    alice.set_password("secret-pass-1")
    alice.save()
    users_action(browser, "suspend_accounts", [alice, bob])
    assert not active(alice) and not active(bob)
    assert not signed_in(moderator).login(username="alice", password="secret-pass-1")
    users_action(browser, "reactivate_accounts", [alice])
    assert active(alice) and not active(bob)


def test_a_suspended_player_is_signed_out(signed_in, moderator, alice):
    player = signed_in(alice)
    assert player.get(reverse("api-tokens")).status_code == 200
    users_action(signed_in(moderator), "suspend_accounts", [alice])
    assert player.get(reverse("api-tokens")).status_code == 302


def test_staff_superusers_and_oneself_are_left_alone(signed_in, moderator, superuser, alice):
    other_staff = make_user("clerk", is_staff=True)
    response = users_action(
        signed_in(moderator), "suspend_accounts", [moderator, superuser, other_staff, alice]
    )
    assert active(moderator) and active(superuser) and active(other_staff)
    assert not active(alice)
    assert response.content.decode().count("only a superuser") == 3


def test_no_one_changes_whether_an_account_is_active_on_its_page(
    signed_in, moderator, superuser, alice
):
    browser = signed_in(moderator)
    url = reverse("admin:auth_user_change", args=[alice.pk])
    text = browser.get(url).content.decode()
    for field in (
        "is_active",
        "username",
        "email",
        "is_staff",
        "is_superuser",
        "groups",
        "user_permissions",
    ):
        assert f'name="{field}"' not in text
    user_form = text.split('id="user_form"')[1].split("</form>")[0].lower()
    hasher = alice.password.split("$")[0]
    assert "password" not in user_form and hasher not in user_form
    browser.post(url, {"is_active": "", "is_staff": "on", "is_superuser": "on", "username": "x"})
    alice = User.objects.get(pk=alice.pk)
    assert (alice.username, alice.is_staff, alice.is_superuser, alice.is_active) == (
        "alice",
        False,
        False,
        True,
    )
    assert 'name="is_active"' not in signed_in(superuser).get(url).content.decode()


def test_suspending_asks_for_a_reason_first(signed_in, moderator, alice):
    browser = signed_in(moderator)
    page = browser.post(
        reverse("admin:auth_user_changelist"),
        {"action": "suspend_accounts", "_selected_action": [alice.pk], "index": 0},
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="reason"' in text and 'name="running_matches"' in text
    assert active(alice)
    users_action(browser, "suspend_accounts", [alice], reason="  ")
    assert active(alice)
    assert not AuditRecord.objects.exists()


def test_a_suspension_from_the_admin_is_audited(signed_in, moderator, alice):
    users_action(signed_in(moderator), "suspend_accounts", [alice], running_matches="pause")
    record = AuditRecord.objects.get()
    assert (record.acting_user, record.modified_user, record.reason) == (moderator, alice, "Spam")
    assert record.details["running_matches"] == "pause"


def test_a_moderator_cannot_set_passwords_or_edit_staff(signed_in, moderator, superuser, alice):
    browser = signed_in(moderator)
    assert (
        browser.get(reverse("admin:auth_user_password_change", args=[alice.pk])).status_code == 403
    )
    assert (
        browser.post(
            reverse("admin:auth_user_password_change", args=[alice.pk]),
            {"password1": "new-secret-9", "password2": "new-secret-9", "usable_password": "true"},
        ).status_code
        == 403
    )
    url = reverse("admin:auth_user_change", args=[superuser.pk])
    assert browser.post(url, {"is_active": ""}).status_code == 403
    assert active(superuser)
    assert browser.get(reverse("admin:auth_user_add")).status_code == 403
    assert (
        browser.post(
            reverse("admin:auth_user_delete", args=[alice.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
