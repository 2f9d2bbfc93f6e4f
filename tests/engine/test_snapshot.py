"""Snapshots: every state of random matches survives JSON exactly, and bad data is refused."""

import copy
import dataclasses
import json
import random
from collections.abc import Callable, Iterator

import pytest

from games.engine import (
    AcceptResignation,
    Dice,
    EngineError,
    InvalidSnapshotError,
    MatchAborted,
    MatchAwarded,
    MatchRules,
    MatchState,
    OpeningRoll,
    PlayMade,
    Resign,
    Roll,
    fold,
    snapshot,
    state_from_snapshot,
)
from tests.engine.test_match import random_event


def round_trip(state: MatchState) -> MatchState:
    return state_from_snapshot(json.loads(json.dumps(snapshot(state))))


def random_match(seed: int) -> Iterator[MatchState]:
    """Every state of a random match, which may end by score, award or abort."""
    rng = random.Random(seed)
    state = MatchState.new(rng.choice((1, 3, 5, 7)))
    yield state
    while not state.is_finished():
        if rng.random() < 0.002:
            event = MatchAwarded(rng.randint(0, 1), "time ran out")
        elif rng.random() < 0.001:
            event = MatchAborted("moderator")
        else:
            event = random_event(state, rng)
        state = state.apply(event)
        yield state


def is_json_ready(value: object) -> bool:
    if isinstance(value, dict):
        return all(isinstance(key, str) and is_json_ready(item) for key, item in value.items())
    if isinstance(value, list):
        return all(is_json_ready(item) for item in value)
    return value is None or isinstance(value, str | int | bool)


@pytest.mark.slow
def test_every_state_of_random_matches_survives_json_exactly():
    phases, endings, empty_plays = set(), set(), 0
    for seed in range(40):
        for state in random_match(seed):
            data = snapshot(state)
            assert is_json_ready(data)
            assert json.loads(json.dumps(data)) == data  # stored JSON compares equal
            assert round_trip(state) == state
            phases.add(state.phase)
            empty_plays += state.last_play is not None and not state.last_play.play.moves
        endings.add("aborted" if state.aborted else state.end_reason or "score")
    assert phases == {"opening", "rolling", "moving", "doubled", "resigned", "finished"}
    assert endings == {"score", "time ran out", "aborted"}
    assert empty_plays > 0


def test_snapshot_writes_every_field_of_the_state_and_its_version():
    """A backgammon match writes no rules and no variant board; a plakoto match writes both,
    its board in place of the position."""
    fields = {field.name for field in dataclasses.fields(MatchState)} | {"version"}
    data = snapshot(dataclasses.replace(MatchState.new(5), end_offered_by=1))
    assert data["version"] == 1
    assert set(data) == fields - {"rules", "board", "dice_named", "turns_taken"}
    plakoto = MatchState.new(5, MatchRules.of("plakoto"))
    data = snapshot(dataclasses.replace(plakoto, end_offered_by=1))
    assert set(data) == fields - {"position", "dice_named", "turns_taken"} | {"game_variant"}


def test_last_play_is_stored_as_notation_and_rebuilt_from_its_moves():
    state = fold(5, [OpeningRoll((6, 4)), PlayMade(0, "24/14"), Roll(1, Dice(2, 2))])
    data = snapshot(state)
    assert data["last_play"] == {
        "player": 0,
        "dice": [6, 4],
        "play": "24/14",
        "moves": [[24, 18, 6, False], [18, 14, 4, False]],
    }
    assert state_from_snapshot(data).last_play == state.last_play


# --- Refusals ----------------------------------------------------------------------------


def game_under_way() -> dict[str, object]:
    """Game 2 of a 5-point match, player 1 to play 4-2 after player 0's 6-5."""
    state = fold(
        5,
        [
            OpeningRoll((3, 1)),
            PlayMade(0, "8/5 6/5"),
            Resign(1, 1),
            AcceptResignation(0),
            OpeningRoll((6, 5)),
            PlayMade(0, "24/13"),
            Roll(1, Dice(4, 2)),
        ],
    )
    return snapshot(state)


def changed(**changes: object) -> Callable[[dict], None]:
    return lambda data: data.update(changes)


def removed(name: str) -> Callable[[dict], None]:
    return lambda data: data.pop(name)


def in_last_play(**changes: object) -> Callable[[dict], None]:
    return lambda data: data["last_play"].update(changes)


