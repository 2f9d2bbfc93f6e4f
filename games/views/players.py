"""A player's public profile: their rating and its history, their record, their active matches
and their recent ones."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.rewards import unlocked_rewards
from games import selectors
from games.engine import state_from_snapshot
from games.models import Match
from games.services.league_tables import leagues_of_player
from games.views.match_rows import match_rows
from ratings import selectors as rating_selectors
from ratings.chart import rating_chart

RECENT = 20
RECENT_RATING_CHANGES = 10


def player_named(username: str) -> Any:
    """The player called ``username``; Http404 when there is none.

    A name no account can have (with a NUL character, which PostgreSQL refuses in a query,
    or longer than any username) is not looked up at all.
    """
    users = get_user_model()
    longest = users._meta.get_field(users.USERNAME_FIELD).max_length
    player = None
    if "\x00" not in username and len(username) <= longest:
        player = users.objects.select_related("profile").filter(username=username).first()
    if player is None:
        raise Http404("No such player.")
    return player


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = player_named(username)
    viewer = request.user if request.user.is_authenticated else None
    name = player.get_username()
    active = selectors.matches_for_list(player=name, status=Match.Status.ACTIVE)
    recent = selectors.matches_for_list(player=name, status=Match.Status.FINISHED)[:RECENT]
    history = rating_selectors.rating_history(player)
    # The chart starts from the rating before the first rated match.
    ratings = [history[0].rating_before] if history else []
    ratings += [change.rating_after for change in history]
    return render(
        request,
        "games/profile.html",
        {
            "player": player,
            "is_you": viewer is not None and viewer.pk == player.pk,
            "record": record_of(player),
            "rating": rating_selectors.rating_of(player),
            "rating_chart": rating_chart(ratings),
            "rating_changes": rating_change_rows(history[::-1][:RECENT_RATING_CHANGES], player),
            "active_rows": match_rows(active, viewer, about=player),
            "recent_rows": match_rows(recent, viewer, about=player),
            "rewards": unlocked_rewards(player),
            "tournaments": selectors.tournaments_of_player(player)[:RECENT],
            "leagues": leagues_of_player(player)[:RECENT],
        },
    )


def record_of(player: Any) -> dict[str, int]:
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


def rating_change_rows(changes: list[Any], player: Any) -> list[dict[str, Any]]:
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
                "won": match.winner_id == player.pk,
            }
        )
    return rows
