"""Matches of every variant through the state machine: whole random matches, and one hand-made
board or log per rule of a variant's match (docs/variants.md §9)."""

import json
import random

import pytest

from games.engine import (
    Board,
    Dice,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    InvalidSnapshotError,
    MatchFormat,
    MatchRules,
    MatchState,
    UnknownVariantError,
    event_from_payload,
    fold,
    format_play,
    match_winner,
    snapshot,
    state_from_snapshot,
    variant_named,
)
from games.engine.events import (
    AcceptResignation,
    Double,
    DoubleNamed,
    Drop,
    Event,
    OpeningRoll,
    PlayMade,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from games.engine.match import NO_POSITION
from games.engine.variants import VARIANTS
from games.engine.words import event_words
from tests.engine.matches import at

#: Each variant's match, and Tavli's two formats: (rules, length).
MATCHES = [
    *[(MatchRules.of(name), 5 if name == "hypergammon" else 3) for name in VARIANTS],
    (MatchRules.of("tavli", "tavli-points"), 5),
    (MatchRules.of("tavli", "tavli-best-of-three"), 3),
]
NAMES = ("alice", "bob")


def board_of(variant: str, text: str) -> Board:
    return Board.parse(variant_named(variant), text)


def points_text(tokens: dict[int, str], counts: str = "0 0 0 0") -> str:
    """A text board with ``tokens`` on their points and 0 elsewhere."""
    return " ".join(tokens.get(point, "0") for point in range(1, 25)) + " | " + counts


def moving(rules: MatchRules, board: Board, dice: Dice, length: int = 3) -> MatchState:
    """Player 0 to play ``dice`` on ``board`` (player 0's side) in a new ``rules`` match."""
    return at(MatchState.new(length, rules), phase="moving", turn=0, dice=dice, board=board)


# --- Whole matches -------------------------------------------------------------------------


def server_event(state: MatchState, rng: random.Random) -> Event:
    """A random legal event: the server's dice, players' random legal plays, and now and then a
    double, take, drop or resignation where the match allows them."""
    if state.phase == "opening":
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    player = state.player_to_act()
    assert player is not None
    actions = state.legal_actions(player)
    if "resign" in actions and rng.random() < 0.004:
        return Resign(player, rng.choice(state.resignation_offers()))
    if "name_double" in actions:
        return DoubleNamed(player, rng.randint(1, 6))
    if "move" in actions:
        return PlayMade(player, rng.choice(state.variant_plays()).notation)
    if "double" in actions and rng.random() < 0.1:
        return Double(player)
    if "roll" in actions:
        return Roll(player, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    if "take" in actions:
        return Take(player) if rng.random() < 0.7 else Drop(player)
    assert actions == ("accept_resign", "reject_resign")
    return AcceptResignation(player) if rng.random() < 0.6 else RejectResignation(player)


def check_step(before: MatchState, event: Event, state: MatchState) -> None:
    variant = state.game_variant
    board = state.board_for(0)
    assert board.variant == variant
    assert board.flipped() == state.board_for(1) and board.flipped().flipped() == board
    assert (state.board is None) == variant.holds_position
    assert state.position == NO_POSITION or state.board is None
    assert state.pip_counts() == board.pip_count()
    assert (state.position_id(0) is None) == (not variant.holds_position)
    assert list(state.score) == [
        sum(game.points for game in state.games if game.winner == player) for player in (0, 1)
    ]
    if not state.rules.cube:
        assert state.cube_value == 1 and "double" not in state.legal_actions(0) + (
            state.legal_actions(1)
        )
    if not state.rules.crawford:
        assert not state.crawford
    winner = match_winner(
        state.rules.match_format, state.match_length, state.score, state.games_won()
    )
    assert state.is_finished() == (winner is not None)
    assert state.winner == winner
    if state.phase == "moving" and variant.holds_position:
        # The backgammon generator that plays these variants agrees with the family's own.
        fast = {before_board_after(state, play) for play in state.legal_plays()}
        assert fast == {play.after for play in state.variant_plays()}
    words = event_words(event, before, state, NAMES)
    assert words.words


def before_board_after(state: MatchState, play: object) -> Board:
    assert state.turn is not None
    after = state.position_for(state.turn).apply(play)  # type: ignore[arg-type]
    return Board(state.game_variant, after.points)


def play_out(rules: MatchRules, length: int, seed: int) -> tuple[list[Event], MatchState]:
    """A whole match by random legal events, each applied to the state read back from the
    previous state's snapshot JSON and its event read back from its payload's JSON."""
    rng = random.Random(seed)
    state = MatchState.new(length, rules)
    events: list[Event] = []
    for _ in range(20_000):
        if state.is_finished():
            break
        event = server_event(state, rng)
        event = event_from_payload(event.kind, json.loads(json.dumps(event.to_payload())))
        after = state.apply(event)
        check_step(state, event, after)
        events.append(event)
        restored = state_from_snapshot(json.loads(json.dumps(snapshot(after))))
        assert restored == after
        assert snapshot(restored) == snapshot(after)
        state = restored
    assert state.is_finished()
    return events, state


@pytest.mark.parametrize(
    ("rules", "length"), MATCHES, ids=[f"{r.variant}-{r.match_format.value}" for r, _ in MATCHES]
)
def test_a_whole_match_of_each_variant_plays_to_its_end_and_folds_again(rules, length):
    """A short match of each (two games of Tavli at least); the slow test plays longer ones."""
    length = 3 if rules.counts_games() else 2 if rules.variant == "tavli" else 1
    events, final = play_out(rules, length, seed=7)
    assert fold(length, events, rules) == final
    assert final.winner is not None
    assert [game.number for game in final.games] == list(range(1, len(final.games) + 1))
    if rules.counts_games():
        draws = sum(game.winner is None for game in final.games)
        assert max(final.games_won()) == 2 and 2 <= len(final.games) - draws <= 3


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "length"), MATCHES)
def test_many_whole_matches_of_each_variant(rules, length):
    for seed in range(4):
        events, final = play_out(rules, length, seed)
        assert fold(length, events, rules) == final


