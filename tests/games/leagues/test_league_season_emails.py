"""Issue 37: one email per player at a season's start, listing their matches; each turn after
it told as usual."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core import mail

from games import services
from games.engine import format_play
from tests.games.factories import act, state_of
from tests.games.leagues.helpers import make_league, pairings_of, rated_player, start_season


def test_one_email_per_player_at_a_season_start(
    moderator: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTIFICATION_DELAY = 0  # every email due at once: none is left to come later
    league = make_league(moderator, name="Friday league")
    players = [rated_player(f"e{n}", 1500) for n in range(6)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        season = start_season(league)
    assert len(pairings_of(season)) == 15
    to = Counter(address for message in mail.outbox for address in message.to)
    assert to == {f"e{n}@example.com": 1 for n in range(6)}
    message = next(m for m in mail.outbox if m.to == ["e0@example.com"])
    assert message.subject == "Your 5 matches in Friday league (season 1, division 1) have started"
    for n in range(1, 6):
        assert f"e{n}" in message.body
    assert "your turn" in message.body.lower()


def test_after_a_season_start_each_turn_is_told_as_usual(
    dice: Any, moderator: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.NOTIFICATION_DELAY = 0
    dice.add_random(200, seed=38)
    league = make_league(moderator)
    players = [rated_player(f"u{n}", 1500) for n in range(4)]
    for player in players:
        services.league_sign_up(league_id=league.pk, player=player)
    with django_capture_on_commit_callbacks(execute=True):
        season = start_season(league)
    mail.outbox.clear()
    match = pairings_of(season)[0].match
    match.refresh_from_db()
    mover = match.to_act
    opponent = match.second_player if mover == match.first_player else match.first_player
    play = format_play(state_of(match).legal_plays()[0])
    with django_capture_on_commit_callbacks(execute=True):
        act(match, mover, "move", play=play)
    assert [m.to for m in mail.outbox] == [[opponent.email]]
    assert mail.outbox[0].subject.startswith(f"Your turn against {mover.username}")
