"""Who acts on a match and who looks, for type hints: the site's account model (Django's own
user), and a visitor who is not signed in."""

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User

Player: TypeAlias = User
"""An account that plays, directs, moderates or writes: every actor of the services."""

#: Who looks at a match: a user (a player, a spectator) or a visitor who is not signed in.
Viewer: TypeAlias = Player | AnonymousUser | None