def test_a_log_without_rules_is_a_backgammon_match():
    events = [OpeningRoll((3, 1)), PlayMade(0, "8/5 6/5")]
    assert fold(3, events) == fold(3, events, MatchRules()) == fold(3, events, None)
    assert "rules" not in snapshot(fold(3, events)) and "board" not in snapshot(fold(3, events))
    assert MatchRules.from_payload({"match_length": 3, "rated": True}) == MatchRules()


def test_the_start_record_carries_the_rules_and_reads_them_back():
    rules = MatchRules.of("tavli", "tavli-best-of-three")
    assert rules.payload() == {
        "variant": "tavli",
        "match_format": "tavli-best-of-three",
        "cube": False,
    }
    assert MatchRules.from_payload({"match_length": 3, **rules.payload()}) == rules
    assert MatchRules.of("long-nardi") == MatchRules("long-nardi", MatchFormat.POINTS, False)
    assert MatchRules.of("tavli", cube=True).cube


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"variant": "chess"}, "there is no variant 'chess'"),
        ({"variant": "plakoto", "match_format": "tavli-points"}, "played as 'points'"),
        ({"variant": "tavli", "match_format": "points"}, "'tavli-best-of-three' or"),
        ({"variant": "tavli", "match_format": "best-of-five"}, "no match format"),
        ({"variant": "tavli", "match_format": "tavli-best-of-three", "cube": True}, "no cube"),
        ({"variant": 3}, "named by text"),
    ],
)
def test_bad_rules_are_refused_with_a_reason(payload, message):
    with pytest.raises(UnknownVariantError, match=message):
        MatchRules.from_payload(payload)


def test_a_best_of_three_match_has_the_length_3():
    with pytest.raises(IllegalActionError, match="best-of-three Tavli match has the length 3"):
        MatchState.new(5, MatchRules.of("tavli", "tavli-best-of-three"))


# --- Plakoto: the mother and the draw --------------------------------------------------------


def test_plakoto_pinning_the_mother_wins_2_points():
    board = board_of("plakoto", points_text({1: "-1", 3: "1", 10: "14", 20: "-14"}))
    state = moving(MatchRules.of("plakoto"), board, Dice(2, 1), length=5)
    before = state
    state = state.apply(PlayMade(0, "10/9 3/1*"))
    assert state.score == (2, 0)
    assert state.games[-1].result == "mother" and state.games[-1].points == 2
    # Tavli's later games are led by the previous game's winner, who rolls.
    assert (state.phase, state.turn, state.game_number) == ("rolling", 0, 2)
    assert state.board_for(0) == Board.starting(variant_named("plakoto"))
    words = event_words(PlayMade(0, "10/9 3/1*"), before, state, NAMES).words
    assert "alice wins game 1, pinning the mother (2 points)" in words


