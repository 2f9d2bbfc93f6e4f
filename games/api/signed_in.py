"""The request an API view open only to signed-in players answers, for type hints (its
permission is ``IsAuthenticated``, or ``IsAuthenticatedOrReadOnly`` for a write): its user is a
Player."""

from rest_framework.request import Request

from games.models import Player


class SignedInRequest(Request):
    user: Player  # type: ignore[assignment]  # narrower than Request's user property, as intended
