"""A player's name as pages show it: ``{% load names %}`` then ``{{ user|player_name }}``."""

from __future__ import annotations

from typing import Any

from django import template

from accounts import names

register = template.Library()


@register.filter
def player_name(user: Any) -> str:
    """The display name ``user`` chose, else their username (accounts.names)."""
    return names.player_name(user)
