"""The service's URLs plus the floors that `manage.py loadtest` measures the others against
(``floors``): only its own gunicorn serves them."""

from django.urls import path

from backgammon_site.urls import urlpatterns as service_urlpatterns
from games.management.loadtest.floors import FloorWrite, bare_page, signed_in_page

urlpatterns = [
    path("loadtest/bare/", bare_page, name="loadtest-bare"),
    path("loadtest/bare-auth/", signed_in_page, name="loadtest-bare-auth"),
    path("api/loadtest/floor/", FloorWrite.as_view(), name="loadtest-floor"),
    *service_urlpatterns,
]
