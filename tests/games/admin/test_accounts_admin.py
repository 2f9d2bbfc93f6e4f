"""Moderators suspend and reactivate players' accounts, and can do nothing else to accounts."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.games.factories import make_user

pytestmark = pytest.mark.django_db

User = get_user_model()


def users_action(browser, name: str, users: list) -> object:
    return browser.post(
        reverse("admin:auth_user_changelist"),
        {"action": name, "_selected_action": [u.pk for u in users], "index": 0},
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
    assert "3 account(s) left alone" in response.content.decode()


def test_a_moderator_changes_nothing_but_whether_an_account_is_active(signed_in, moderator, alice):
    browser = signed_in(moderator)
    url = reverse("admin:auth_user_change", args=[alice.pk])
    text = browser.get(url).content.decode()
    assert 'name="is_active"' in text
    for field in ("username", "email", "is_staff", "is_superuser", "groups", "user_permissions"):
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
        False,
    )


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
