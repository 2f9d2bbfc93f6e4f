"""A tournament in a variant: its matches are played in it, and its seeds and rating limits go
by the players' ratings in it."""

from __future__ import annotations

from typing import Any

import pytest

from backgammon_site.core.errors import ApplicationError
from games.models import BracketMatch, Tournament, TournamentEntry
from games.services import tournament_sign_up
from ratings.models import PlayerRating
from tests.games.factories import make_user
from tests.games.services.test_tournaments import knockout

pytestmark = pytest.mark.django_db


def rated_in(name: str, ratings: dict[str, float]) -> Any:
    player = make_user(name, email=f"{name}@example.com")
    for variant, rating in ratings.items():
        PlayerRating.objects.create(
            user=player, variant=variant, rating=rating, deviation=60, volatility=0.06
        )
    return player


def test_a_plakoto_knockout_is_seeded_by_plakoto_ratings_and_plays_plakoto(
    moderator: Any,
) -> None:
    tournament = knockout(moderator, size=4, variant="plakoto")
    # Backgammon ratings the other way round: they must not count.
    players = [
        rated_in("ann", {"plakoto": 1400, "backgammon": 2000}),
        rated_in("ben", {"plakoto": 1700, "backgammon": 1300}),
        rated_in("cat", {"backgammon": 2100}),  # no plakoto rating: a new player's 1500
        rated_in("dan", {"plakoto": 1600}),
    ]
    for player in players:
        tournament_sign_up(tournament_id=tournament.pk, player=player)
    seeds = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list(
            "player__username", "seed"
        )
    )
    assert seeds == {"ben": 1, "dan": 2, "cat": 3, "ann": 4}
    ratings = dict(
        TournamentEntry.objects.filter(tournament=tournament).values_list(
            "player__username", "rating"
        )
    )
    assert ratings == {"ben": 1700, "dan": 1600, "cat": 1500, "ann": 1400}
    matches = [row.match for row in BracketMatch.objects.filter(tournament=tournament, round=1)]
    assert [match.variant for match in matches] == ["plakoto", "plakoto"]
    assert all(not match.state["rules"]["cube"] for match in matches)


def test_the_rating_limits_use_the_variants_rating(moderator: Any) -> None:
    tournament = knockout(moderator, variant="nackgammon", min_rating=1600)
    strong_elsewhere = rated_in("eve", {"backgammon": 1900, "nackgammon": 1450})
    with pytest.raises(ApplicationError) as refusal:
        tournament_sign_up(tournament_id=tournament.pk, player=strong_elsewhere)
    assert refusal.value.code == "rating_outside_limits"
    assert "Nackgammon rating, 1450" in refusal.value.message
    assert not TournamentEntry.objects.exists()
    tournament_sign_up(tournament_id=tournament.pk, player=rated_in("fay", {"nackgammon": 1650}))
    assert TournamentEntry.objects.count() == 1


def test_a_variant_that_is_none_of_ours_is_refused(moderator: Any) -> None:
    with pytest.raises(ApplicationError) as refusal:
        knockout(moderator, variant="chess")
    assert refusal.value.code == "variant" and "no variant 'chess'" in refusal.value.message
    assert not Tournament.objects.exists()