def test_plakoto_pinning_the_mother_while_the_own_start_is_held_plays_on():
    board = board_of("plakoto", points_text({1: "-1", 3: "1", 10: "13", 24: "1", 20: "-14"}))
    state = moving(MatchRules.of("plakoto"), board, Dice(2, 1)).apply(PlayMade(0, "10/9 3/1*"))
    assert state.games == () and state.phase == "rolling" and state.turn == 1
    assert state.board_for(0).points[1] == 1 and state.board_for(0).pinned[1] == 1


def test_plakoto_both_mothers_pinned_is_a_draw_that_scores_nothing_and_is_played_again():
    rules = MatchRules.of("tavli", "tavli-points")
    tavli = fold(5, [OpeningRoll((4, 2)), Resign(0, 1), AcceptResignation(1)], rules)
    assert tavli.game_variant.name == "plakoto" and tavli.score == (0, 1)
    board = board_of("plakoto", points_text({1: "-1", 3: "1", 10: "13", 24: "-1p1", 20: "-13"}))
    before = at(tavli, phase="moving", turn=0, dice=Dice(2, 1), board=board)
    state = before.apply(PlayMade(0, "10/9 3/1*"))
    assert state.games[-1].winner is None and state.games[-1].result == "draw"
    assert state.games[-1].points == 0 and state.score == (0, 1)
    assert (state.phase, state.turn, state.game_number) == ("opening", None, 3)
    assert state.game_variant.name == "plakoto"
    assert state.board_for(0) == Board.starting(variant_named("plakoto"))
    words = event_words(PlayMade(0, "10/9 3/1*"), before, state, NAMES).words
    assert "game 2 is a draw, both mothers pinned: no points, and game 3 is Plakoto again" in words
    data = json.loads(json.dumps(snapshot(state)))
    assert data["games"][-1] == {
        "number": 2,
        "winner": None,
        "points": 0,
        "result": "draw",
        "crawford": False,
    }
    assert state_from_snapshot(data) == state


def test_plakoto_a_pinned_checker_cannot_move():
    board = board_of("plakoto", points_text({1: "-14", 13: "-1p1", 24: "14"}))
    state = moving(MatchRules.of("plakoto"), board, Dice(6, 1))
    with pytest.raises(IllegalPlayError, match="pinned: a pinned checker cannot move"):
        state.apply(PlayMade(0, "13/7 13/12"))
    assert state.apply(PlayMade(0, "24/18 24/23")).last_play is not None


def test_plakoto_a_pin_is_marked_in_the_last_play_and_survives_the_snapshot():
    board = board_of("plakoto", points_text({1: "-14", 18: "-1", 24: "15"}))
    state = moving(MatchRules.of("plakoto"), board, Dice(6, 1)).apply(PlayMade(0, "24/18 24/23"))
    assert state.last_play is not None and format_play(state.last_play.play) == "24/23 24/18*"
    assert state.board_for(0).text().split()[17] == "1p1"
    assert state_from_snapshot(json.loads(json.dumps(snapshot(state)))) == state


def test_plakoto_resigning_a_backgammon_is_refused():
    state = moving(MatchRules.of("plakoto"), Board.starting(variant_named("plakoto")), Dice(6, 1))
    with pytest.raises(IllegalActionError, match="Plakoto has no backgammon"):
        state.apply(Resign(0, 3))
    assert state.resignation_offers() == (1, 2)
    assert state.apply(Resign(0, 2)).apply(AcceptResignation(1)).score == (0, 2)


def test_a_refused_resignation_calls_the_double_game_by_the_variants_word():
    board = Board.starting(variant_named("long-nardi"))
    state = moving(MatchRules.of("long-nardi"), board, Dice(6, 1))
    with pytest.raises(IllegalActionError, match=r"resign 1 \(a single game\) or 2 \(a mars\)"):
        state.apply(Resign(0, 3))


# --- Long nardi and fevga ----------------------------------------------------------------


