"""The leaderboard page: established players by rating, in one variant at a time, each with
their record of timeouts. It lives in games, not ratings, because that record is read from
games' matches (ratings never imports games)."""

from __future__ import annotations

from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.variants import Variant, variant_asked
from games.selectors import timeout_records
from ratings import selectors

PAGE_SIZE = 50


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    context = {
        "variants": Variant.choices,
        "threshold": selectors.provisional_threshold(),
        "period_days": settings.RATINGS["PERIOD_DAYS"],
    }
    try:
        variant = variant_asked(request.GET.get("variant"))
    except ApplicationError as error:
        return render(
            request, "ratings/leaderboard.html", {**context, "error": error.message}, status=400
        )
    page = Paginator(selectors.leaderboard(variant), PAGE_SIZE).get_page(request.GET.get("page"))
    timeouts = timeout_records(rating.user for rating in page)
    rows = [
        (page.start_index() + index, rating, timeouts[rating.user.pk])
        for index, rating in enumerate(page)
    ]
    return render(
        request,
        "ratings/leaderboard.html",
        {
            **context,
            "variant": variant,
            "variant_label": Variant(variant).label,
            "page": page,
            "rows": rows,
        },
    )
