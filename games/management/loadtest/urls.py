"""The service's URLs plus the bare page that `manage.py loadtest` measures the others against."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from backgammon_site.urls import urlpatterns as service_urlpatterns


def bare_page(request: HttpRequest) -> HttpResponse:
    """A trivial template through the whole middleware stack, and no query."""
    return render(request, "loadtest/bare.html", {"title": "Bare page"})


urlpatterns = [path("loadtest/bare/", bare_page, name="loadtest-bare"), *service_urlpatterns]
