"""The WebSocket routes (backgammon_site/asgi.py), beside the HTTP ones of games/urls.py."""

from django.urls import path

from games.consumers import LobbyConsumer, MatchConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/matches/<id:match_id>/", MatchConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
]
