"""Routes of the pages around the match page: the lobby, challenges, watching, replays, profiles,
tournaments and leagues.

The match page's own routes (``match``, ``match-act``, ...) are in games/urls.py.
"""

from django.urls import path

from games.views import (
    casual,
    directors,
    imports,
    leagues,
    lobby,
    players,
    positions,
    replay,
    rules,
    tournaments,
    watch,
)

urlpatterns = [
    path("", lobby.lobby, name="home"),
    path("next/", lobby.next_match, name="next-match"),
    path("play/computer/", casual.play_computer, name="play-computer"),
    path("play/pass-and-play/", casual.pass_and_play, name="pass-and-play"),
    path("challenges/new/", lobby.challenge_create, name="challenge-create"),
    path("challenges/<id:challenge_id>/accept/", lobby.challenge_accept, name="challenge-accept"),
    path(
        "challenges/<id:challenge_id>/decline/",
        lobby.challenge_decline,
        name="challenge-decline",
    ),
    path("challenges/<id:challenge_id>/cancel/", lobby.challenge_cancel, name="challenge-cancel"),
    path("matches/", watch.watch, name="watch"),
    path("matches/<id:match_id>/replay/", replay.replay, name="match-replay"),
    path(
        "matches/<id:match_id>/replay/analyse/",
        replay.replay_analyse,
        name="match-replay-analyse",
    ),
    path("positions/", positions.positions, name="positions"),
    path("rules/", rules.rules_index, name="rules-index"),
    path("rules/<str:variant>/", rules.rules_page, name="rules"),
    path("imports/", imports.import_new, name="import-new"),
    path("imports/<id:import_id>/", imports.import_replay, name="import-replay"),
    path(
        "imports/<id:import_id>/analyse/",
        imports.import_replay_analyse,
        name="import-replay-analyse",
    ),
    path("players/<str:username>/", players.profile, name="profile"),
    path("leagues/", leagues.league_list, name="leagues"),
    path("leagues/new/", leagues.league_new, name="league-new"),
    path("leagues/<id:league_id>/", leagues.league_page, name="league"),
    path(
        "leagues/<id:league_id>/seasons/<id:number>/",
        leagues.league_season_page,
        name="league-season",
    ),
    path("leagues/<id:league_id>/sign-up/", leagues.league_sign_up, name="league-sign-up"),
    path("leagues/<id:league_id>/withdraw/", leagues.league_withdraw, name="league-withdraw"),
    path(
        "leagues/<id:league_id>/remove-player/",
        directors.league_remove_player,
        name="league-remove-player",
    ),
    path(
        "tournaments/<id:tournament_id>/remove-player/",
        directors.tournament_remove_player,
        name="tournament-remove-player",
    ),
    path("tournaments/", tournaments.tournament_list, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<id:tournament_id>/", tournaments.tournament_page, name="tournament"),
    path(
        "tournaments/<id:tournament_id>/sign-up/",
        tournaments.tournament_sign_up,
        name="tournament-sign-up",
    ),
    path(
        "tournaments/<id:tournament_id>/withdraw/",
        tournaments.tournament_withdraw,
        name="tournament-withdraw",
    ),
    path(
        "tournaments/<id:tournament_id>/cancel/",
        tournaments.tournament_cancel,
        name="tournament-cancel",
    ),
]
