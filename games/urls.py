"""Routes of the games app: the REST API under /api/."""

from django.urls import path

from games import api

api_urlpatterns = [
    path("matches/", api.MatchList.as_view(), name="api-matches"),
    path("matches/<int:match_id>/", api.MatchDetail.as_view(), name="api-match"),
    path("matches/<int:match_id>/actions/", api.MatchActions.as_view(), name="api-match-actions"),
    path("matches/<int:match_id>/events/", api.MatchEvents.as_view(), name="api-match-events"),
    path("challenges/", api.ChallengeListCreate.as_view(), name="api-challenges"),
    path(
        "challenges/<int:challenge_id>/accept/",
        api.ChallengeAccept.as_view(),
        name="api-challenge-accept",
    ),
    path(
        "challenges/<int:challenge_id>/decline/",
        api.ChallengeDecline.as_view(),
        name="api-challenge-decline",
    ),
    path(
        "challenges/<int:challenge_id>/cancel/",
        api.ChallengeCancel.as_view(),
        name="api-challenge-cancel",
    ),
]