def test_long_nardi_mars_scores_2():
    board = board_of("long-nardi", points_text({1: "1", 5: "-15"}, "14 0 0 0"))
    before = moving(MatchRules.of("long-nardi"), board, Dice(2, 1), length=5)
    state = before.apply(PlayMade(0, "1/off"))
    assert state.score == (2, 0) and state.games[-1].result == "gammon"
    assert (state.phase, state.game_number) == ("opening", 2)
    assert state.board_for(0) == Board.starting(variant_named("long-nardi"))
    words = event_words(PlayMade(0, "1/off"), before, state, NAMES).words
    assert "alice wins game 1, a mars (2 points)" in words


def test_long_nardi_a_single_win_once_the_loser_has_borne_off():
    board = board_of("long-nardi", points_text({1: "1", 14: "-14"}, "14 1 0 0"))
    state = moving(MatchRules.of("long-nardi"), board, Dice(2, 1)).apply(PlayMade(0, "1/off"))
    assert state.score == (1, 0) and state.games[-1].result == "single"


def test_fevga_winning_the_match_and_the_pip_counts():
    board = board_of("fevga", points_text({2: "1", 17: "-2"}, "14 13 0 0"))
    state = moving(MatchRules.of("fevga"), board, Dice(3, 2), length=1)
    assert state.pip_counts() == (2, 10)
    state = state.apply(PlayMade(0, "2/off"))
    assert state.is_finished() and state.winner == 0 and state.score == (1, 0)


def test_fevga_opening_is_the_start_and_each_side_runs_from_its_corner():
    state = MatchState.new(3, MatchRules.of("fevga")).apply(OpeningRoll((2, 5)))
    assert (state.phase, state.turn, state.dice) == ("rolling", 1, None)
    assert state.pip_counts() == (360, 360)
    state = state.apply(Roll(1, Dice(6, 5)))
    assert {play.notation for play in state.variant_plays()} == {"24/13"}
    state = state.apply(PlayMade(1, "24/13"))
    assert state.board_for(1).points[13] == 1 and state.board_for(0).points[1] == -1


# --- Tavli's rotation --------------------------------------------------------------------


def resign_game(state: MatchState, loser: int) -> MatchState:
    """``loser`` resigns a single game on their turn (the opponent accepts)."""
    if state.phase == "opening":
        state = state.apply(OpeningRoll((6, 1) if loser == 0 else (1, 6)))
    if state.turn != loser:
        state = state.apply(Roll(state.turn, Dice(1, 2)))
        if state.phase == "moving":
            state = state.apply(PlayMade(state.turn, state.variant_plays()[0].notation))
    return state.apply(Resign(loser, 1)).apply(AcceptResignation(1 - loser))


def test_tavli_best_of_three_plays_portes_plakoto_fevga_and_ends_at_two_won_games():
    state = MatchState.new(3, MatchRules.of("tavli", "tavli-best-of-three"))
    played = []
    for loser in (0, 1, 0):
        played.append(state.game_variant.name)
        state = resign_game(state, loser)
    assert played == ["portes", "plakoto", "fevga"]
    assert state.is_finished() and state.winner == 1 and state.games_won() == (1, 2)
    assert state.score == (1, 2)


def test_tavli_best_of_three_ends_after_two_games_won_by_one_player():
    state = MatchState.new(3, MatchRules.of("tavli", "tavli-best-of-three"))
    state = resign_game(resign_game(state, 1), 1)
    assert state.is_finished() and state.winner == 0 and len(state.games) == 2


def test_tavli_points_rotate_the_three_games_until_a_player_reaches_the_length():
    state = MatchState.new(5, MatchRules.of("tavli", "tavli-points"))
    played = []
    while not state.is_finished():
        played.append(state.game_variant.name)
        state = resign_game(state, len(played) % 2)
    assert played == [
        "portes",
        "plakoto",
        "fevga",
        "portes",
        "plakoto",
        "fevga",
        "portes",
        "plakoto",
        "fevga",
    ]
    assert state.score == (5, 4) and state.winner == 0


