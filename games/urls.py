"""Routes of the games app: the match page, and the REST API under /api/."""

from django.urls import path

from games.api import challenges as challenges_api
from games.api import chat as chat_api
from games.api import downloads as downloads_api
from games.api import imports as imports_api
from games.api import leagues as leagues_api
from games.api import matches as api
from games.api import players as players_api
from games.api import streams as streams_api
from games.api import tournaments as tournaments_api
from games.views import chat as chat_views
from games.views import dice as dice_views
from games.views import match as match_views

match_urlpatterns = [
    path("matches/<id:match_id>/", match_views.match_page, name="match"),
    path("matches/<id:match_id>/act/", match_views.match_act, name="match-act"),
    path("matches/<id:match_id>/poll/", match_views.match_poll, name="match-poll"),
    path("matches/<id:match_id>/chat/", chat_views.match_chat_send, name="match-chat"),
    path(
        "matches/<id:match_id>/chat/messages/",
        chat_views.match_chat_messages,
        name="match-chat-messages",
    ),
    path(
        "matches/<id:match_id>/chat/<id:message_id>/report/",
        chat_views.match_chat_report,
        name="match-chat-report",
    ),
    path("matches/<id:match_id>/chat/mute/", chat_views.match_chat_mute, name="match-chat-mute"),
    path("matches/<id:match_id>/hand-over/", match_views.match_hand_over, name="match-hand-over"),
    path("matches/<id:match_id>/rematch/", match_views.match_rematch, name="match-rematch"),
    path(
        "matches/<id:match_id>/answer-ahead/",
        match_views.match_answer_ahead,
        name="match-answer-ahead",
    ),
    path("matches/<id:match_id>/dice/", dice_views.match_dice, name="match-dice"),
    path("dice/", dice_views.dice_statistics, name="dice-stats"),
]

api_urlpatterns = [
    path("matches/", api.MatchList.as_view(), name="api-matches"),
    path("matches/<id:match_id>/", api.MatchDetail.as_view(), name="api-match"),
    path("matches/<id:match_id>/actions/", api.MatchActions.as_view(), name="api-match-actions"),
    path("matches/<id:match_id>/stream", streams_api.match_states, name="api-match-stream"),
    path("stream/events", streams_api.player_events, name="api-stream-events"),
    path("matches/<id:match_id>/chat/", chat_api.MatchChat.as_view(), name="api-match-chat"),
    path("matches/<id:match_id>/mute/", chat_api.MatchMute.as_view(), name="api-match-mute"),
    path(
        "chat/<id:message_id>/report/",
        chat_api.ChatMessageReport.as_view(),
        name="api-chat-report",
    ),
    path("matches/<id:match_id>/events/", api.MatchEvents.as_view(), name="api-match-events"),
    path(
        "matches/<id:match_id>/answer-ahead/",
        api.MatchAnswerAhead.as_view(),
        name="api-match-answer-ahead",
    ),
    path("matches/<id:match_id>/dice/", api.MatchDice.as_view(), name="api-match-dice"),
    path("matches/<id:match_id>/rematch/", api.MatchRematch.as_view(), name="api-match-rematch"),
    path(
        "matches/<id:match_id>/analysis/",
        api.MatchAnalysisView.as_view(),
        name="api-match-analysis",
    ),
    path(
        "matches/<id:match_id>/export.mat",
        downloads_api.MatchExportMat.as_view(),
        name="api-match-export-mat",
    ),
    path(
        "matches/<id:match_id>/export.txt",
        downloads_api.MatchExportText.as_view(),
        name="api-match-export-text",
    ),
    path("imports/", imports_api.ImportCreate.as_view(), name="api-imports"),
    path("imports/<id:import_id>/", imports_api.ImportDetail.as_view(), name="api-import"),
    path(
        "imports/<id:import_id>/analysis/",
        imports_api.ImportAnalysisView.as_view(),
        name="api-import-analysis",
    ),
    path(
        "imports/<id:import_id>/export.mat",
        imports_api.ImportExportMat.as_view(),
        name="api-import-export-mat",
    ),
    path("challenges/", challenges_api.ChallengeListCreate.as_view(), name="api-challenges"),
    path("players/<str:username>/", players_api.PlayerDetail.as_view(), name="api-player"),
    path("leagues/", leagues_api.LeagueListCreate.as_view(), name="api-leagues"),
    path("leagues/<id:league_id>/", leagues_api.LeagueDetail.as_view(), name="api-league"),
    path(
        "leagues/<id:league_id>/seasons/<id:number>/",
        leagues_api.LeagueSeasonDetail.as_view(),
        name="api-league-season",
    ),
    path(
        "leagues/<id:league_id>/sign-up/",
        leagues_api.LeagueSignUp.as_view(),
        name="api-league-sign-up",
    ),
    path(
        "leagues/<id:league_id>/withdraw/",
        leagues_api.LeagueWithdraw.as_view(),
        name="api-league-withdraw",
    ),
    path("tournaments/", tournaments_api.TournamentListCreate.as_view(), name="api-tournaments"),
    path(
        "tournaments/<id:tournament_id>/",
        tournaments_api.TournamentDetail.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<id:tournament_id>/cancel/",
        tournaments_api.TournamentCancel.as_view(),
        name="api-tournament-cancel",
    ),
    path(
        "tournaments/<id:tournament_id>/sign-up/",
        tournaments_api.TournamentSignUp.as_view(),
        name="api-tournament-sign-up",
    ),
    path(
        "tournaments/<id:tournament_id>/withdraw/",
        tournaments_api.TournamentWithdraw.as_view(),
        name="api-tournament-withdraw",
    ),
    path(
        "challenges/<id:challenge_id>/accept/",
        challenges_api.ChallengeAccept.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "challenges/<id:challenge_id>/decline/",
        challenges_api.ChallengeDecline.as_view(),
        name="api-challenge-decline",
    ),
    path(
        "challenges/<id:challenge_id>/cancel/",
        challenges_api.ChallengeCancel.as_view(),
        name="api-challenge-cancel",
    ),
]
