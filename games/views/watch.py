"""The watch list: ongoing matches anyone may follow, newest activity first; or finished ones."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import selectors
from games.models import Match
from games.views.match_rows import match_rows

PAGE_SIZE = 20


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    finished = request.GET.get("status") == Match.Status.FINISHED
    status = Match.Status.FINISHED if finished else Match.Status.ACTIVE
    matches = selectors.matches_for_list(status=status)
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    viewer = request.user if request.user.is_authenticated else None
    return render(
        request,
        "games/watch.html",
        {"page": page, "rows": match_rows(page.object_list, viewer), "finished": finished},
    )
