"""The rules pages: one per variant (and Tavli), told from the Variant the engine plays by, with
the variant's starting board drawn by the board template."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from backgammon_site.core.variants import variant_other_names, variant_title
from games.engine.board import Board
from games.engine.variants import (
    MATCH_VARIANTS,
    Landing,
    MatchFormat,
    Track,
    Variant,
)
from games.views.board import board_svg, draw_board


def rules_index(request: HttpRequest) -> HttpResponse:
    """Every variant's rules page, in the order the site lists the variants."""
    pages = [
        (name, variant_title(name), ", ".join(variant_other_names(name))) for name in MATCH_VARIANTS
    ]
    return render(request, "games/rules_index.html", {"pages": pages})


def rules_page(request: HttpRequest, variant: str) -> HttpResponse:
    """The rules of ``variant``: a variant's own, or a rotation's (Tavli) page."""
    kind = MATCH_VARIANTS.get(variant)
    if kind is None:
        raise Http404(f"There is no variant {variant!r}.")
    if kind.rotates():
        games = [(v.name, variant_title(v.name)) for v in kind.games]
        return render(request, "games/rules_tavli.html", {"games": games})
    rules = kind.games[0]
    start = draw_board(Board.starting(rules), side=0, names=(_("You"), _("Your opponent")))
    return render(
        request,
        "games/rules_variant.html",
        {
            "variant": rules,
            "variant_title": variant_title(rules.name),
            "other_names": ", ".join(variant_other_names(rules.name)),
            "facts": rule_facts(rules),
            "start_board": board_svg(start),
        },
    )


def rule_facts(variant: Variant) -> dict[str, object]:
    """What the page says of ``variant``, read from its rules (docs/variants.md)."""
    return {
        "start": [
            {"point": point, "count": count} for point, count in sorted(variant.start, reverse=True)
        ],
        "same_way": variant.track is Track.SAME_WAY,
        "hits": variant.landing is Landing.HIT,
        "pins": variant.landing is Landing.PIN,
        "one_holds": variant.landing is Landing.FORBIDDEN,
        "tavli_game": MatchFormat.TAVLI_POINTS in variant.match_formats,
        "head_doubles": "-".join(str(d) for d in sorted(variant.first_turn_two_from_head)),
    }
