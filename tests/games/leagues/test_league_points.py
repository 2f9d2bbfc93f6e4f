"""Issue 37: league points capped at the match length, and the order of the table stated on
the page."""

from __future__ import annotations

from typing import Any

from games import services
from games.models import Match
from games.services.league_tables import counted_result
from tests.games.leagues.helpers import award, make_league, pairings_of, rated_player, start_season


def test_a_3_point_match_won_5_2_counts_1(moderator: Any) -> None:
    league = make_league(moderator, match_length=3)
    for n in range(4):
        services.league_sign_up(league_id=league.pk, player=rated_player(f"c{n}", 1500))
    season = start_season(league)
    pairing = pairings_of(season)[0]
    match = pairing.match
    award(match, match.first_player, moderator)
    state = Match.objects.get(pk=match.pk).state
    state["score"] = [5, 2]
    Match.objects.filter(pk=match.pk).update(state=state)
    pairing.match.refresh_from_db()
    result = counted_result(pairing, None)
    assert result is not None
    first = pairing.first_id if pairing.first.player == match.first_player else pairing.second_id
    second = pairing.second_id if first == pairing.first_id else pairing.first_id
    assert (result.points[first], result.points[second]) == (3, 2)


def test_the_tie_break_order_is_stated_on_the_page(client: Any, moderator: Any) -> None:
    league = make_league(moderator)
    for n in range(4):
        services.league_sign_up(league_id=league.pk, player=rated_player(f"o{n}", 1500))
    start_season(league)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert (
        "Order: match wins, then points difference (a winner counts the match length, however "
        "many points they scored), then head to head, then points won, then rating at the "
        "start, then the earlier sign-up."
    ) in page
