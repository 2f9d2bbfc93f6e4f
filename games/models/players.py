"""Who acts on a match, for type hints: the site's account model (Django's own user)."""

from typing import TypeAlias

from django.contrib.auth.models import User

Player: TypeAlias = User
"""An account that plays, directs, moderates or writes: every actor of the services."""