def in_game(**changes: object) -> Callable[[dict], None]:
    return lambda data: data["games"][0].update(changes)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (removed("version"), "^the snapshot has no 'version' field$"),
        (changed(version=2), "reads snapshots of version 1, not 2"),
        (changed(version=True), "reads snapshots of version 1, not True"),
        (removed("phase"), "^the snapshot has no 'phase' field$"),
        (changed(clock=3), "^the snapshot has no field 'clock'$"),
        (changed(match_length=65), "'match_length' is a whole number from 1 to 64, not 65"),
        (changed(match_length="5"), "'match_length' is a whole number from 1 to 64, not '5'"),
        (changed(score=[1]), "'score' is two whole numbers from 0 up, not \\[1\\]"),
        (changed(score=[-1, 0]), "'score' is two whole numbers"),
        (changed(score=[True, 0]), "'score' is two whole numbers"),
        (changed(game_number=0), "'game_number' is a whole number from 1 up, not 0"),
        (changed(crawford=0), "'crawford' is true or false, not 0"),
        (changed(cube_value=3), "'cube_value' is a power of two from 1 to 64, not 3"),
        (changed(cube_value=128), "'cube_value' is a power of two"),
        (changed(cube_owner=2), "'cube_owner' is player 0 or 1, not 2"),
        (changed(phase="won"), "'phase' is one of 'opening', .*'finished', not 'won'"),
        (changed(turn="1"), "'turn' is player 0 or 1, not '1'"),
        (changed(dice=[7, 1]), "'dice' is a list of two dice from 1 to 6, not \\[7, 1\\]"),
        (changed(dice="42"), "'dice' is a list of two dice"),
        (changed(position="4HPwATDgc/ABMA"), "'position' is a list of the board's 26 slots"),
        (changed(position=[0] * 25), "'position' is not a board: a position has 26"),
        (changed(position=[0, 16] + [0] * 24), "'position' is not a board: .* at most 15"),
        (changed(resignation=4), "'resignation' is a whole number from 1 to 3, not 4"),
        (changed(phase_before_resignation="doubled"), "'phase_before_resignation' is one of"),
        (changed(games={}), "'games' is a list, not {}"),
        (changed(games=[[1, 0, 1]]), "the snapshot's 'games\\[0\\]' is a mapping"),
        (in_game(result="won"), "'games\\[0\\].result' is one of 'single', .*, not 'won'"),
        (in_game(points=0), "'games\\[0\\].points' is a whole number from 1 up, not 0"),
        (in_game(margin=1), "^the snapshot has no field 'games\\[0\\].margin'$"),
        (changed(aborted=None), "'aborted' is true or false, not None"),
        (changed(end_reason=5), "'end_reason' is text, not 5"),
        (changed(last_play="24/13"), "the snapshot's 'last_play' is a mapping"),
        (in_last_play(player=None), "'last_play.player' is player 0 or 1, not None"),
        (in_last_play(moves=[[24, 18, 5, False]]), "'last_play.moves\\[0\\]' is a checker's"),
        (in_last_play(moves=[[24, 18, 6, 0]]), "'last_play.moves\\[0\\]' is a checker's"),
        (in_last_play(moves=[[26, 20, 6, False]]), "'last_play.moves\\[0\\]' is a checker's"),
        (in_last_play(moves=[[24, 18, 6]]), "'last_play.moves\\[0\\]' is a checker's"),
        (in_last_play(moves=[[6, 5, 1, False]] * 5), "'last_play.moves' is at most four moves"),
        (in_last_play(play="24/18 13/8"), "'last_play' says '24/18 13/8', but its moves are"),
        (in_last_play(seen=True), "^the snapshot has no field 'last_play.seen'$"),
        (changed(turn=None), "contradicts itself: the phase 'moving' needs a player on turn"),
        (changed(phase="opening"), "contradicts itself: the phase 'opening' needs no player"),
        (changed(dice=None), "contradicts itself: the phase 'moving' does not fit the dice"),
        (changed(phase="rolling"), "contradicts itself: the phase 'rolling' does not fit the dice"),
        (changed(resignation=2), "contradicts itself: .* does not fit the resignation 2"),
        (changed(phase="resigned"), "contradicts itself: .* does not fit the resignation None"),
        (changed(winner=1), "contradicts itself: .* does not fit the winner 1"),
        (changed(aborted=True), "contradicts itself: the phase 'moving' does not fit aborted True"),
        (changed(end_reason="timeout"), "contradicts itself: .* no end reason, not 'timeout'"),
    ],
)
def test_malformed_snapshots_are_refused_with_a_clear_message(damage, message):
    data = game_under_way()
    state_from_snapshot(copy.deepcopy(data))  # sound before the damage
    damage(data)
    with pytest.raises(InvalidSnapshotError, match=message):
        state_from_snapshot(data)


@pytest.mark.parametrize("data", [None, [], "snapshot", 1])
def test_a_snapshot_is_a_mapping(data):
    with pytest.raises(EngineError, match="^a snapshot is a mapping, not"):
        state_from_snapshot(data)
