"""One rating per player per variant: a match moves its variant's rating alone, and every
reader (leaderboard, profile, match lists, API) reads the variant asked for."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from games import services
from games.engine import MatchRules
from games.engine.variants import MATCH_VARIANTS
from games.models import Match
from games.views.match_rows import match_rows
from ratings import selectors
from ratings.models import PlayerRating, RatingChange
from tests.games.factories import make_user, reload

pytestmark = pytest.mark.django_db


def awarded_in(variant: str, dice: Any, moderator: Any, winner: Any, loser: Any) -> Match:
    """A rated ``variant`` match a moderator awards to ``winner``."""
    for _ in range(4):
        dice.add(3, 1)
    match = services.match_start(
        first_player=winner,
        second_player=loser,
        match_length=3,
        rated=True,
        time_control=dict(services.DEFAULT_TIME_CONTROL),
        rules=MatchRules.of(variant),
    )
    services.match_award(match_id=match.pk, moderator=moderator, winner=winner, reason="left")
    return reload(match)


def established(name: str, variant: str, rating: float) -> Any:
    player = make_user(name)
    PlayerRating.objects.create(
        user=player,
        variant=variant,
        rating=rating,
        deviation=60,
        volatility=0.06,
        rated_matches=20,
        last_rated_at=timezone.now() - timedelta(days=1),
    )
    return player


def test_a_tavli_match_moves_the_tavli_rating_alone(dice, moderator, alice, bob):
    PlayerRating.objects.create(user=alice, rating=1700, deviation=80, volatility=0.06)
    match = awarded_in("tavli", dice, moderator, alice, bob)
    tavli = PlayerRating.objects.get(user=alice, variant="tavli")
    assert tavli.rating > 1500 and tavli.rated_matches == 1
    # A first tavli match starts from a new player's rating, whatever the backgammon one.
    change = RatingChange.objects.get(user=alice, match=match)
    assert (change.variant, change.rating_before, change.deviation_before) == ("tavli", 1500, 350)
    backgammon = PlayerRating.objects.get(user=alice, variant="backgammon")
    assert (backgammon.rating, backgammon.rated_matches) == (1700, 0)
    assert set(PlayerRating.objects.filter(user=bob).values_list("variant", flat=True)) == {"tavli"}


def test_one_rating_per_player_and_variant(alice):
    PlayerRating.objects.create(user=alice, variant="fevga", rating=1, deviation=1, volatility=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerRating.objects.create(
            user=alice, variant="fevga", rating=1, deviation=1, volatility=1
        )


def test_the_leaderboard_of_each_variant(client, db):
    established("nina", "nackgammon", 1800)
    established("bert", "backgammon", 1600)
    assert [r.user.username for r in selectors.leaderboard("nackgammon")] == ["nina"]
    assert [r.user.username for r in selectors.leaderboard()] == ["bert"]
    page = client.get(reverse("leaderboard"), {"variant": "nackgammon"}).content.decode()
    assert 'data-player="nina"' in page and 'data-player="bert"' not in page
    assert 'data-variant="nackgammon" aria-current="page"' in page
    default = client.get(reverse("leaderboard")).content.decode()
    assert 'data-player="bert"' in default and 'data-player="nina"' not in default
    rows = client.get("/api/leaderboard/", {"variant": "nackgammon"}).json()["results"]
    assert [(row["player"], row["variant"], row["rating"]) for row in rows] == [
        ("nina", "nackgammon", 1800.0)
    ]


def test_a_variant_that_is_none_of_ours_is_refused_clearly(client, db):
    established("nina", "nackgammon", 1800)
    page = client.get(reverse("leaderboard"), {"variant": "chess"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "There is no variant &#x27;chess&#x27;" in text and 'data-player="nina"' not in text
    answer = client.get("/api/leaderboard/", {"variant": "chess"})
    assert answer.status_code == 400
    assert answer.json() == {
        "code": "variant",
        "message": "There is no variant 'chess'; choose one of " + ", ".join(MATCH_VARIANTS) + ".",
    }
    assert client.get("/api/players/nina/ratings/", {"variant": "chess"}).status_code == 400
    assert client.get("/players/nina/", {"variant": "chess"}).status_code == 400


def test_the_profile_shows_each_variant_played_with_its_history(
    client, dice, moderator, alice, bob
):
    awarded_in("plakoto", dice, moderator, alice, bob)
    awarded_in("backgammon", dice, moderator, bob, alice)
    text = client.get(reverse("profile", args=["alice"])).content.decode()
    assert text.index('data-variant-rating="backgammon"') < text.index(
        'data-variant-rating="plakoto"'
    )
    assert text.count("data-rating-chart") == 2
    assert 'id="rating-chart-titleplakoto"' in text
    assert "Rating history in Plakoto" in text
    only = client.get(reverse("profile", args=["alice"]), {"variant": "plakoto"}).content.decode()
    assert 'data-variant-rating="plakoto"' in only
    assert 'data-variant-rating="backgammon"' not in only
    fresh = client.get(reverse("profile", args=["alice"]), {"variant": "fevga"}).content.decode()
    assert 'data-variant-rating="fevga"' in fresh and "no rated match yet" in fresh


def test_a_player_never_rated_shows_the_starting_backgammon_rating(client, alice):
    text = client.get(reverse("profile", args=["alice"])).content.decode()
    assert 'data-variant-rating="backgammon"' in text and 'data-rating="1500"' in text


def test_the_api_gives_a_players_ratings_by_variant(client, dice, moderator, alice, bob):
    match = awarded_in("long-nardi", dice, moderator, alice, bob)
    every = client.get("/api/players/alice/ratings/").json()
    assert [row["variant"] for row in every] == ["long-nardi"]
    assert [change["match"] for change in every[0]["history"]] == [match.pk]
    assert every[0]["history"][0]["rating_before"] == 1500
    one = client.get("/api/players/alice/ratings/", {"variant": "tavli"}).json()
    assert [(row["variant"], row["rated_matches"], row["history"]) for row in one] == [
        ("tavli", 0, [])
    ]
    assert client.get("/api/players/nobody/ratings/").status_code == 404


def test_the_schema_documents_the_variant_parameter(client, db):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in ("/api/leaderboard/", "/api/players/{username}/ratings/"):
        parameters = schema["paths"][path]["get"]["parameters"]
        variant = next(p for p in parameters if p["name"] == "variant")
        assert "tavli" in variant["schema"]["enum"]
        assert "400" in schema["paths"][path]["get"]["responses"]


def test_match_lists_read_each_matchs_variant_rating_in_one_query(
    dice, moderator, alice, bob, django_assert_num_queries
):
    portes = awarded_in("portes", dice, moderator, alice, bob)
    backgammon = awarded_in("backgammon", dice, moderator, bob, alice)
    PlayerRating.objects.filter(user=alice, variant="portes").update(rating=1234)
    found = Match.objects.filter(pk__in=(portes.pk, backgammon.pk)).select_related(
        "first_player__profile", "second_player__profile"
    )
    rows = {row.id: row for row in match_rows(found)}
    assert rows[portes.pk].ratings[0] == 1234
    assert rows[backgammon.pk].ratings[1] < 1500  # alice lost her backgammon match
    ids = {alice.pk, bob.pk}
    with django_assert_num_queries(1):
        selectors.ratings_for(
            (user_id, variant) for user_id in ids for variant in ("portes", "tavli")
        )


def test_the_match_page_shows_the_change_in_the_matchs_variant(client, dice, moderator, alice, bob):
    match = awarded_in("hypergammon", dice, moderator, alice, bob)
    change = RatingChange.objects.get(user=alice, match=match)
    text = client.get(reverse("match", args=[match.pk])).content.decode()
    assert f"{change.rating_after:.0f}" in text
