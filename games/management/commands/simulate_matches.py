"""`manage.py simulate_matches N`: whole matches played through the services at random."""

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from games import services
from games.engine import MatchState, format_play, state_from_snapshot
from games.models import Match

SIMULATED_PLAYERS = 8


class Command(BaseCommand):
    help = (
        "Create simulated players and play N whole matches between them through "
        "games/services.py, choosing at random among the legal actions: doubles, takes, "
        "drops, resignations of every value and plays. For demos, load tests and checks."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("count", type=int)
        parser.add_argument("--length", type=int, default=5, help="Match length (5).")
        parser.add_argument("--seed", type=int, default=None, help="Seed for the choices.")

    def handle(self, *args: Any, count: int, length: int, seed: int | None, **options: Any) -> None:
        rng = random.Random(seed)
        players = simulated_players()
        events = games = 0
        for _ in range(count):
            first, second = rng.sample(players, 2)
            match = services.match_start(
                first_player=first,
                second_player=second,
                match_length=length,
                rated=False,
                time_control=services.DEFAULT_TIME_CONTROL,
            )
            match = play_out(match, rng)
            state = state_from_snapshot(match.state)
            events += match.seq
            games += len(state.games)
        self.stdout.write(f"{count} matches played: {games} games, {events} events")


def simulated_players() -> list[Any]:
    user_model = get_user_model()
    players = []
    for number in range(1, SIMULATED_PLAYERS + 1):
        user, created = user_model.objects.get_or_create(username=f"sim{number}")
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        players.append(user)
    return players


def play_out(match: Match, rng: random.Random) -> Match:
    """Play ``match`` to its end with random legal choices."""
    while match.status == Match.Status.ACTIVE:
        state = state_from_snapshot(match.state)
        player = state.player_to_act()
        assert player is not None
        action, extra = random_action(state, player, rng)
        match = services.match_act(
            match_id=match.pk,
            actor=match.players[player],
            expected_seq=match.seq,
            action=action,
            **extra,
        )
    return match


def random_action(state: MatchState, player: int, rng: random.Random) -> tuple[str, dict[str, Any]]:
    actions = state.legal_actions(player)
    if "resign" in actions and rng.random() < 0.02:
        return "resign", {"points": rng.choice((1, 2, 3))}
    if "double" in actions and rng.random() < 0.2:
        return "double", {}
    if "take" in actions:
        return ("take" if rng.random() < 0.6 else "drop"), {}
    if "accept_resign" in actions:
        return ("accept_resign" if rng.random() < 0.5 else "reject_resign"), {}
    if "move" in actions:
        return "move", {"play": format_play(rng.choice(state.legal_plays()))}
    return "roll", {}
