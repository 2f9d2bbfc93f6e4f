"""The Expert's crown beside a player's name: ``{% crown flag %}`` or ``{% crown user|crowned %}``.

Every place that shows a player's name adds the crown this one way.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst

from accounts.rewards import CROWN_LABEL, wears_crown

register = template.Library()


@register.simple_tag
def crown(crowned: bool) -> SafeString | str:
    """The crown, when ``crowned``; nothing otherwise."""
    if not crowned:
        return ""
    return format_html(
        '<span class="crown" role="img" aria-label="{}" title="{}" data-crowned>♛</span>',
        CROWN_LABEL,
        capfirst(CROWN_LABEL),
    )


@register.filter
def crowned(user: Any) -> bool:
    """Whether ``user`` wears the crown (load ``user__profile`` with lists of users)."""
    return wears_crown(user)
