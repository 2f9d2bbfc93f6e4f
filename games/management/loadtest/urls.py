"""The yardstick pages of `manage.py loadtest`, served beside the service's URLs by its own
server only (backgammon_site/loadtest_urls.py)."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path


def bare_page(request: HttpRequest) -> HttpResponse:
    """A trivial template through the whole middleware stack, and no query."""
    return render(request, "loadtest/bare.html", {"title": "Bare page"})


urlpatterns = [path("loadtest/bare/", bare_page, name="loadtest-bare")]
