"""The URLs of `manage.py loadtest`'s own server (backgammon_site/settings/loadtest.py): the
service's, plus the yardstick pages the scenarios are measured against."""

from backgammon_site.urls import urlpatterns as service_urlpatterns
from games.management.loadtest.urls import urlpatterns as yardstick_urlpatterns

urlpatterns = [*yardstick_urlpatterns, *service_urlpatterns]
