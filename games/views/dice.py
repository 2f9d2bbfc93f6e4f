"""Pages about the dice: one match's verification, and statistics of every roll on the site."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.dice import statistics
from games.dice.verification import check_dice
from games.views.match import match_or_404
from games.views.players import player_named


@require_GET
def match_dice(request: HttpRequest, match_id: int) -> HttpResponse:
    match = match_or_404(request, match_id)
    events = match.events.order_by("seq").values_list("seq", "kind", "payload")
    return render(request, "games/match_dice.html", {"match": match, "check": check_dice(events)})


@require_GET
def dice_statistics(request: HttpRequest) -> HttpResponse:
    name = request.GET.get("player", "").strip()
    player = player_named(name) if name else None
    report = statistics.report(statistics.scope_of(None if player is None else player.pk))
    faces = [(face, report.faces[face]) for face in range(1, 7)]
    pairs = [
        [(first, second, report.pairs[(first, second)]) for second in range(1, 7)]
        for first in range(1, 7)
    ]
    return render(
        request,
        "games/dice_statistics.html",
        {"player": player, "report": report, "faces": faces, "pairs": pairs},
    )
