"""A player's public profile: their rating and its history, their record, their active matches
and their recent ones."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.names import player_name
from accounts.rewards import unlocked_rewards
from backgammon_site.core.errors import ApplicationError
from backgammon_site.core.variants import DEFAULT_VARIANT, Variant, variant_asked
from games import selectors, services
from games.engine import state_from_snapshot
from games.models import Match, Player
from games.services.league_tables import leagues_of_player
from games.views.match_rows import match_rows
from ratings import selectors as rating_selectors
from ratings.chart import rating_chart

RECENT = 20
RECENT_RATING_CHANGES = 10


def player_named(username: str) -> Any:
    """The player called ``username``; Http404 when there is none."""
    player = selectors.player_by_name(username)
    if player is None:
        raise Http404("No such player.")
    return player


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = player_named(username)
    viewer = request.user if request.user.is_authenticated else None
    name = player.get_username()
    active = selectors.matches_for_list(viewer=viewer, player=name, status=Match.Status.ACTIVE)
    recent = selectors.matches_for_list(viewer=viewer, player=name, status=Match.Status.FINISHED)[
        :RECENT
    ]
    asked, variant, error = request.GET.get("variant"), None, None
    try:
        variant = None if asked is None else variant_asked(asked)
    except ApplicationError as refusal:
        error = refusal.message
    timeouts = services.timeout_record(player)
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "is_you": viewer is not None and viewer.pk == player.pk,
            "record": record_of(player),
            "timeouts": timeouts,
            "dropper": services.is_dropper(timeouts),
            "variant": variant,
            "variant_error": error,
            "variants": Variant.choices,
            "ratings": rating_sections(player, variant),
            "active_rows": match_rows(active, viewer, about=player),
            "recent_rows": match_rows(recent, viewer, about=player),
            "rewards": unlocked_rewards(player),
            "tournaments": selectors.tournaments_of_player(player)[:RECENT],
            "leagues": leagues_of_player(player)[:RECENT],
        },
        status=200 if error is None else 400,
    )


def record_of(player: Player) -> dict[str, int]:
    """Matches won, lost and ended without a winner, and games won and lost in all matches."""
    mine = Match.objects.filter(Q(first_player=player) | Q(second_player=player))
    finished = Q(status=Match.Status.FINISHED)
    record: dict[str, int] = mine.aggregate(
        matches_won=Count("pk", filter=finished & Q(winner=player)),
        matches_lost=Count("pk", filter=finished & Q(winner__isnull=False) & ~Q(winner=player)),
        matches_without_winner=Count("pk", filter=finished & Q(winner__isnull=True)),
        matches_active=Count("pk", filter=Q(status=Match.Status.ACTIVE)),
    )
    games_won = games_lost = 0
    # Games are kept in each match's snapshot, not in columns: one read of the snapshots.
    for first_player_id, snapshot in mine.values_list("first_player_id", "state").iterator():
        index = 0 if first_player_id == player.pk else 1
        for game in state_from_snapshot(snapshot).games:
            if game.winner == index:
                games_won += 1
            elif game.winner is not None:
                games_lost += 1
    record.update(games_won=games_won, games_lost=games_lost)
    return record


def rating_sections(player: Player, variant: str | None) -> list[dict[str, Any]]:
    """The player's ratings as the profile shows them, each with its chart and latest changes:
    every variant they have played rated (their starting backgammon rating if none), or the
    one ``variant`` asked for."""
    if variant is None:
        ratings = rating_selectors.ratings_of_player(player) or [
            rating_selectors.rating_in(player, DEFAULT_VARIANT)
        ]
    else:
        ratings = [rating_selectors.rating_in(player, variant)]
    histories = rating_selectors.rating_histories(player, variant)
    sections = []
    for rating in ratings:
        history = histories.get(rating.variant, [])
        # The chart starts from the rating before the first rated match.
        points = [history[0].rating_before] if history else []
        points += [change.rating_after for change in history]
        sections.append(
            {
                "variant": rating.variant,
                "label": Variant(rating.variant).label,
                "rating": rating,
                "chart": rating_chart(points),
                "changes": rating_change_rows(history[::-1][:RECENT_RATING_CHANGES], player),
            }
        )
    return sections


def rating_change_rows(changes: list[Any], player: Player) -> list[dict[str, Any]]:
    """Rating changes as the profile lists them: the match, the opponent, the result."""
    rows = []
    for change in changes:
        match = change.match
        opponent = match.second_player if match.first_player_id == player.pk else match.first_player
        rows.append(
            {
                "change": change,
                "match_id": match.pk,
                "opponent": opponent.get_username(),
                "opponent_name": player_name(opponent),
                "won": match.winner_id == player.pk,
            }
        )
    return rows
