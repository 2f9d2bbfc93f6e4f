"""The leaderboard page: established players by rating."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ratings import selectors

PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    page = Paginator(selectors.leaderboard(), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(page.start_index() + index, rating) for index, rating in enumerate(page)]
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "page": page,
            "rows": rows,
            "threshold": selectors.provisional_threshold(),
            "period_days": settings.RATINGS["PERIOD_DAYS"],
        },
    )
