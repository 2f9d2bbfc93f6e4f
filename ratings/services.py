"""Rating a finished match: the only code that changes a player's rating.

The games app calls ``rate_match`` in the transaction that appends a match's final event, so a
match's result and the ratings it moves are committed together or not at all. It is told the
match as plain values, so ratings needs nothing of the games app.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from backgammon_site.core.variants import is_variant, unknown_variant_message
from ratings import fibs, glicko2
from ratings.models import PlayerRating, RatingChange


def rate_match(
    *,
    match_id: int,
    player_ids: tuple[int, int],
    winner_id: int | None,
    rated: bool,
    finished_at: datetime | None,
    match_length: int,
    variant: str,
) -> list[RatingChange]:
    """Rate match ``match_id`` if it is a rated match that finished with a winner; once only.

    The match moves the players' ratings in its ``variant`` (a Tavli match its ``tavli``
    rating), each player's first match in a variant starting that rating anew.

    ``player_ids`` are the two players' user ids, ``finished_at`` is None while the match is
    under way. A match awarded by a moderator or lost on time counts; a match ended without a
    winner (aborted) does not. Each player's match is one result against the opponent's rating
    before the match, weighted by its length in points (``glicko2.length_factor`` against the
    reference length in settings). The same match moves each player's FIBS rating and
    experience in the variant by FIBS's formula (``ratings.fibs``), against the opponent's FIBS
    rating before the match. Rating a match again does nothing: the changes it made are
    returned empty the second time.

    Takes the two players' rating rows in the variant with ``select_for_update``, in the order
    of their user ids, so two matches finishing at once with a player in common wait for each
    other rather than deadlock.
    """
    if not rated or finished_at is None or winner_id is None:
        return []
    with transaction.atomic():
        ratings = _locked_ratings(sorted(player_ids), variant)
        if RatingChange.objects.filter(match_id=match_id).exists():
            return []
        ready = {user_id: _widened(ratings[user_id], finished_at) for user_id in player_ids}
        fibs_before = {user_id: ratings[user_id].fibs_rating for user_id in player_ids}
        factor = glicko2.length_factor(match_length, settings.RATINGS["REFERENCE_MATCH_LENGTH"])
        changes = []
        for user_id, opponent_id in (player_ids, player_ids[::-1]):
            changes.append(
                _apply(
                    ratings[user_id],
                    ready[user_id],
                    ready[opponent_id],
                    score=1.0 if winner_id == user_id else 0.0,
                    factor=factor,
                    opponent_fibs_rating=fibs_before[opponent_id],
                    match_length=match_length,
                    match_id=match_id,
                    now=finished_at,
                )
            )
    return changes


def new_rating(user: Any, variant: str) -> PlayerRating:
    """The rating a player has in ``variant`` before their first rated match in it (not
    saved)."""
    return PlayerRating(user=user, variant=variant, **_new_values())


def _new_values() -> dict[str, float]:
    defaults = settings.RATINGS
    return {
        "rating": defaults["NEW_RATING"],
        "deviation": defaults["NEW_DEVIATION"],
        "volatility": defaults["NEW_VOLATILITY"],
    }


def _locked_ratings(user_ids: list[int], variant: str) -> dict[int, PlayerRating]:
    if not is_variant(variant):
        raise ValueError(unknown_variant_message(variant))
    for user_id in user_ids:
        PlayerRating.objects.get_or_create(user_id=user_id, variant=variant, defaults=_new_values())
    locked = PlayerRating.objects.select_for_update().filter(user_id__in=user_ids, variant=variant)
    return {rating.user_id: rating for rating in locked.order_by("user_id")}


def _widened(rating: PlayerRating, now: datetime) -> tuple[float, float, float]:
    return rating.rating, rating.deviation_at(now), rating.volatility


def _apply(
    rating: PlayerRating,
    mine: tuple[float, float, float],
    opponent: tuple[float, float, float],
    *,
    score: float,
    factor: float,
    opponent_fibs_rating: float,
    match_length: int,
    match_id: int,
    now: datetime,
) -> RatingChange:
    limits = settings.RATINGS
    fibs_rating, fibs_experience = fibs.rate(
        rating.fibs_rating,
        rating.fibs_experience,
        opponent_fibs_rating,
        match_length,
        won=score == 1.0,
    )
    value, deviation, volatility = glicko2.rate(
        *mine, [(opponent[0], opponent[1], score, factor)], tau=limits["TAU"]
    )
    deviation = min(max(deviation, limits["MIN_DEVIATION"]), limits["MAX_DEVIATION"])
    change = RatingChange.objects.create(
        user_id=rating.user_id,
        match_id=match_id,
        variant=rating.variant,
        rating_before=rating.rating,
        deviation_before=rating.deviation,
        volatility_before=rating.volatility,
        rating_after=value,
        deviation_after=deviation,
        volatility_after=volatility,
        fibs_rating_before=rating.fibs_rating,
        fibs_rating_after=fibs_rating,
        created_at=now,
    )
    rating.rating, rating.deviation, rating.volatility = value, deviation, volatility
    rating.fibs_rating, rating.fibs_experience = fibs_rating, fibs_experience
    rating.rated_matches += 1
    rating.last_rated_at = now
    rating.save(
        update_fields=[
            "rating",
            "deviation",
            "volatility",
            "rated_matches",
            "last_rated_at",
            "fibs_rating",
            "fibs_experience",
        ]
    )
    return change
