"""A Swiss, a double elimination and a round robin in the browser, part played: each page shows
the format as players know it, fits a phone, and axe-core finds no serious or critical
violation on it."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import BracketMatch, Match, Tournament
from tests.browser.test_pages_for_everyone import problems_on
from tests.games.factories import make_moderator, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def started(moderator: Any, format: str, names: list[str]) -> Tournament:
    tournament = services.tournament_create(
        creator=moderator,
        name=f"Harbour {format.replace('_', ' ')}",
        size=len(names),
        start_mode="when_full",
        match_length=1,
        time_control={"kind": "correspondence", "days_per_move": 1, "reserve_days": 4},
        format=format,
    )
    for name in names:
        services.tournament_sign_up(tournament_id=tournament.pk, player=make_user(name))
    return tournament


def first_results(tournament: Tournament, moderator: Any) -> None:
    """Every match under way now is won by its first seat (the higher seed)."""
    for pairing in BracketMatch.objects.filter(
        tournament=tournament, match__status=Match.Status.ACTIVE
    ).select_related("match"):
        services.match_award(
            match_id=pairing.match_id,
            moderator=moderator,
            winner=pairing.match.first_player,
            reason="test",
        )
    services.tournament_advance(tournament_id=tournament.pk)


def test_each_format_is_shown_as_players_know_it_and_is_accessible(
    live_server, signed_in_page, axe_source, screenshots
):
    base = live_server.url
    moderator = make_moderator("organiser")
    swiss = started(moderator, "swiss", ["maria", "kenji", "olu", "freya", "ibrahim"])
    double = started(moderator, "double_elimination", ["ana", "ben", "cy", "dee", "eli", "fay"])
    robin = started(moderator, "round_robin", ["gus", "hal", "ivy", "jo"])
    for tournament in (swiss, double, robin):
        first_results(tournament, moderator)
    alice = make_user("alice")

    expected = {
        swiss.pk: ("[data-swiss-standings]", "Buchholz"),
        double.pk: ("[data-losers-bracket]", "Losers' round 1"),
        robin.pk: ("[data-cross-table]", "won 1-0"),
    }
    problems: list[str] = []
    for width in (390, 1280):
        page = signed_in_page(base, alice, viewport={"width": width, "height": 900})
        for tournament_id, (section, words) in expected.items():
            page.goto(f"{base}/tournaments/{tournament_id}/")
            page.wait_for_selector(section)
            assert words in page.inner_text(section)
            page.screenshot(
                path=str(screenshots / f"tournament-{tournament_id}-{width}.png"), full_page=True
            )
            problems += problems_on(page, f"tournament {tournament_id}", width, axe_source)
    assert not problems, "\n".join(problems)
