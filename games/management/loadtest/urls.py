"""The yardstick pages of `manage.py loadtest` (``floors``), served beside the service's URLs by
its own server only (backgammon_site/loadtest_urls.py)."""

from django.urls import path

from games.management.loadtest.floors import FloorWrite, bare_page, signed_in_page

urlpatterns = [
    path("loadtest/bare/", bare_page, name="loadtest-bare"),
    path("loadtest/bare-auth/", signed_in_page, name="loadtest-bare-auth"),
    path("api/loadtest/floor/", FloorWrite.as_view(), name="loadtest-floor"),
]
