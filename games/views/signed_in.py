"""The request a view behind ``login_required`` answers, for type hints: its user is a Player."""

from django.http import HttpRequest

from games.models import Player


class SignedInRequest(HttpRequest):
    user: Player
