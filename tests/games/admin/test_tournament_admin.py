"""Moderators see tournaments, their players and their bracket in the admin, read-only."""

from typing import Any

from games import services
from tests.games.factories import make_user


def test_a_running_tournament_in_the_admin(signed_in: Any, moderator: Any) -> None:
    tournament = services.tournament_create(
        creator=moderator, name="Admin cup", size=4, start_mode="when_full"
    )
    for n in range(4):
        services.tournament_sign_up(tournament_id=tournament.pk, player=make_user(f"m{n}"))
    browser = signed_in(moderator)
    listing = browser.get("/admin/games/tournament/")
    assert listing.status_code == 200 and "Admin cup" in listing.content.decode()
    page = browser.get(f"/admin/games/tournament/{tournament.pk}/change/")
    assert page.status_code == 200
    assert "m3 in Admin cup" in page.content.decode()
    assert browser.get("/admin/games/tournament/add/").status_code == 403
