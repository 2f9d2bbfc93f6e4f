"""The names players are shown by: the display name they chose, else their username.

Usernames stay unique and are what URLs, the API and the board's markup name a player by;
pages show ``player_name(user)`` (``{{ user|player_name }}`` in templates), so a guest reads
"Guest 3" and a pass-and-play seat "Dad" although their usernames carry a random tag.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

#: The longest display name, in characters.
DISPLAY_NAME_LENGTH = 30


def player_name(user: Any | None) -> str:
    """The name pages show for ``user`` (select ``profile`` with lists of users)."""
    if user is None:
        return ""
    try:
        chosen, program = user.profile.display_name, user.profile.is_program
    except ObjectDoesNotExist:
        chosen, program = "", False
    name = chosen or user.get_username()
    return _("%(name)s (program)") % {"name": name} if program else name


def match_names(first: Any, second: Any) -> tuple[str, str]:
    """The two players of a match as its pages show them; two players who chose the same name
    (a pass-and-play "Sam" against "Sam") are told apart as "Sam" and "Sam (2)"."""
    names = player_name(first), player_name(second)
    if names[0] == names[1]:
        return names[0], f"{names[1]} (2)"
    return names


def clean_display_name(name: str) -> str:
    """Letters, digits, spaces, dots, dashes, underscores and apostrophes, spaces squeezed,
    at most DISPLAY_NAME_LENGTH of them."""
    kept = re.sub(r"[^\w .'-]", "", name)
    return re.sub(r"\s+", " ", kept).strip()[:DISPLAY_NAME_LENGTH].strip()
