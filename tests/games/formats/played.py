"""A 5-point match played through the services, for the export tests: a double taken, a
double dropped, games played to the last checker, and a Crawford game."""

from __future__ import annotations

from typing import Any

from games.engine import format_play
from games.models import Match
from tests.games.factories import ScriptedDice, act, reload, start_match, state_of

#: With these scripted dice the match below has a Crawford game (the test checks it).
DICE_SEED = 1


def play_match_with_cube_and_crawford(first: Any, second: Any, dice: ScriptedDice) -> Match:
    """Play a 5-point match to its end: in game 1 the first player on roll who may doubles and
    is taken, in game 2 doubled and dropped; every play runs (fewest pips left)."""
    dice.add_random(4000, seed=DICE_SEED)
    match = start_match(first, second, length=5)
    users = (first, second)
    while True:
        match = reload(match)
        state = state_of(match)
        if state.is_finished():
            return match
        player = state.player_to_act()
        assert player is not None
        user = users[player]
        actions = state.legal_actions(player)
        if state.phase == "doubled":
            match = act(match, user, "take" if state.game_number == 1 else "drop")
        elif "double" in actions and state.game_number <= 2 and state.cube_value == 1:
            match = act(match, user, "double")
        elif "roll" in actions:
            match = act(match, user, "roll")
        else:
            position = state.position_for(player)
            play = min(
                state.legal_plays(),
                key=lambda p: (position.apply(p).pip_count()[0], format_play(p)),
            )
            match = act(match, user, "move", play=format_play(play))
