"""The WebSocket routes (backgammon_site/asgi.py), beside the HTTP ones of games/urls.py."""

from django.urls import path, re_path

from games.consumers import LobbyConsumer, MatchConsumer, NoPage, TournamentConsumer

websocket_urlpatterns = [
    path("ws/matches/<id:match_id>/", MatchConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    # Last: any other path is closed as not found, where the router would raise (a 500).
    re_path(r"", NoPage.as_asgi()),
]
