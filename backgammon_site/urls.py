"""URL routes of the whole site."""

from csp.constants import NONCE, SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from django.views.decorators.cache import never_cache
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from accounts import api as accounts_api
from accounts import logins, push_api
from accounts import views as accounts_views
from backgammon_site.core.caching import viewer_independent
from games.api import leaderboard as leaderboard_api
from games.api import vacation as vacation_api
from games.urls import api_urlpatterns, match_urlpatterns
from games.views import install as install_views
from games.views import leaderboard as leaderboard_views
from games.views import vacation as vacation_views
from ratings import api as ratings_api

# Swagger UI's page style carries the nonce (templates/drf_spectacular/swagger_ui.html). Redoc
# writes its styles into <style> elements as it draws and searches in a worker made from a
# blob: URL: its page alone allows both. It shows only the schema.
swagger_policy = csp_update({"style-src": [NONCE]})
redoc_policy = csp_update({"style-src": [UNSAFE_INLINE], "worker-src": [SELF, "blob:"]})

api = [
    # The answer carries a new token's secret: no cache keeps it.
    path("auth/token/", never_cache(accounts_api.TokenCreate.as_view()), name="api-token"),
    path("auth/token/revoke/", accounts_api.TokenRevoke.as_view(), name="api-token-revoke"),
    path("vacation/", vacation_api.Vacation.as_view(), name="api-vacation"),
    path(
        "push-subscriptions/",
        push_api.PushSubscriptions.as_view(),
        name="api-push-subscriptions",
    ),
    path(
        "push-subscriptions/remove/",
        push_api.PushSubscriptionRemove.as_view(),
        name="api-push-subscription-remove",
    ),
    *api_urlpatterns,
    path("leaderboard/", leaderboard_api.Leaderboard.as_view(), name="api-leaderboard"),
    path(
        "players/<str:username>/ratings/",
        ratings_api.PlayerRatings.as_view(),
        name="api-player-ratings",
    ),
    path("schema/", viewer_independent(SpectacularAPIView.as_view()), name="api-schema"),
    path(
        "docs/",
        swagger_policy(SpectacularSwaggerSplitView.as_view(url_name="api-schema")),
        name="api-docs",
    ),
    path(
        "redoc/",
        viewer_independent(redoc_policy(SpectacularRedocView.as_view(url_name="api-schema"))),
        name="api-redoc",
    ),
]

# The admin's login counts failures as every login does (accounts/logins.py).
admin.site.login_form = logins.AdminLoginForm

urlpatterns = [
    path("admin/login/", logins.admin_login),
    # At the root, so that the service worker's scope (and the installed app's) is the whole site.
    path("sw.js", install_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", install_views.manifest, name="manifest"),
    path("offline/", install_views.offline, name="offline"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("settings/", include("accounts.urls")),
    path("language/", accounts_views.language_switch, name="language-switch"),
    path("settings/vacation/", vacation_views.vacation, name="vacation"),
    path("api/", include(api)),
    path("leaderboard/", leaderboard_views.leaderboard, name="leaderboard"),
    path("", include("games.views.urls")),
    *match_urlpatterns,
]

handler400 = "backgammon_site.core.api_errors.bad_request"
handler403 = "backgammon_site.core.api_errors.permission_denied"
handler404 = "backgammon_site.core.api_errors.page_not_found"
handler500 = "backgammon_site.core.api_errors.server_error"