def test_tavli_the_opening_roll_decides_the_leader_who_rolls_and_the_winner_leads_next():
    state = MatchState.new(5, MatchRules.of("tavli"))
    opened = state.apply(OpeningRoll((3, 5)))
    assert (opened.phase, opened.turn, opened.dice) == ("rolling", 1, None)
    words = event_words(OpeningRoll((3, 5)), state, opened, NAMES).words
    assert words == "opening roll 3-5 (alice 3, bob 5) — bob starts and rolls"
    after = opened.apply(Resign(1, 2)).apply(AcceptResignation(0))
    assert (after.phase, after.turn, after.game_variant.name) == ("rolling", 0, "plakoto")
    assert after.board is not None and after.position == NO_POSITION


# --- The cube ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "name"),
    [
        (MatchRules.of("tavli"), "Tavli"),
        (MatchRules.of("tavli", "tavli-best-of-three"), "Tavli"),
        (MatchRules.of("long-nardi"), "long nardi"),
        (MatchRules.of("plakoto"), "plakoto"),
        (MatchRules.of("nackgammon", cube=False), "this nackgammon match"),
    ],
)
def test_no_cube_where_the_match_has_none(rules, name):
    length = 3
    state = MatchState.new(length, rules).apply(OpeningRoll((3, 5)))
    if state.phase == "moving":
        state = state.apply(PlayMade(1, state.variant_plays()[0].notation))
    assert state.phase == "rolling"
    assert "double" not in state.legal_actions(state.turn)
    assert not state.can_double(state.turn)
    with pytest.raises(IllegalActionError, match=f"You cannot double: there is no cube in {name}."):
        state.apply(Double(state.turn))


def test_a_tavli_match_may_turn_the_cube_on():
    state = MatchState.new(5, MatchRules.of("tavli", cube=True)).apply(OpeningRoll((3, 5)))
    state = state.apply(Double(1)).apply(Take(0))
    assert state.cube_value == 2 and state.cube_owner == 0


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon"])
def test_set_up_variants_have_the_cube_and_the_crawford_game_like_backgammon(variant):
    rules = MatchRules.of(variant)
    assert rules.cube and rules.crawford
    start = MatchState.new(3, rules)
    assert start.position_id(0) == start.board_for(0).position_id()
    state = start.apply(OpeningRoll((1, 2)))
    assert (state.phase, state.turn, state.dice) == ("moving", 1, Dice(2, 1))
    state = state.apply(PlayMade(1, state.variant_plays()[0].notation))
    state = state.apply(Double(0)).apply(Take(1))
    assert (state.cube_value, state.cube_owner) == (2, 1)
    state = state.apply(Roll(0, Dice(3, 1)))
    state = state.apply(Resign(0, 1)).apply(AcceptResignation(1))
    assert state.score == (0, 2) and state.crawford and state.games[-1].points == 2
    assert (state.phase, state.turn) == ("opening", None)
    state = state.apply(OpeningRoll((4, 2)))
    state = state.apply(PlayMade(0, state.variant_plays()[0].notation))
    with pytest.raises(IllegalActionError, match="Crawford game"):
        state.apply(Double(1))
    state = state.apply(Resign(1, 1)).apply(AcceptResignation(0))
    assert state.score == (1, 2) and not state.crawford and state.crawford_played
    state = state.apply(OpeningRoll((4, 2)))
    state = state.apply(PlayMade(0, state.variant_plays()[0].notation))
    assert state.can_double(1) is False  # the cube is dead for the leader needing 1 point
    assert state.can_double(0) is False  # not on roll
    state = state.apply(Roll(1, Dice(2, 1)))
    state = state.apply(PlayMade(1, state.variant_plays()[0].notation))
    assert state.can_double(0)


def test_hypergammon_resigning_a_backgammon_is_allowed_and_scores_3_times_the_cube():
    state = MatchState.new(5, MatchRules.of("hypergammon")).apply(OpeningRoll((1, 2)))
    assert state.resignation_offers() == (1, 2, 3)
    state = state.apply(Resign(1, 3)).apply(AcceptResignation(0))
    assert state.score == (3, 0) and state.games[-1].result == "resign"


def test_gnubg_ids_only_for_the_backgammon_family():
    assert MatchState.new(3, MatchRules.of("hypergammon")).has_gnubg_ids()
    assert not MatchState.new(3, MatchRules.of("portes")).has_gnubg_ids()
    assert MatchState.new(3, MatchRules.of("portes")).position_id(0) == "4HPwATDgc/ABMA"
    assert MatchState.new(3, MatchRules.of("fevga")).position_id(0) is None


