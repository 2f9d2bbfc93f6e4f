"""``/healthz``: the load balancer's check that a web process serves.

It answers 200 before any other middleware, so neither the redirect to HTTPS nor the check of
the Host header (the balancer asks over plain http, by the server's address) turns it into a
301 or a 400 that would mark every server down. It says only that the process answers
requests; what it reaches beyond (PostgreSQL, Redis, the workers) is ``manage.py health``'s to
say: a balancer that took every server out while Redis restarts would turn a blip into an
outage.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotAllowed

PATH = "/healthz"


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponseNotAllowed(["GET", "HEAD"])
        response = HttpResponse("ok\n", content_type="text/plain")
        response["Cache-Control"] = "no-store"
        return response