def test_gnubg_ids_and_xgid_are_refused_outside_the_backgammon_family():
    from games.engine.match_ids import gnubg_ids, xgid_of

    assert gnubg_ids(MatchState.new(3, MatchRules.of("nackgammon")))[0] == (
        Board.starting(variant_named("nackgammon")).position_id()
    )
    for rules in (MatchRules.of("tavli"), MatchRules.of("long-nardi")):
        with pytest.raises(InvalidPositionError, match="describe backgammon, nackgammon"):
            gnubg_ids(MatchState.new(3, rules))
        with pytest.raises(InvalidPositionError, match="describe backgammon, nackgammon"):
            xgid_of(MatchState.new(3, rules))


# --- Snapshots ---------------------------------------------------------------------------


def tavli_snapshot() -> dict:
    """The snapshot of a Tavli match whose first game is under way (portes)."""
    return json.loads(json.dumps(snapshot(MatchState.new(3, MatchRules.of("tavli")))))


def test_a_variant_snapshot_names_its_rules_game_and_board():
    data = snapshot(
        MatchState.new(3, MatchRules.of("tavli")).apply(OpeningRoll((1, 2))).apply(Resign(1, 1))
    )
    data = snapshot(state_from_snapshot(data).apply(AcceptResignation(0)))
    assert data["rules"] == {"variant": "tavli", "match_format": "tavli-points", "cube": False}
    assert data["game_variant"] == "plakoto" and "position" not in data
    assert data["board"] == "-15 " + "0 " * 22 + "15 | 0 0 0 0"
    assert state_from_snapshot(data).board_for(0).variant.name == "plakoto"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game_variant": "long-nardi"}, "'game_variant' is one of 'portes', 'plakoto', 'fevga'"),
        ({"game_variant": "plakoto"}, "no 'board' field"),
        ({"board": "-15 " + "0 " * 22 + "15 | 0 0 0 0"}, "no field 'board'"),
        (
            {"rules": {"variant": "backgammon", "match_format": "points", "cube": True}},
            "write none",
        ),
        ({"rules": {"variant": "chess", "match_format": "points", "cube": True}}, "no variant"),
        (
            {
                "games": [
                    {"number": 1, "winner": 0, "points": 0, "result": "draw", "crawford": False}
                ]
            },
            "draw and has no winner",
        ),
    ],
)
def test_bad_variant_snapshots_are_refused(change, message):
    data = tavli_snapshot()
    data.update(change)
    with pytest.raises(InvalidSnapshotError, match=message):
        state_from_snapshot(data)


def test_a_snapshot_board_must_hold_the_variant_s_checkers():
    data = snapshot(MatchState.new(3, MatchRules.of("long-nardi")))
    data["board"] = "-14 " + "0 " * 22 + "15 | 0 0 0 0"
    with pytest.raises(InvalidSnapshotError, match="'board' is not a long-nardi board"):
        state_from_snapshot(data)
    data = snapshot(MatchState.new(3, MatchRules.of("hypergammon")))
    data["position"] = list(Board.starting(variant_named("backgammon")).points)
    with pytest.raises(InvalidSnapshotError, match="no hypergammon board"):
        state_from_snapshot(data)


@pytest.mark.parametrize(
    ("variant", "pips"),
    [
        ("backgammon", 167),
        ("portes", 167),
        ("nackgammon", 194),
        ("hypergammon", 69),
        ("plakoto", 360),
        ("fevga", 360),
        ("long-nardi", 360),
    ],
)
def test_starting_pip_counts_of_every_variant(variant, pips):
    """docs/variants.md §9.1."""
    assert MatchState.new(3, MatchRules.of(variant)).pip_counts() == (pips, pips)


def test_long_nardi_only_one_checker_leaves_the_head_a_turn():
    board = board_of("long-nardi", points_text({12: "-15", 20: "1", 24: "14"}))
    state = moving(MatchRules.of("long-nardi"), board, Dice(5, 3))
    with pytest.raises(IllegalPlayError, match="only one checker may leave the head"):
        state.apply(PlayMade(0, "24/19 24/21"))
    assert state.apply(PlayMade(0, "24/19 20/17")).board_for(0).mine(24) == 13
